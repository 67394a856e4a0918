// Fair assignment's data (migration 0041, docs/automation.md "Assignment"): a product's settings and
// its round robin's cursor, the members' availability, the open conversations per assignee in a
// product, and the conversations waiting for a free member, oldest first.
import type { Executor } from '../executor.js';
import type { AssignmentWaitTable } from '../../schema.js';

/** Statuses whose conversations count against a member's capacity. */
export const OPEN_STATUSES = ['open', 'in_progress'] as const;

export interface AssignmentState {
  assignment: string;
  assignment_cursor: string | null;
}

export function assignmentRepository(db: Executor) {
  return {
    async stateOf(workspaceId: string, productId: string, tx: Executor = db): Promise<AssignmentState | undefined> {
      return tx.selectFrom('products').select(['assignment', 'assignment_cursor'])
        .where('workspace_id', '=', workspaceId).where('id', '=', productId).executeTakeFirst();
    },

    async setCursor(workspaceId: string, productId: string, memberId: string, tx: Executor): Promise<void> {
      await tx.updateTable('products').set({ assignment_cursor: memberId }).where('workspace_id', '=', workspaceId).where('id', '=', productId).execute();
    },

    /** Every member with their availability, in the workspace's order (oldest first): the round robin's default list. */
    async members(workspaceId: string, tx: Executor = db): Promise<{ id: string; availability: string }[]> {
      return tx.selectFrom('members').select(['id', 'availability']).where('workspace_id', '=', workspaceId)
        .orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    },

    /** Open conversations of the product per member among `memberIds` (absent: none). */
    async openCounts(workspaceId: string, productId: string, memberIds: readonly string[], tx: Executor = db): Promise<Map<string, number>> {
      if (memberIds.length === 0) return new Map();
      const rows = await tx.selectFrom('conversations').select((eb) => ['assignee_id', eb.fn.countAll<number>().as('n')])
        .where('product_id', '=', productId).where('workspace_id', '=', workspaceId)
        .where('assignee_id', 'in', [...memberIds]).where('status', 'in', [...OPEN_STATUSES])
        .groupBy('assignee_id').execute();
      return new Map(rows.map((row) => [row.assignee_id!, Number(row.n)]));
    },

    async wait(row: AssignmentWaitTable, tx: Executor): Promise<void> {
      await tx.insertInto('assignment_waits').values(row).onConflict((oc) => oc.column('conversation_id').doNothing()).execute();
    },

    async unwait(conversationId: string, tx: Executor): Promise<void> {
      await tx.deleteFrom('assignment_waits').where('conversation_id', '=', conversationId).execute();
    },

    /** The product's waiting conversations, oldest first. */
    async heads(productId: string, limit: number, tx: Executor = db): Promise<AssignmentWaitTable[]> {
      return tx.selectFrom('assignment_waits').select(['conversation_id', 'workspace_id', 'product_id', 'created_at'])
        .where('product_id', '=', productId).orderBy('created_at', 'asc').orderBy('conversation_id', 'asc').limit(limit).execute();
    },

    /** The products of the workspace (all workspaces: null) with conversations waiting. */
    async waitingProducts(workspaceId: string | null, tx: Executor = db): Promise<{ workspace_id: string; product_id: string }[]> {
      let query = tx.selectFrom('assignment_waits').select(['workspace_id', 'product_id']).distinct();
      if (workspaceId !== null) query = query.where('workspace_id', '=', workspaceId);
      return query.execute();
    },
  };
}

export type AssignmentRepository = ReturnType<typeof assignmentRepository>;
