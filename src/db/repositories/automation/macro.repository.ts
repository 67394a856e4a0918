// Macros (migration 0037): an agent's saved lists of actions, oldest first.
import { findInWorkspace } from '../compiled-query.js';
import { oldestFirstPage, type Executor, type Page, type PageOf } from '../executor.js';
import type { MacroTable } from '../../schema.js';

const MACRO_COLUMNS = ['id', 'workspace_id', 'name', 'actions', 'created_at', 'updated_at'] as const;

export type MacroRow = MacroTable;
export type MacroChanges = Partial<Pick<MacroTable, 'name' | 'actions' | 'updated_at'>>;

export function macroRepository(db: Executor) {
  return {
    async insert(row: MacroRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('macros').values(row).execute();
    },

    findById: findInWorkspace<MacroRow>(db, 'macros', MACRO_COLUMNS),

    list: (workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<MacroRow>> =>
      oldestFirstPage<MacroRow>(tx, 'macros', MACRO_COLUMNS, workspaceId, page),

    async update(workspaceId: string, id: string, changes: MacroChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('macros').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Whether it existed. */
    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<boolean> {
      const result = await tx.deleteFrom('macros').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type MacroRepository = ReturnType<typeof macroRepository>;
