import { compileOnce } from './compiled-query.js';
import type { Executor } from './executor.js';
import type { EmailJobTable, MessageTable } from '../schema.js';
import { dimensionsOf, type ReportDimension } from './reports/report-dimensions.js';
import { messageCounts, reportDays } from './reports/report-days.js';

const MESSAGE_COLUMNS = [
  'id', 'workspace_id', 'conversation_id', 'sender_type', 'sender_id', 'sender_name', 'body', 'email_message_id', 'full_body', 'created_at', 'internal',
] as const;

/**
 * A message to write; the mail columns are left out by messages that did not come or go by mail,
 * the report dimensions always (the insert copies them from the conversation).
 */
export type MessageRow = Omit<MessageTable, 'email_message_id' | 'full_body' | ReportDimension> & Partial<Pick<MessageTable, 'email_message_id' | 'full_body'>>;

/** A stored message with the state of its delivery by mail (null: it is not mailed). */
export type StoredMessageRow = Omit<MessageTable, ReportDimension> & { delivery_status: EmailJobTable['status'] | null; delivery_error: string | null };

/** What erasure leaves of a text. */
export const ERASED = '[erased]';

export function messageRepository(db: Executor) {
  const insert = compileOnce(MESSAGE_COLUMNS, (row: Omit<MessageTable, ReportDimension>) =>
    db.insertInto('messages').values({ ...row, ...dimensionsOf(row.conversation_id) }));
  const days = reportDays(db);
  type ConversationKey = { workspaceId: string; conversationId: string };
  /** The conversation's messages with their delivery, oldest first. */
  const inConversation = ({ workspaceId, conversationId }: ConversationKey) =>
    db
      .selectFrom('messages as m')
      .leftJoin('email_jobs as j', 'j.id', 'm.id')
      .select([...MESSAGE_COLUMNS.map((column) => `m.${column}` as const), 'j.status as delivery_status', 'j.last_error as delivery_error'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.conversation_id', '=', conversationId)
      .orderBy('m.created_at', 'asc')
      .orderBy('m.id', 'asc');
  const ofConversation = compileOnce(['workspaceId', 'conversationId'], inConversation);
  const forContact = compileOnce(['workspaceId', 'conversationId'], (key: ConversationKey) => inConversation(key).where('m.internal', '=', 0));
  const firstOfContact = compileOnce(['workspaceId', 'conversationId'], (key: ConversationKey) =>
    inConversation(key).where('m.sender_type', '=', 'contact').limit(1));

  return {
    async insert(row: MessageRow, tx: Executor = db): Promise<void> {
      await insert(tx, { email_message_id: null, full_body: null, ...row });
      const counts = messageCounts(row);
      if (counts) await days.add(row.conversation_id, row.created_at, counts, tx);
    },

    /** A conversation's messages, oldest first. */
    listByConversation: (workspaceId: string, conversationId: string, tx: Executor = db): Promise<StoredMessageRow[]> =>
      ofConversation(tx, { workspaceId, conversationId }),

    /** What the contact may see of a conversation's messages (never the team's internal notes), oldest first. */
    listForContact: (workspaceId: string, conversationId: string, tx: Executor = db): Promise<MessageRow[]> =>
      forContact(tx, { workspaceId, conversationId }),

    /**
     * What a contact's export shows of their messages, oldest first per conversation: every message
     * of their conversations, and theirs in any other (a mail into another person's thread). The one
     * query of it: notes (internal messages) are left out here.
     */
    async exportMessages(workspaceId: string, conversationIds: readonly string[], contactId: string, tx: Executor = db): Promise<MessageRow[]> {
      return tx.selectFrom('messages').select(MESSAGE_COLUMNS)
        .where('workspace_id', '=', workspaceId).where('internal', '=', 0)
        .where((eb) => eb.or([
          ...(conversationIds.length ? [eb('conversation_id', 'in', conversationIds)] : []),
          eb.and([eb('sender_type', '=', 'contact'), eb('sender_id', '=', contactId)]),
        ]))
        .orderBy('conversation_id').orderBy('created_at', 'asc').orderBy('id', 'asc')
        .execute();
    },

    /**
     * Erasure, in one conversation: the bodies of its messages other than system ones become
     * `[erased]` and their mail's whole text (`full_body`) goes; the contacts' messages lose their
     * sender name. With `senderId`, only that contact's messages (their mail into a thread not theirs).
     */
    async erase(workspaceId: string, conversationId: string, senderId: string | null, tx: Executor): Promise<void> {
      const erased = () => tx.updateTable('messages').where('workspace_id', '=', workspaceId).where('conversation_id', '=', conversationId)
        .$if(senderId !== null, (query) => query.where('sender_type', '=', 'contact').where('sender_id', '=', senderId!));
      await erased().set({ body: ERASED, full_body: null }).where('sender_type', '<>', 'system').execute();
      await erased().set({ sender_name: null }).where('sender_type', '=', 'contact').execute();
    },

    /** The conversation's first message from its contact, if any. */
    async firstOfContact(workspaceId: string, conversationId: string, tx: Executor = db): Promise<StoredMessageRow | undefined> {
      return (await firstOfContact(tx, { workspaceId, conversationId }))[0];
    },

    /** The workspace's message that came or went with this Message-ID, with its conversation. */
    async findByEmailMessageId(workspaceId: string, emailMessageIds: readonly string[], tx: Executor = db): Promise<Pick<MessageTable, 'id' | 'conversation_id'> | undefined> {
      if (emailMessageIds.length === 0) return undefined;
      return tx
        .selectFrom('messages')
        .select(['id', 'conversation_id'])
        .where('workspace_id', '=', workspaceId)
        .where('email_message_id', 'in', emailMessageIds)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** The Message-IDs of a conversation's mail, oldest first (a reply's References). */
    /** The contact's last message in the conversation written at or before `until` (what a reply then quotes). */
    async lastFromContact(workspaceId: string, conversationId: string, until: string, tx: Executor = db): Promise<Pick<MessageTable, 'sender_name' | 'body' | 'created_at'> | undefined> {
      return tx
        .selectFrom('messages')
        .select(['sender_name', 'body', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .where('conversation_id', '=', conversationId)
        .where('sender_type', '=', 'contact')
        .where('created_at', '<=', until)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async emailMessageIdsOf(workspaceId: string, conversationId: string, tx: Executor = db): Promise<{ email_message_id: string; sender_type: string }[]> {
      const rows = await tx
        .selectFrom('messages')
        .select(['email_message_id', 'sender_type'])
        .where('workspace_id', '=', workspaceId)
        .where('conversation_id', '=', conversationId)
        .where('email_message_id', 'is not', null)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
      return rows as { email_message_id: string; sender_type: string }[];
    },
  };
}

export type MessageRepository = ReturnType<typeof messageRepository>;
