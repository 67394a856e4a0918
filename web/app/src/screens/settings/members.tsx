// Members and invitations: who is in the workspace and with which role, invitations out (a
// one-time link to send), role changes and removal. The server enforces rank (an admin cannot
// make or remove an owner); its answer is shown when it refuses.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { useSession, type Role } from '../../session.js';
import { Avatar } from '../../ui/badges.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, FormError, Select, TextField } from '../../ui/form.js';
import { shortDate } from '../../ui/labels.js';
import { ErrorState, Loading, Pager } from '../../ui/page.js';
import { CopyValue } from '../../ui/secret.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';
import { useResource } from '../../use-resource.js';

const ROLES: [Role, string][] = [['agent', 'Agent'], ['admin', 'Admin'], ['owner', 'Owner']];
const roleLabel = (role: Role) => ROLES.find(([value]) => value === role)![1];

export function Members() {
  const { members, me, reloadMembers } = useSession();
  const [offset, setOffset] = useState(0);
  const invitations = useResource(() => ok(api.GET('/api/v1/members/invitations', { params: { query: { limit: 50, offset } } })), [offset]);
  const [inviting, setInviting] = useState(false);

  const act = async (request: Promise<unknown>, message: string) => {
    try {
      await request;
      announce(message);
      await reloadMembers();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };
  const changeRole = (member: Schemas['Member'], role: Role) =>
    act(ok(api.PATCH('/api/v1/members/{id}', { params: { path: { id: member.id } }, body: { role } })), `${member.display_name ?? 'Member'} is now ${roleLabel(role).toLowerCase()}`);
  const remove = (member: Schemas['Member']) => {
    if (!confirm(`Remove ${member.display_name ?? 'this member'} from the workspace? Their sessions and keys stop working and their issues become unassigned.`)) return;
    void act(ok(api.DELETE('/api/v1/members/{id}', { params: { path: { id: member.id } } })), 'Member removed');
  };
  const withdraw = async (invitation: Schemas['Invitation']) => {
    try {
      await ok(api.DELETE('/api/v1/members/invitations/{id}', { params: { path: { id: invitation.id } } }));
      announce('Invitation withdrawn');
      await invitations.reload();
    } catch (failure) {
      announce(describeError(failure), 'error');
    }
  };

  return (
    <div class="stack">
      <section aria-labelledby="members-heading" class="stack">
        <div class="row">
          <h2 id="members-heading">Members</h2>
          <span class="spacer" />
          <Button variant="primary" onClick={() => setInviting(true)}>Invite someone</Button>
        </div>
        <div class="card table-wrap">
          <table class="table table-stack">
            <thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {members.map((member) => {
                const self = member.id === me.member?.id;
                const name = member.display_name ?? 'Unnamed';
                return (
                  <tr key={member.id}>
                    <td><span class="row"><Avatar name={member.display_name} small />{name}{self && <span class="muted">(you)</span>}</span></td>
                    <td data-label="Role">
                      {self ? roleLabel(member.role) : <Select compact hideLabel label={`Role of ${name}`} value={member.role} options={ROLES} onChange={(role) => void changeRole(member, role)} />}
                    </td>
                    <td data-label="Joined">{shortDate(member.created_at)}</td>
                    <td class="actions">{!self && <Button small variant="danger" onClick={() => remove(member)}>Remove</Button>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="invitations-heading" class="stack">
        <h2 id="invitations-heading">Pending invitations</h2>
        {invitations.error ? <ErrorState error={invitations.error} retry={invitations.reload} /> : !invitations.data ? <Loading /> : invitations.data.data.length === 0 ? (
          <p class="muted">No invitation is waiting.</p>
        ) : (
          <div class="card table-wrap">
            <table class="table table-stack">
              <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
              <tbody>
                {invitations.data.data.map((invitation) => (
                  <tr key={invitation.id}>
                    <td>{invitation.email ?? <span class="muted">Any email</span>}</td>
                    <td data-label="Role">{roleLabel(invitation.role)}</td>
                    <td data-label="Expires">{shortDate(invitation.expires_at)}</td>
                    <td class="actions"><Button small variant="danger" onClick={() => void withdraw(invitation)}>Withdraw</Button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {invitations.data && <Pager label="Invitation pages" pagination={invitations.data.pagination} onPage={setOffset} />}
      </section>
      {inviting && <InviteDialog close={() => setInviting(false)} invited={() => void invitations.reload()} />}
    </div>
  );
}

function InviteDialog({ close, invited }: { close: () => void; invited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const action = useAction();
  const [link, setLink] = useState<Schemas['IssuedInvitation'] | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      setLink((await ok(api.POST('/api/v1/members/invitations', { body: { email: email.trim(), role } }))).data);
      invited();
    });
  };
  if (link) {
    return (
      <Dialog title="Invitation ready" close={close}>
        <div class="stack">
          <CopyValue label="Invitation link" value={link.url} note={`Send it to ${link.email}. It works once, until ${shortDate(link.expires_at)}, and is shown only now.`} />
          <div class="dialog-actions"><Button variant="primary" onClick={close}>Done</Button></div>
        </div>
      </Dialog>
    );
  }
  const { fields } = action;
  return (
    <Dialog title="Invite someone" close={close}>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="Email" type="email" required value={email} error={fields.email} onInput={(event) => setEmail(event.currentTarget.value)} />
        <Select label="Role" value={role} options={ROLES} onChange={setRole} error={fields.role}
          hint="Agents work the inbox, issues and releases; admins and owners also manage settings." />
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={action.busy} disabled={!email.trim()}>Create invitation</Button>
        </div>
      </form>
    </Dialog>
  );
}
