// Fair assignment (docs/automation.md, "Assignment"): who gets a product's next conversation. Every
// choice is made under the product's assignment lock (a PostgreSQL advisory lock; SQLite has one
// writer), which it holds until its transaction commits: the next choice, in any process, sees the
// previous one's assignee and cursor. So N conversations arriving at once over k free members are
// handed out in turn (round_robin) or to the fewest open (balanced), none two apart.
//
// Lock order: the product's assignment lock, then a conversation's, then a member's assignments
// lock. Whoever runs actions that may assign in turn takes the product's lock first (`holdFor`).
import type { AssignmentRepository } from '../../db/repositories/automation/assignment.repository.js';
import type { Dialect } from '../../db/dialect.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import { memberAssignmentsLock, memberStillThere } from '../accounts/member-ref.js';
import { holdLock, type Work } from '../shared/unit-of-work.js';
import { parseAssignment } from './assignment-settings.js';

export const assignmentLock = (productId: string): string => `assignment:${productId}`;

/** The member ids in turn order: those after `cursor` first, then from the start. */
function inTurn(list: readonly string[], cursor: string | null): string[] {
  const start = cursor === null ? 0 : list.indexOf(cursor) + 1;
  return [...list.slice(start), ...list.slice(0, start)];
}

export interface AssignmentDeps {
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  assignment: AssignmentRepository;
  members: Pick<MemberRepository, 'findById'>;
}

/** What a new conversation gets: a member, `wait` (in the queue), or `none` (the product does not assign). */
export type NewConversationAssignment = { member: string } | 'wait' | 'none';

export function createAssignment({ dialect, assignment: repo, members }: AssignmentDeps) {
  /**
   * The member the product's assignment gives its next conversation to, with their assignments lock
   * held (so they cannot be removed before this commits), and the cursor moved past them; null when
   * nobody is free. Mode `off` chooses as `round_robin` does (a rule's or macro's explicit ask).
   */
  async function pick(work: Work, workspaceId: string, productId: string): Promise<string | null> {
    await holdLock(dialect, work, assignmentLock(productId));
    const state = await repo.stateOf(workspaceId, productId, work.tx);
    if (!state) return null;
    const settings = parseAssignment(state.assignment);
    const everyone = await repo.members(workspaceId, work.tx);
    const online = new Set(everyone.filter((member) => member.availability === 'online').map((member) => member.id));
    const list = settings.member_ids.length > 0 ? settings.member_ids : everyone.map((member) => member.id);
    let candidates = inTurn(list, state.assignment_cursor).filter((id) => online.has(id));
    const counts = await repo.openCounts(workspaceId, productId, candidates, work.tx);
    const open = (id: string) => counts.get(id) ?? 0;
    candidates = candidates.filter((id) => settings.capacity === null || open(id) < settings.capacity);
    if (settings.mode === 'balanced') candidates.sort((a, b) => open(a) - open(b));
    for (const id of candidates) {
      await holdLock(dialect, work, memberAssignmentsLock(id));
      // Removed since the list was read (the removal held this lock): the next in turn.
      if (!(await memberStillThere(members, work, workspaceId, id))) continue;
      await repo.setCursor(workspaceId, productId, id, work.tx);
      return id;
    }
    return null;
  }

  return {
    pick,

    /** Before the conversation's own lock: the product's, when `assigning` (actions that may assign in turn). */
    async holdFor(work: Work, productId: string, assigning: boolean): Promise<void> {
      if (assigning) await holdLock(dialect, work, assignmentLock(productId));
    },

    /**
     * A new unassigned conversation of the product: the member in turn, or `wait` when nobody is free
     * or others already wait (they go first), or `none` when the product's mode is `off`.
     */
    async forNew(work: Work, workspaceId: string, productId: string): Promise<NewConversationAssignment> {
      const state = await repo.stateOf(workspaceId, productId, work.tx);
      if (!state || parseAssignment(state.assignment).mode === 'off') return 'none';
      await holdLock(dialect, work, assignmentLock(productId));
      if ((await repo.heads(productId, 1, work.tx)).length > 0) return 'wait';
      const member = await pick(work, workspaceId, productId);
      return member ? { member } : 'wait';
    },

    /** Puts the conversation in its product's queue (a rule's or macro's turn found nobody free). */
    wait: (work: Work, conversation: { id: string; workspace_id: string; product_id: string }, at: string) =>
      repo.wait({ conversation_id: conversation.id, workspace_id: conversation.workspace_id, product_id: conversation.product_id, created_at: at }, work.tx),

    /** Takes the conversation out of its queue (assigned, or closed). */
    unwait: (work: Work, conversationId: string) => repo.unwait(conversationId, work.tx),
  };
}

export type Assignment = ReturnType<typeof createAssignment>;
