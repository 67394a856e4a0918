// The audit log (docs/audit-log.md): who changed settings, signed in or failed to, exported or
// erased a contact, newest first, filtered by person, action, kind of record and day; more pages
// load below the first; the CSV link downloads what the filters select.
import { useId, useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { useSession } from '../../session.js';
import { Button, Select } from '../../ui/form.js';
import { ago, entries, fullDate } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading } from '../../ui/page.js';
import { useResource } from '../../use-resource.js';

type Entry = Schemas['AuditLogEntry'];

const PAGE = 50;
const ANY = '';

/** The kinds of record, as the filter names them (the server's target types). */
const TARGET_TYPES: Record<string, string> = {
  member: 'Members', invitation: 'Invitations', api_key: 'API keys', webhook: 'Webhooks', product: 'Products', sla_policy: 'SLA policies',
  calendar: 'Calendars', automation_rule: 'Automation rules', sso: 'Single sign-on', contact: 'Contacts', backup: 'Backups',
};

/** The actions people look for most; any other is still listed, by its name. */
const ACTIONS: Record<string, string> = {
  'auth.signed_in': 'Signed in', 'auth.sign_in_failed': 'Sign-in failed', 'auth.locked_out': 'Locked out', 'auth.password_changed': 'Password changed',
  'member.joined': 'Member joined', 'member.role_changed': 'Role changed', 'member.removed': 'Member removed',
  'invitation.created': 'Invitation sent', 'invitation.withdrawn': 'Invitation withdrawn',
  'api_key.created': 'API key created', 'api_key.revoked': 'API key revoked',
  'webhook.created': 'Webhook created', 'webhook.updated': 'Webhook changed', 'webhook.deleted': 'Webhook deleted', 'webhook.secret_rotated': 'Webhook secret rotated',
  'product.updated': 'Product changed', 'product.identity_secret_rotated': 'Identity secret rotated',
  'contact.exported': 'Contact exported', 'contact.erased': 'Contact erased', 'backup.created': 'Backup taken',
};

interface Filters {
  actor_id: string;
  action: string;
  target_type: string;
  /** Days (YYYY-MM-DD, local): from the start of `from` to the end of `to`. */
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { actor_id: ANY, action: ANY, target_type: ANY, from: ANY, to: ANY };

/** The API's query for the filters: only those set, days as instants of the browser's time zone. */
function queryOf(filters: Filters): Record<string, string> {
  const dayStart = (day: string, plusDays = 0) => {
    const date = new Date(`${day}T00:00`);
    date.setDate(date.getDate() + plusDays);
    return date.toISOString();
  };
  return Object.fromEntries(Object.entries({
    actor_id: filters.actor_id, action: filters.action, target_type: filters.target_type,
    from: filters.from && dayStart(filters.from), to: filters.to && dayStart(filters.to, 1),
  }).filter(([, value]) => value !== ANY));
}

const shown = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

export function AuditLog() {
  const { members } = useSession();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const query = queryOf(filters);
  const first = useResource(() => ok(api.GET('/api/v1/audit-log', { params: { query: { ...query, limit: PAGE } } })), [JSON.stringify(query)]);
  const [more, setMore] = useState<{ key: string; entries: Entry[] }>({ key: '', entries: [] });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  const key = JSON.stringify(query);
  const loaded = first.data ? [...first.data.data, ...(more.key === key ? more.entries : [])] : [];
  const total = first.data?.pagination.total ?? 0;

  const set = (changes: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...changes }));
    setMoreError(null);
  };

  const loadMore = async () => {
    setLoadingMore(true);
    setMoreError(null);
    try {
      const page = await ok(api.GET('/api/v1/audit-log', { params: { query: { ...query, limit: PAGE, offset: loaded.length } } }));
      setMore((current) => ({ key, entries: [...(current.key === key ? current.entries : []), ...page.data] }));
    } catch (failure) {
      setMoreError(describeError(failure));
    } finally {
      setLoadingMore(false);
    }
  };

  const csv = `/api/v1/audit-log.csv${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
  return (
    <section aria-labelledby="audit-heading" class="stack">
      <div class="row">
        <h2 id="audit-heading">Audit log</h2>
        <span class="spacer" />
        <a class="button button-secondary" href={csv} download="audit-log.csv">Download CSV</a>
      </div>
      <p class="muted">Who changed settings, signed in or failed to, exported or erased a contact, newest first. Secrets never appear: only that they changed.</p>
      <div class="row" role="group" aria-label="Filters">
        <Select label="Person or key" compact value={filters.actor_id} onChange={(actor_id) => set({ actor_id })}
          options={[[ANY, 'Anyone'], ...members.map((member): [string, string] => [member.id, member.display_name ?? 'Unnamed member'])]} />
        <Select label="Action" compact value={filters.action} onChange={(action) => set({ action })} options={[[ANY, 'Any action'], ...entries(ACTIONS)]} />
        <Select label="Record" compact value={filters.target_type} onChange={(target_type) => set({ target_type })} options={[[ANY, 'Any record'], ...entries(TARGET_TYPES)]} />
        <DateField label="From" value={filters.from} onChange={(from) => set({ from })} />
        <DateField label="To" value={filters.to} onChange={(to) => set({ to })} />
      </div>
      {first.error ? <ErrorState error={first.error} retry={first.reload} /> : null}
      {!first.data ? (first.error ? null : <Loading />) : loaded.length === 0 ? (
        <div class="card"><EmptyState title="No entries">Nothing matches these filters.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack">
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Changes</th><th scope="col">From</th></tr></thead>
            <tbody>
              {loaded.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="When"><time dateTime={entry.created_at} title={fullDate(entry.created_at)}>{ago(entry.created_at)}</time></td>
                  <td data-label="Who">{actorLabel(entry.actor)}</td>
                  <td data-label="Action"><code>{entry.action}</code>{entry.target_id && <div class="muted small" style={{ overflowWrap: 'anywhere' }}>{entry.target_type} {entry.target_id}</div>}</td>
                  <td data-label="Changes">
                    {entry.changes ? (
                      <ul class="plain-list small">
                        {Object.entries(entry.changes).map(([field, [before, after]]) => <li key={field}><strong>{field}</strong>: {shown(before)} → {shown(after)}</li>)}
                      </ul>
                    ) : <span class="muted">—</span>}
                  </td>
                  <td data-label="From" class="small">{entry.ip ?? <span class="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {first.data && (
        <div class="row">
          <span class="muted" role="status">{loaded.length} of {total}</span>
          {loaded.length < total && <Button small busy={loadingMore} onClick={() => void loadMore()}>Load more</Button>}
          {moreError && <span class="field-error" role="alert">{moreError}</span>}
        </div>
      )}
    </section>
  );
}

function actorLabel(actor: Entry['actor']): string {
  if (actor.type === 'system') return 'System';
  if (actor.type === 'rule') return `Rule ${actor.name ?? actor.id ?? ''}`.trim();
  if (actor.type === 'api_key') return `API key ${actor.name ? `“${actor.name}”` : '(unlabelled)'}`;
  return actor.name ?? 'Unnamed member';
}

function DateField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div class="field field-compact">
      <label for={id} class="field-label">{label}</label>
      <input id={id} type="date" class="input" value={value} onInput={(event) => onChange((event.currentTarget as HTMLInputElement).value)} />
    </div>
  );
}
