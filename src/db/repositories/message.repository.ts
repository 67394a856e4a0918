import { compileOnce } from './compiled-query.js';
import type { Executor } from './executor.js';
import type { MessageTable } from '../schema.js';

const MESSAGE_COLUMNS = ['id', 'workspace_id', 'conversation_id', 'sender_type', 'sender_id', 'sender_name', 'body', 'created_at'] as const;

export type MessageRow = MessageTable;

/** What erasure leaves of a text. */
export const ERASED = '[erased]';

export function messageRepository(db: Executor) {
  const insert = compileOnce(MESSAGE_COLUMNS, (row: MessageRow) => db.insertInto('messages').values(row));
  type ConversationKey = { workspaceId: string; conversationId: string };
  /** The conversation's messages, oldest first. */
  const inConversation = ({ workspaceId, conversationId }: ConversationKey) =>
    db
      .selectFrom('messages')
      .select(MESSAGE_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('conversation_id', '=', conversationId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc');
  const ofConversation = compileOnce(['workspaceId', 'conversationId'], inConversation);
  const firstOfContact = compileOnce(['workspaceId', 'conversationId'], (key: ConversationKey) =>
    inConversation(key).where('sender_type', '=', 'contact').limit(1));

  return {
    async insert(row: MessageRow, tx: Executor = db): Promise<void> {
      await insert(tx, row);
    },

    /** A conversation's messages, oldest first. */
    listByConversation: (workspaceId: string, conversationId: string, tx: Executor = db): Promise<MessageRow[]> =>
      ofConversation(tx, { workspaceId, conversationId }),

    /**
     * What a contact's export shows of their conversations' messages, oldest first per conversation.
     * The one query of it: notes (internal messages) are left out here.
     */
    async exportMessages(workspaceId: string, conversationIds: readonly string[], tx: Executor = db): Promise<MessageRow[]> {
      if (conversationIds.length === 0) return [];
      return tx.selectFrom('messages').select(MESSAGE_COLUMNS)
        .where('workspace_id', '=', workspaceId).where('conversation_id', 'in', conversationIds)
        .orderBy('conversation_id').orderBy('created_at', 'asc').orderBy('id', 'asc')
        .execute();
    },

    /** Erasure: the bodies of the conversations' messages other than system ones become `[erased]`; the contact's lose their sender name. */
    async erase(workspaceId: string, conversationIds: readonly string[], tx: Executor): Promise<void> {
      if (conversationIds.length === 0) return;
      await tx.updateTable('messages').set({ body: ERASED })
        .where('workspace_id', '=', workspaceId).where('conversation_id', 'in', conversationIds).where('sender_type', '<>', 'system').execute();
      await tx.updateTable('messages').set({ sender_name: null })
        .where('workspace_id', '=', workspaceId).where('conversation_id', 'in', conversationIds).where('sender_type', '=', 'contact').execute();
    },

    /** The conversation's first message from its contact, if any. */
    async firstOfContact(workspaceId: string, conversationId: string, tx: Executor = db): Promise<MessageRow | undefined> {
      return (await firstOfContact(tx, { workspaceId, conversationId }))[0];
    },
  };
}

export type MessageRepository = ReturnType<typeof messageRepository>;
