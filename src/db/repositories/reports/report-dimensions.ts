// The report dimensions (docs/reports.md, "Window and filters"): a stopped clock and a message carry
// their conversation's product, type, source and assignee (migration 0047), so a filtered report
// narrows the window's rows by their own columns instead of looking up each row's conversation.
// Product, type and source never change after a conversation is created; the assignee does, and
// its every change goes through the conversations' update (conversation.repository.ts), which
// calls `followAssignee`.
import { sql } from 'kysely';
import type { Executor } from '../executor.js';

export const REPORT_DIMENSIONS = ['product_id', 'type', 'source', 'assignee_id'] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

/**
 * The dimensions of a row being inserted, read from its conversation in the same statement (one
 * key lookup each): whoever writes a message or a clock cannot forget or mistake them.
 */
export function dimensionsOf(conversationId: string) {
  const of = <Value>(column: ReportDimension) => sql<Value>`(select ${sql.ref(`dc.${column}`)} from conversations dc where dc.id = ${conversationId})`;
  return { product_id: of<string>('product_id'), type: of<string>('type'), source: of<string>('source'), assignee_id: of<string | null>('assignee_id') };
}

/** A conversation's new assignee on its messages and clocks (indexed by conversation). */
export async function followAssignee(tx: Executor, workspaceId: string, conversationId: string, assigneeId: string | null): Promise<void> {
  for (const table of ['messages', 'sla_clocks'] as const) {
    await tx.updateTable(table).set({ assignee_id: assigneeId })
      .where('workspace_id', '=', workspaceId).where('conversation_id', '=', conversationId).execute();
  }
}
