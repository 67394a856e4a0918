// SLA policies: the list in the order they are tried (the first active one that matches a
// conversation applies), moved up and down, turned on and off, edited (sla-policy-dialog.tsx) and
// deleted. Deleting one leaves the promises it made to conversations on record.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import type { paths } from '../../api/openapi.js';
import { useSession } from '../../session.js';
import { Button } from '../../ui/form.js';
import { formatDuration } from '../../ui/durations.js';
import { CONVERSATION_TYPES, PRIORITIES } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import type { Resource } from '../../use-resource.js';
import { SOURCES, SlaPolicyDialog, TARGET_FIELDS, type SlaPolicy } from './sla-policy-dialog.js';

type PolicyChanges = NonNullable<paths['/api/v1/sla-policies/{id}']['patch']['requestBody']>['content']['application/json'];

/** What a policy applies to, in words: "Urgent, High · Ticket · tagged vip", or every conversation. */
function conditionsSummary({ conditions }: SlaPolicy, productName: (id: string) => string): string {
  const parts = [
    conditions.product_ids?.map(productName).join(', '),
    conditions.priorities?.map((p) => PRIORITIES[p]).join(', '),
    conditions.types?.map((t) => CONVERSATION_TYPES[t]).join(', '),
    conditions.sources?.map((s) => SOURCES[s]).join(', '),
    conditions.tags?.length ? `tagged ${conditions.tags.join(' or ')}` : undefined,
  ].filter(Boolean);
  return parts.length === 0 ? 'Every conversation' : parts.join(' · ');
}

const targetsSummary = (policy: SlaPolicy) =>
  TARGET_FIELDS.filter(([field]) => policy[field] !== null).map(([field, label]) => `${label} ${formatDuration(policy[field])}`).join(' · ');

export function SlaPolicies({ policies, calendars }: { policies: Resource<SlaPolicy[]>; calendars: Schemas['Calendar'][] }) {
  const { productName } = useSession();
  const [editing, setEditing] = useState<SlaPolicy | 'new' | null>(null);
  const calendarName = (id: string | null) => (id === null ? 'Round the clock' : (calendars.find((c) => c.id === id)?.name ?? 'Unknown calendar'));

  const change = async (policy: SlaPolicy, body: PolicyChanges, done: string) => {
    try {
      await ok(api.PATCH('/api/v1/sla-policies/{id}', { params: { path: { id: policy.id } }, body }));
      announce(done);
      await policies.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };
  const remove = async (policy: SlaPolicy) => {
    if (!confirm(`Delete the SLA policy "${policy.name}"? Conversations keep the due times it gave them.`)) return;
    try {
      await ok(api.DELETE('/api/v1/sla-policies/{id}', { params: { path: { id: policy.id } } }));
      announce('SLA policy deleted');
      await policies.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  const list = policies.data;
  return (
    <section aria-labelledby="sla-policies-heading" class="stack">
      <div class="row">
        <h2 id="sla-policies-heading">SLA policies</h2>
        <span class="spacer" />
        <Button variant="primary" onClick={() => setEditing('new')}>New SLA policy</Button>
      </div>
      <p class="muted">How fast the team promises to answer and resolve. Policies are tried from the top; the first active one that matches a conversation applies to it.</p>
      {policies.error ? <ErrorState error={policies.error} retry={policies.reload} /> : null}
      {!list ? (policies.error ? null : <Loading />) : list.length === 0 ? (
        <div class="card"><EmptyState title="No SLA policies">Add one to see on every conversation how long is left to answer it.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack" aria-label="SLA policies">
            <thead><tr><th scope="col">#</th><th scope="col">Name</th><th scope="col">Applies to</th><th scope="col">Targets</th><th scope="col">Calendar</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {list.map((policy, index) => (
                <tr key={policy.id}>
                  <td data-label="Position">{policy.position}</td>
                  <td><strong>{policy.name}</strong>{!policy.active && <> <span class="badge">Inactive</span></>}</td>
                  <td data-label="Applies to" class="small">{conditionsSummary(policy, productName)}</td>
                  <td data-label="Targets" class="small">{targetsSummary(policy)}</td>
                  <td data-label="Calendar">{calendarName(policy.calendar_id)}</td>
                  <td class="actions">
                    <Button small disabled={index === 0} onClick={() => void change(policy, { position: policy.position - 1 }, `${policy.name} moved up`)}>
                      <span aria-hidden="true">↑</span><span class="visually-hidden">Move {policy.name} up</span>
                    </Button>{' '}
                    <Button small disabled={index === list.length - 1} onClick={() => void change(policy, { position: policy.position + 1 }, `${policy.name} moved down`)}>
                      <span aria-hidden="true">↓</span><span class="visually-hidden">Move {policy.name} down</span>
                    </Button>{' '}
                    <Button small onClick={() => void change(policy, { active: !policy.active }, `${policy.name} turned ${policy.active ? 'off' : 'on'}`)}>
                      {policy.active ? 'Turn off' : 'Turn on'}<span class="visually-hidden"> {policy.name}</span>
                    </Button>{' '}
                    <Button small onClick={() => setEditing(policy)}>Edit<span class="visually-hidden"> {policy.name}</span></Button>{' '}
                    <Button small variant="danger" onClick={() => void remove(policy)}>Delete<span class="visually-hidden"> {policy.name}</span></Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && <SlaPolicyDialog policy={editing === 'new' ? null : editing} calendars={calendars} close={() => setEditing(null)} saved={() => void policies.reload()} />}
    </section>
  );
}
