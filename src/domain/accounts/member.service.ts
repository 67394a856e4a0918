// [ext] Members as settings (platform.md §5): changing a member's role and removing a member.
// A workspace always keeps an owner, and only owner rank touches owners (src/domain/accounts/roles.ts).
// Removing a member unassigns their issues through the issue write path (an issue.updated each,
// tallies kept right), revokes their API keys (which would otherwise outlive them as keys without
// a member, i.e. integration keys with settings power) and ends their sessions; their messages keep
// their sender_id and name.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { ApiKeyRepository } from '../../db/repositories/api-key.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { IssueRepository } from '../../db/repositories/issue.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { SessionRepository } from '../../db/repositories/session.repository.js';
import type { MemberTable } from '../../db/schema.js';
import { AppError, invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { parseUuid } from '../../lib/ids.js';
import type { Actor, Member, MemberRole } from './actor.js';
import { toMember } from './identity.service.js';
import type { IssueWrites } from '../issues/issue.writes.js';
import { requireOwnerRankFor, requireSettingsRole } from './roles.js';
import { inTransaction } from '../shared/unit-of-work.js';

export interface MemberServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  members: MemberRepository;
  apiKeys: ApiKeyRepository;
  sessions: SessionRepository;
  issues: IssueRepository;
  issueWrites: Pick<IssueWrites, 'update'>;
  clock: Clock;
}

export function createMemberService({ db, dialect, members, apiKeys, sessions, issues, issueWrites, clock }: MemberServiceDeps) {
  /** Role changes and removals of one workspace, one at a time: two never both take its last owner. */
  const lockMembers = (tx: Executor, workspaceId: string) => dialect.lockKeyInTransaction(tx, `members:${workspaceId}`);

  async function find(actor: Actor, id: string, tx: Executor = db): Promise<MemberTable> {
    requireSettingsRole(actor);
    const memberId = parseUuid(id);
    const row = memberId ? await members.findById(actor.workspaceId, memberId, tx) : undefined;
    if (!row) throw notFound('member');
    return row;
  }

  const isLastOwner = async (row: MemberTable, tx: Executor) => row.role === 'owner' && (await members.countOwners(row.workspace_id, tx)) <= 1;

  return {
    /** Throws not_found unless the member exists in the actor's workspace. */
    find,

    async changeRole(actor: Actor, id: string, role: MemberRole): Promise<Member> {
      return inTransaction(db, async ({ tx }) => {
        await lockMembers(tx, actor.workspaceId);
        const current = await find(actor, id, tx);
        requireOwnerRankFor(actor, current.role as MemberRole, 'change an owner\'s role');
        requireOwnerRankFor(actor, role, 'make an owner');
        if (role !== 'owner' && (await isLastOwner(current, tx))) {
          throw invalidField('role', 'this is the workspace\'s last owner: make another member an owner first');
        }
        if (role !== current.role) await members.update(actor.workspaceId, current.id, { role }, tx);
        return toMember({ ...current, role });
      });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await inTransaction(db, async (work) => {
        const { tx } = work;
        await lockMembers(tx, actor.workspaceId);
        const current = await find(actor, id, tx);
        requireOwnerRankFor(actor, current.role as MemberRole, 'remove an owner');
        if (await isLastOwner(current, tx)) throw new AppError('forbidden', 'a workspace keeps at least one owner: this is its last');
        const now = clock.now();
        for (const issue of await issues.assignedTo(actor.workspaceId, current.id, tx)) {
          await issueWrites.update(work, issue, { assignee_id: null, updated_at: now });
        }
        await apiKeys.revokeForMember(actor.workspaceId, current.id, now, tx);
        await sessions.revokeForMember(current.id, now, tx);
        await members.delete(actor.workspaceId, current.id, tx);
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
