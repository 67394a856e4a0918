// A conversation's SLA as the inbox shows it: on each row the time left on its earliest running
// clock ("12 min"; red, "overdue 5 min", once it passed or the SLA was breached), and in the
// details panel the policy with each target's due time and how it stands. Counting down needs
// no request: one shared timer (ui/use-now.ts) re-renders these labels; breaches the server
// records arrive as live events with the conversation.
import { useId } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { timeLeft } from '../../ui/durations.js';
import { fullDate } from '../../ui/labels.js';
import { useNow } from '../../ui/use-now.js';
import { useResource } from '../../use-resource.js';

type Sla = Schemas['ConversationSla'];
type Target = Sla['breaches'][number];

export const SLA_TARGETS: Record<Target, string> = { first_response: 'First response', next_response: 'Next response', resolution: 'Resolution' };
const DUE_OF = { first_response: 'first_response_due_at', next_response: 'next_response_due_at', resolution: 'resolution_due_at' } as const;

const breachedText = (sla: Sla) => `SLA breached: ${sla.breaches.map((target) => SLA_TARGETS[target].toLowerCase()).join(', ')}`;

/** The row's label: nothing without an SLA, "SLA missed" once it is over and missed, else the countdown. */
export function SlaTimeLeft({ sla }: { sla: Sla | null }) {
  if (!sla) return null;
  if (sla.due_at === null) {
    return sla.status === 'missed' ? <span class="sla sla-breached" title={breachedText(sla)}>SLA missed</span> : null;
  }
  return <Countdown due={sla.due_at} breached={sla.breaches.length > 0} title={sla.breaches.length > 0 ? breachedText(sla) : undefined} />;
}

function Countdown({ due, breached, title }: { due: string; breached: boolean; title?: string }) {
  const left = timeLeft(due, useNow());
  const red = left.overdue || breached;
  return (
    <span class={`sla ${red ? 'sla-breached' : ''}`} title={title ?? `Due ${fullDate(due)}`} data-breached={breached ? 'true' : undefined}>
      <span class="visually-hidden">SLA </span>{left.text}
    </span>
  );
}

/**
 * Whether a target's clock runs now. The earliest running clock's due time is the SLA's `due_at`;
 * resolution runs while the conversation is open. A response clock whose due time is neither is
 * one that stopped (a policy whose resolution target is shorter than a response target could hide
 * a running one behind it; such a policy promises nothing sensible).
 */
function runs(sla: Sla, target: Target, due: string, open: boolean): boolean {
  return due === sla.due_at || (target === 'resolution' && open);
}

/** The SLA section of the details panel. */
export function ConversationSlaPanel({ conversation }: { conversation: Pick<Schemas['ConversationDetail'], 'sla' | 'status'> }) {
  const { sla, status } = conversation;
  if (!sla) return null;
  return <SlaDetails sla={sla} open={status === 'open' || status === 'in_progress'} />;
}

function SlaDetails({ sla, open }: { sla: Sla; open: boolean }) {
  const now = useNow();
  const headingId = useId();
  const policy = useResource(() => ok(api.GET('/api/v1/sla-policies/{id}', { params: { path: { id: sla.policy_id } } })).then((answer) => answer.data.name), [sla.policy_id]);
  const targets = (Object.keys(SLA_TARGETS) as Target[]).flatMap((target) => {
    const due = sla[DUE_OF[target]];
    return due === null ? [] : [{ target, due }];
  });
  return (
    <div class="details-section" role="group" aria-labelledby={headingId}>
      <h3 class="small-heading" id={headingId}>Service level</h3>
      <p class="sla-policy">{policy.data ?? (policy.error ? 'A deleted policy' : '…')}</p>
      {targets.length === 0 ? <p class="muted small">No clock has started yet.</p> : (
        <dl class="sla-targets">
          {targets.map(({ target, due }) => {
            const breached = sla.breaches.includes(target);
            const running = runs(sla, target, due, open);
            const left = timeLeft(due, now);
            const state = running ? (left.overdue ? left.text : `${left.text} left`) : breached ? 'Missed' : 'Met';
            return (
              <div key={target} class="sla-target">
                <dt>{SLA_TARGETS[target]}</dt>
                <dd>
                  <span class={breached || (running && left.overdue) ? 'sla sla-breached' : running ? 'sla' : 'sla sla-met'}>{state}</span>
                  <span class="muted small">{running ? 'due' : 'was due'} <time dateTime={due}>{fullDate(due)}</time></span>
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </div>
  );
}
