import type { Executor } from './executor.js';
import type { MessageTable } from '../schema.js';

const MESSAGE_COLUMNS = ['id', 'workspace_id', 'conversation_id', 'sender_type', 'sender_id', 'sender_name', 'body', 'created_at'] as const;

export type MessageRow = MessageTable;

export function messageRepository(db: Executor) {
  return {
    async insert(row: MessageRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('messages').values(row).execute();
    },

    /** A conversation's messages, oldest first. */
    async listByConversation(workspaceId: string, conversationId: string, tx: Executor = db): Promise<MessageRow[]> {
      return tx
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('conversation_id', '=', conversationId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },
  };
}

export type MessageRepository = ReturnType<typeof messageRepository>;
