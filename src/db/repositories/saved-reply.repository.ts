// Saved replies (migration 0018): a team's ready answers, oldest first.
import { findInWorkspace } from './compiled-query.js';
import { oldestFirstPage, type Executor, type Page, type PageOf } from './executor.js';
import type { SavedReplyTable } from '../schema.js';

const SAVED_REPLY_COLUMNS = ['id', 'workspace_id', 'title', 'body', 'created_at', 'updated_at'] as const;

export type SavedReplyRow = SavedReplyTable;
export type SavedReplyChanges = Partial<Pick<SavedReplyTable, 'title' | 'body' | 'updated_at'>>;

export function savedReplyRepository(db: Executor) {
  return {
    async insert(row: SavedReplyRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('saved_replies').values(row).execute();
    },

    findById: findInWorkspace<SavedReplyRow>(db, 'saved_replies', SAVED_REPLY_COLUMNS),

    list: (workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<SavedReplyRow>> =>
      oldestFirstPage<SavedReplyRow>(tx, 'saved_replies', SAVED_REPLY_COLUMNS, workspaceId, page),

    async update(workspaceId: string, id: string, changes: SavedReplyChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('saved_replies').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Whether it existed. */
    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<boolean> {
      const result = await tx.deleteFrom('saved_replies').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type SavedReplyRepository = ReturnType<typeof savedReplyRepository>;
