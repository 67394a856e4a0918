// [ext] Members as settings (docs/accounts.md): changing a member's role and removing a member.
// A workspace always keeps an owner (demoting or removing the last one is 403, the same rule), and
// only owner rank touches owners (src/domain/accounts/roles.ts). Both run under the workspace's
// accounts lock, as the actor is then (src/domain/accounts/accounts-lock.ts).
// Removing a member unassigns their issues and conversations through their write paths (an
// issue.updated or conversation.updated each, tallies kept right), revokes their API keys and ends
// their sessions; their messages keep their sender_id and name.
import type { Dialect } from '../../db/dialect.js';
import type { ApiKeyRepository } from '../../db/repositories/api-key.repository.js';
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { IssueRepository } from '../../db/repositories/issue.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { SessionRepository } from '../../db/repositories/session.repository.js';
import type { MemberTable } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditLog } from '../audit/audit-log.js';
import { parseUuid } from '../../lib/ids.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import type { IssueWrites } from '../issues/issue.writes.js';
import { holdLock } from '../shared/unit-of-work.js';
import type { AccountsLock } from './accounts-lock.js';
import type { Actor, Member, MemberRole } from './actor.js';
import { memberAssignmentsLock } from './member-ref.js';
import { toMember } from './identity.service.js';
import { requireOwnerRankFor, requireSettingsRole } from './roles.js';

export interface MemberServiceDeps {
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  accountsLock: Pick<AccountsLock, 'settingsWrite'>;
  members: MemberRepository;
  apiKeys: ApiKeyRepository;
  sessions: SessionRepository;
  issues: IssueRepository;
  issueWrites: Pick<IssueWrites, 'lock' | 'update'>;
  conversations: Pick<ConversationRepository, 'assignedTo' | 'findById'>;
  conversationWrites: Pick<ConversationWrites, 'lock' | 'update'>;
  audit: AuditLog;
  clock: Clock;
}

/** The one rule, one answer, for demoting and for removing: a workspace keeps at least one owner. */
const lastOwner = () => new AppError('forbidden', 'a workspace keeps at least one owner, and this is its last: make another member an owner first');

export function createMemberService({
  dialect, accountsLock, members, apiKeys, sessions, issues, issueWrites, conversations, conversationWrites, audit, clock,
}: MemberServiceDeps) {
  async function find(actor: Actor, id: string, tx?: Executor): Promise<MemberTable> {
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

    async changeRole(asked: Actor, id: string, role: MemberRole): Promise<Member> {
      return accountsLock.settingsWrite(asked, async (work, actor) => {
        const { tx } = work;
        const current = await find(actor, id, tx);
        requireOwnerRankFor(actor, current.role as MemberRole, 'change an owner\'s role');
        requireOwnerRankFor(actor, role, 'make an owner');
        if (role !== 'owner' && (await isLastOwner(current, tx))) throw lastOwner();
        if (role !== current.role) {
          await members.update(actor.workspaceId, current.id, { role }, tx);
          await audit.record(work, { actor, action: 'member.role_changed', target_type: 'member', target_id: current.id, changes: { role: [current.role, role] } });
        }
        return toMember({ ...current, role });
      });
    },

    async remove(asked: Actor, id: string): Promise<void> {
      await accountsLock.settingsWrite(asked, async (work, actor) => {
        const { tx } = work;
        const current = await find(actor, id, tx);
        requireOwnerRankFor(actor, current.role as MemberRole, 'remove an owner');
        if (await isLastOwner(current, tx)) throw lastOwner();
        // Every lock before any write (a write of an issue takes its product's lock): the member's
        // assignments first, so that no assignment to the member commits after the lists are read
        // (src/domain/accounts/member-ref.ts); the issues', then each conversation's in one order (as
        // a contact's erasure takes them); then each record as it is under its lock, unassigned if it
        // still is. Nothing is then left for the foreign key's `set null`, which no write unit sees.
        await holdLock(dialect, work, memberAssignmentsLock(current.id));
        const assignedIssues = (await issues.assignedTo(actor.workspaceId, current.id, tx)).map(({ id }) => id);
        const assignedConversations = (await conversations.assignedTo(actor.workspaceId, current.id, tx)).map(({ id }) => id).sort();
        await issueWrites.lock(work, assignedIssues);
        for (const conversationId of assignedConversations) await conversationWrites.lock(work, conversationId);
        const now = clock.now();
        for (const issue of await issues.findManyByIds(actor.workspaceId, assignedIssues, tx)) {
          if (issue.assignee_id === current.id) await issueWrites.update(work, issue, { assignee_id: null, updated_at: now });
        }
        for (const conversationId of assignedConversations) {
          const conversation = (await conversations.findById(actor.workspaceId, conversationId, tx))!;
          if (conversation.assignee_id === current.id) await conversationWrites.update(work, conversation, { assignee_id: null, updated_at: now });
        }
        await apiKeys.revokeForMember(actor.workspaceId, current.id, now, tx);
        await sessions.revokeForMember(current.id, now, tx);
        await members.delete(actor.workspaceId, current.id, tx);
        await audit.record(work, { actor, action: 'member.removed', target_type: 'member', target_id: current.id });
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
