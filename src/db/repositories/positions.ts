// The statement that moves a run of an ordered resource's rows (the rule is in
// src/domain/shared/positions.ts), for each table that keeps a workspace's `position` order.
import type { Executor } from './executor.js';

export type OrderedTable = 'sla_policies' | 'automation_rules';

/** Moves the table's rows at places `from`…`to` (inclusive) of the workspace by `by` places. */
export function positionShifter(table: OrderedTable, db: Executor) {
  return async (workspaceId: string, range: { from: number; to: number }, by: 1 | -1, tx: Executor = db): Promise<void> => {
    await tx.updateTable(table)
      .set((eb) => ({ position: eb('position', '+', by) }))
      .where('workspace_id', '=', workspaceId).where('position', '>=', range.from).where('position', '<=', range.to)
      .execute();
  };
}
