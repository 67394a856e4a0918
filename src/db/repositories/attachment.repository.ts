// Attachments (migration 0021): the records of files kept by content hash in the attachment store.
import { compileOnce } from './compiled-query.js';
import type { Executor } from './executor.js';
import type { AttachmentTable } from '../schema.js';

export type AttachmentRow = AttachmentTable;
const COLUMNS = ['id', 'workspace_id', 'message_id', 'contact_id', 'sha256', 'filename', 'content_type', 'size', 'created_at'] as const;

export function attachmentRepository(db: Executor) {
  // Compiled once: every conversation's detail reads it (compileOnce).
  const ofConversation = compileOnce(['workspaceId', 'conversationId'], ({ workspaceId, conversationId }: { workspaceId: string; conversationId: string }) =>
    db
      .selectFrom('attachments')
      .select(COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('message_id', 'in', (eb) =>
        eb.selectFrom('messages').select('id').where('workspace_id', '=', workspaceId).where('conversation_id', '=', conversationId))
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc'),
  );

  return {
    async insertMany(rows: readonly AttachmentRow[], tx: Executor = db): Promise<void> {
      if (rows.length > 0) await tx.insertInto('attachments').values([...rows]).execute();
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<AttachmentRow | undefined> {
      return tx.selectFrom('attachments').select(COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    /**
     * The attachments of a conversation's messages, oldest first: the conversation's message ids
     * (its index) probe attachments by message (theirs), whatever the planner knows of either table.
     */
    async listByConversation(workspaceId: string, conversationId: string, tx: Executor = db): Promise<AttachmentRow[]> {
      return ofConversation(tx, { workspaceId, conversationId });
    },

    /** Deletes the attachments a contact sent; the content hashes they named. */
    async deleteOfContact(workspaceId: string, contactId: string, tx: Executor = db): Promise<string[]> {
      const rows = await tx.deleteFrom('attachments').where('workspace_id', '=', workspaceId).where('contact_id', '=', contactId).returning('sha256').execute();
      return [...new Set(rows.map((row) => row.sha256))];
    },

    /** Which of these content hashes no attachment of any workspace names any more. */
    async unreferenced(hashes: readonly string[], tx: Executor = db): Promise<string[]> {
      if (hashes.length === 0) return [];
      const used = await tx.selectFrom('attachments').select('sha256').distinct().where('sha256', 'in', hashes).execute();
      const stillUsed = new Set(used.map((row) => row.sha256));
      return hashes.filter((hash) => !stillUsed.has(hash));
    },
  };
}

export type AttachmentRepository = ReturnType<typeof attachmentRepository>;
