// API keys of the workspace: made here for an integration or a member, shown once, revoked here.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { useSession } from '../../session.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, Checkbox, FormError, Select, TextField } from '../../ui/form.js';
import { ago, shortDate } from '../../ui/labels.js';
import { EmptyState, ErrorState, Loading, Pager } from '../../ui/page.js';
import { CopyValue } from '../../ui/secret.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

type ApiKey = Schemas['ApiKey'];

const NO_MEMBER = 'none';

export function ApiKeys() {
  const { memberName } = useSession();
  const [offset, setOffset] = useState(0);
  const list = useResource(() => ok(api.GET('/api/v1/api-keys', { params: { query: { limit: 50, offset } } })), [offset]);
  const [creating, setCreating] = useState(false);

  const revoke = async (key: ApiKey) => {
    if (!confirm(`Revoke "${key.label ?? 'Unlabelled key'}"? Whatever uses it stops working at once.`)) return;
    try {
      await ok(api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id: key.id } } }));
      announce('Key revoked');
      await list.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  return (
    <section aria-labelledby="keys-heading" class="stack">
      <div class="row">
        <h2 id="keys-heading">API keys</h2>
        <span class="spacer" />
        <Button variant="primary" onClick={() => setCreating(true)}>New API key</Button>
      </div>
      <p class="muted">Keys let scripts, agents (the <code>ldk</code> CLI and MCP server) and integrations use the API. A key acts as its member, or as the workspace when it has none.</p>
      {list.error ? <ErrorState error={list.error} retry={list.reload} /> : null}
      {!list.data ? (list.error ? null : <Loading />) : list.data.data.length === 0 ? (
        <div class="card"><EmptyState title="No keys">Make one for each script or integration, so each can be revoked alone.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack">
            <thead><tr><th scope="col">Label</th><th scope="col">Acts as</th><th scope="col">Access</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {list.data.data.map((key) => (
                <tr key={key.id}>
                  <td><strong>{key.label ?? 'Unlabelled key'}</strong><div class="muted small">Created {shortDate(key.created_at)}</div></td>
                  <td data-label="Acts as">{key.member_id ? memberName(key.member_id) : 'The workspace'}</td>
                  <td data-label="Access">{key.read_only ? 'Read only' : 'Read and write'}</td>
                  <td data-label="Last used">{key.last_used_at ? ago(key.last_used_at) : 'Never'}</td>
                  <td class="actions"><Button small variant="danger" onClick={() => void revoke(key)}>Revoke</Button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && <Pager label="Key pages" pagination={list.data.pagination} onPage={setOffset} />}
      {creating && <NewKeyDialog close={() => setCreating(false)} created={() => void list.reload()} />}
    </section>
  );
}

function NewKeyDialog({ close, created }: { close: () => void; created: () => void }) {
  const { members, me } = useSession();
  const [label, setLabel] = useState('');
  // A member's id, or NO_MEMBER for an integration key (only owners may make those).
  const [memberId, setMemberId] = useState(me.member?.id ?? NO_MEMBER);
  const [readOnly, setReadOnly] = useState(false);
  const action = useAction();
  const [key, setKey] = useState<string | null>(null);

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await ok(api.POST('/api/v1/api-keys', { body: { label: label.trim() || null, read_only: readOnly, member_id: memberId === NO_MEMBER ? null : memberId } }));
      setKey(answer.data.key);
      created();
    });
  };
  if (key) {
    return (
      <Dialog title="Your new API key" close={close}>
        <div class="stack">
          <CopyValue label="API key" value={key} note="Copy it now: it is shown only once. Loopdesk keeps only a hash of it." />
          <div class="dialog-actions"><Button variant="primary" onClick={close}>Done</Button></div>
        </div>
      </Dialog>
    );
  }
  const { fields } = action;
  const owners: [string, string][] = [
    ...members.map((m): [string, string] => [m.id, `${m.display_name ?? 'Unnamed member'}${m.id === me.member?.id ? ' (you)' : ''}`]),
    [NO_MEMBER, 'No member: an integration (owners only)'],
  ];
  return (
    <Dialog title="New API key" close={close}>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="Label" value={label} error={fields.label} placeholder="Zapier, CI, Ana's laptop…" onInput={(event) => setLabel(event.currentTarget.value)} />
        <Select label="Acts as" value={memberId} options={owners} onChange={setMemberId} error={fields.member_id} hint="Issues it assigns to “me” go to this member." />
        <Checkbox label="Read only" checked={readOnly} onChange={setReadOnly} hint="It may only read (GET)." />
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={action.busy}>Create key</Button>
        </div>
      </form>
    </Dialog>
  );
}
