// A conversation's snooze (docs/app.md, "Snooze"): until when it sleeps, the choices (later today,
// tomorrow 9:00, next week) and waking it now. Z snoozes it until tomorrow 9:00 on the member's
// wall clock. A resolved or dismissed conversation cannot be snoozed (the server refuses it too).
import type { Schemas } from '../../api/client.js';
import { useSession } from '../../session.js';
import { Select } from '../../ui/form.js';
import { useShortcut } from '../../ui/shortcuts.js';
import { SNOOZE_CHOICES, snoozeInstant, wakeLabel, type SnoozeChoice } from './snooze-times.js';

type Conversation = Pick<Schemas['Conversation'], 'status' | 'snoozed_until'>;

interface Props {
  conversation: Conversation;
  /** PATCHes the conversation and announces `done`. */
  update: (body: { snoozed_until: string | null }, done: string) => Promise<void>;
}

export function SnoozeControl({ conversation, update }: Props) {
  const timeZone = useSession().me.member?.time_zone ?? null;
  const closed = conversation.status === 'resolved' || conversation.status === 'dismissed';
  const until = conversation.snoozed_until;

  const snooze = async (choice: SnoozeChoice | 'wake') => {
    if (choice === 'wake') return update({ snoozed_until: null }, 'Woken up: back in the open views');
    const instant = await snoozeInstant(choice, timeZone);
    return update({ snoozed_until: instant }, `Snoozed until ${wakeLabel(instant, timeZone)}`);
  };
  useShortcut('z', () => {
    if (!closed) void snooze('tomorrow');
  });

  const options: [SnoozeChoice | 'wake' | '', string][] = [
    ['', until ? `Until ${wakeLabel(until, timeZone)}` : 'Not snoozed'],
    ...(closed ? [] : SNOOZE_CHOICES),
    ...(until ? [['wake', 'Wake now'] as ['wake', string]] : []),
  ];
  // A row of the details panel's properties, like status and assignee; its title tells of Z.
  return (
    <span class="snooze-control" title={closed ? 'A resolved or dismissed conversation cannot be snoozed' : 'Z: snooze until tomorrow 9:00'}>
      <Select label="Snooze" value="" options={options} disabled={options.length === 1} onChange={(choice) => void (choice && snooze(choice))} />
    </span>
  );
}

/** A list row's note of when a snoozed conversation wakes. */
export function WakesAt({ until }: { until: string }) {
  const timeZone = useSession().me.member?.time_zone ?? null;
  return <span class="muted row-snoozed" title="Snoozed: back in the open views then, or when the customer writes">wakes {wakeLabel(until, timeZone)}</span>;
}
