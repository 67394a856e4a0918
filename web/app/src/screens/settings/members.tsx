// Members of the workspace (invitations and role changes arrive with the accounts API).
import { useSession } from '../../session.js';
import { Avatar } from '../../ui/badges.js';
import { shortDate } from '../../ui/labels.js';

export function Members() {
  const { members, me } = useSession();
  return (
    <section aria-labelledby="members-heading" class="stack">
      <h2 id="members-heading">Members</h2>
      <div class="card table-wrap">
        <table class="table table-stack">
          <thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Joined</th></tr></thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.id}>
                <td><span class="row"><Avatar name={member.display_name} small />{member.display_name ?? 'Unnamed'}{member.id === me.member?.id && <span class="muted"> (you)</span>}</span></td>
                <td data-label="Role" class="capitalize">{member.role}</td>
                <td data-label="Joined">{shortDate(member.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
