// Webhook endpoints: the list, a new one (its signing secret shown once), on/off and removal.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { Link } from '../../router.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, Checkbox, FormError, TextField } from '../../ui/form.js';
import { EmptyState, ErrorState, Loading, Pager } from '../../ui/page.js';
import { CopyValue } from '../../ui/secret.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

type Endpoint = Schemas['WebhookEndpoint'];
type WebhookEventType = Schemas['WebhookDelivery']['event_type'];

export const EVENT_TYPES: WebhookEventType[] = [
  'conversation.created', 'conversation.updated', 'message.created', 'issue.created', 'issue.updated',
  'release.created', 'release.updated', 'release.published', 'product.created', 'product.updated',
];

export const eventsLabel = (events: Endpoint['events']) => (events.includes('*') ? 'All events' : events.join(', '));

export function Webhooks() {
  const [offset, setOffset] = useState(0);
  const list = useResource(() => ok(api.GET('/api/v1/webhooks', { params: { query: { limit: 50, offset } } })), [offset]);
  const [creating, setCreating] = useState(false);

  const toggle = async (endpoint: Endpoint) => {
    try {
      await ok(api.PATCH('/api/v1/webhooks/{id}', { params: { path: { id: endpoint.id } }, body: { enabled: !endpoint.enabled } }));
      announce(`${endpoint.enabled ? 'Paused' : 'Resumed'} ${endpoint.url}`);
      await list.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };
  const remove = async (endpoint: Endpoint) => {
    if (!confirm(`Delete the endpoint ${endpoint.url}? Its pending deliveries are dropped.`)) return;
    try {
      await ok(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: endpoint.id } } }));
      announce('Endpoint deleted');
      await list.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  return (
    <section aria-labelledby="webhooks-heading" class="stack">
      <div class="row">
        <h2 id="webhooks-heading">Webhooks</h2>
        <span class="spacer" />
        <Button variant="primary" onClick={() => setCreating(true)}>Add endpoint</Button>
      </div>
      <p class="muted">Loopdesk POSTs each event to your endpoints, signed the Standard Webhooks way, and retries for a day when they fail.</p>
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : null}
      {!list.data ? (list.error ? null : <Loading />) : list.data.data.length === 0 ? (
        <div class="card"><EmptyState title="No endpoints">Add one to hear about new conversations, issues and releases.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack">
            <thead><tr><th scope="col">Endpoint</th><th scope="col">Events</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {list.data.data.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td><Link href={`/settings/webhooks/${endpoint.id}`}><strong class="break">{endpoint.url}</strong></Link>{endpoint.description && <div class="muted small">{endpoint.description}</div>}</td>
                  <td data-label="Events" class="small">{eventsLabel(endpoint.events)}</td>
                  <td data-label="State">{endpoint.enabled ? <span class="badge badge-published">Enabled</span> : <span class="badge">Paused</span>}</td>
                  <td class="actions">
                    <Button small onClick={() => void toggle(endpoint)}>{endpoint.enabled ? 'Pause' : 'Resume'}</Button>{' '}
                    <Button small variant="danger" onClick={() => void remove(endpoint)}>Delete</Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && <Pager label="Endpoint pages" pagination={list.data.pagination} onPage={setOffset} />}
      {creating && <NewEndpointDialog close={() => setCreating(false)} created={() => void list.reload()} />}
    </section>
  );
}

function NewEndpointDialog({ close, created }: { close: () => void; created: () => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<Set<WebhookEventType>>(new Set(['conversation.created', 'message.created']));
  const action = useAction();
  const [secret, setSecret] = useState<string | null>(null);

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await ok(api.POST('/api/v1/webhooks', { body: { url, events: all ? ['*'] : [...events], description: description.trim() || null } }));
      setSecret(answer.data.secret);
      created();
    });
  };
  if (secret) {
    return (
      <Dialog title="Endpoint added" close={close}>
        <div class="stack">
          <CopyValue label="Signing secret" value={secret} note="Shown only now. Store it where your endpoint can read it to verify signatures; you can rotate it later." />
          <div class="dialog-actions"><Button variant="primary" onClick={close}>Done</Button></div>
        </div>
      </Dialog>
    );
  }
  const { fields } = action;
  return (
    <Dialog title="Add endpoint" close={close}>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="URL" type="url" required value={url} error={fields.url} placeholder="https://example.com/hooks/loopdesk" onInput={(e) => setUrl(e.currentTarget.value)} />
        <TextField label="Description" value={description} error={fields.description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <fieldset class="fieldset">
          <legend class="field-label">Events</legend>
          <Checkbox label="All events, including future ones" checked={all} onChange={setAll} />
          {!all && (
            <div class="settings-grid">
              {EVENT_TYPES.map((type) => (
                <Checkbox key={type} label={type} checked={events.has(type)} onChange={(on) => setEvents((set) => {
                  const next = new Set(set);
                  if (on) next.add(type);
                  else next.delete(type);
                  return next;
                })} />
              ))}
            </div>
          )}
          {fields.events && <p class="field-error">{fields.events}</p>}
        </fieldset>
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={action.busy} disabled={!url.trim() || (!all && events.size === 0)}>Add endpoint</Button>
        </div>
      </form>
    </Dialog>
  );
}
