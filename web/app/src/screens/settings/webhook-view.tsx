// One webhook endpoint: its settings, a new secret on request, and its deliveries (paged), each
// failed or waiting one retriable.
import { useState } from 'preact/hooks';
import { api, describeError, ok } from '../../api/client.js';
import { Link } from '../../router.js';
import { Button } from '../../ui/form.js';
import { Icon } from '../../ui/icons.js';
import { ago, fullDate } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading, Pager } from '../../ui/page.js';
import { CopyValue } from '../../ui/secret.js';
import { announce } from '../../ui/toast.js';
import { useResource } from '../../use-resource.js';
import { eventsLabel } from './webhooks.js';

const DELIVERY_BADGES = { pending: 'badge-draft', succeeded: 'badge-published', failed: 'badge-priority-urgent' } as const;

export function WebhookView({ id }: { id: string }) {
  const endpoint = useResource(() => ok(api.GET('/api/v1/webhooks/{id}', { params: { path: { id } } })).then((answer) => answer.data), [id]);
  const [offset, setOffset] = useState(0);
  const deliveries = useResource(() => ok(api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 25, offset } } })), [id, offset]);
  const [secret, setSecret] = useState<string | null>(null);

  const rotate = async () => {
    if (!confirm('Replace the signing secret? The old one keeps signing beside the new one for a day, while you update your receiver.')) return;
    try {
      setSecret((await ok(api.POST('/api/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } }))).data.secret);
      await endpoint.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };
  const retry = async (deliveryId: string) => {
    try {
      await ok(api.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', { params: { path: { id, delivery_id: deliveryId } } }));
      announce('Delivery queued again');
      await deliveries.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  return (
    <div class="stack">
      <Link href="/settings/webhooks" class="back-link-inline"><Icon name="back" size={16} />Webhooks</Link>
      {endpoint.error ? <ErrorState error={endpoint.error} retry={endpoint.reload} /> : !endpoint.data ? <Loading /> : (
        <section class="card card-body stack" aria-labelledby="endpoint-heading">
          <div class="row">
            <h2 id="endpoint-heading" class="break">{endpoint.data.url}</h2>
            <span class="spacer" />
            <Button small onClick={() => void rotate()}>Rotate secret</Button>
          </div>
          <dl class="meta-list">
            <dt>Events</dt><dd>{eventsLabel(endpoint.data.events)}</dd>
            <dt>State</dt><dd>{endpoint.data.enabled ? 'Enabled' : 'Paused'}</dd>
            {endpoint.data.description && <><dt>Description</dt><dd>{endpoint.data.description}</dd></>}
            {endpoint.data.previous_secret_expires_at && <><dt>Previous secret</dt><dd>Also signs until {fullDate(endpoint.data.previous_secret_expires_at)}</dd></>}
            <dt>Added</dt><dd>{fullDate(endpoint.data.created_at)}</dd>
          </dl>
          {secret && <CopyValue label="New signing secret" value={secret} note="Shown only now." />}
        </section>
      )}
      <section aria-labelledby="deliveries-heading" class="stack">
        <h2 id="deliveries-heading">Deliveries</h2>
        {deliveries.error ? <ErrorState error={deliveries.error} retry={deliveries.reload} /> : !deliveries.data ? <Loading /> : deliveries.data.data.length === 0 ? (
          <div class="card"><EmptyState title="Nothing delivered yet">Deliveries appear here as events happen.</EmptyState></div>
        ) : (
          <div class="card table-wrap">
            <table class="table table-stack">
              <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">When</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
              <tbody>
                {deliveries.data.data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td><code>{delivery.event_type}</code></td>
                    <td data-label="Status"><span class={`badge ${DELIVERY_BADGES[delivery.status]}`}>{delivery.status}</span></td>
                    <td data-label="Attempts">{delivery.attempts}</td>
                    <td data-label="Last answer" class="small">{delivery.last_status_code ?? delivery.last_error ?? '—'}</td>
                    <td data-label="When" title={fullDate(delivery.created_at)}>{ago(delivery.created_at)}{delivery.next_attempt_at && delivery.status === 'pending' && <div class="muted small">next {ago(delivery.next_attempt_at)}</div>}</td>
                    <td class="actions">{delivery.status !== 'succeeded' && <Button small onClick={() => void retry(delivery.id)}>Retry now</Button>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {deliveries.data && <Pager label="Delivery pages" pagination={deliveries.data.pagination} onPage={setOffset} />}
      </section>
    </div>
  );
}
