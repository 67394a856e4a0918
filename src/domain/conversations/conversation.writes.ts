// Every write of a conversation or a message goes through here (the API's import, PATCH and
// replies, the widget's visitors and forms, mail, announcements, summaries), so each records its
// event in its transaction, and each message of a contact asks for the conversation's summary in it
// (the contact's first, for its triage too). A message's attachments are written with it, and a
// reply that goes out by mail gets its delivery job in the same transaction (the outbox of mail).
import type { AttachmentRepository, AttachmentRow } from '../../db/repositories/attachment.repository.js';
import type { ContactRef } from '../../db/repositories/contact.repository.js';
import type { EmailJobRepository } from '../../db/repositories/email-job.repository.js';
import type { ConversationChanges, ConversationRepository, ConversationRow, ConversationWithContactRow } from '../../db/repositories/conversation.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { MessageRepository, MessageRow } from '../../db/repositories/message.repository.js';
import type { Outbox } from '../../events/outbox.js';
import { previousOf } from '../shared/changes.js';
import type { ConversationJobQueue } from './conversation-jobs.js';
import { toConversation, toLinkedIssue, toMessage, type Conversation, type ConversationDetail, type Message } from './conversation.shapes.js';
import type { Work } from '../shared/unit-of-work.js';

export interface ConversationWritesDeps {
  conversations: ConversationRepository;
  messages: MessageRepository;
  attachments: Pick<AttachmentRepository, 'insertMany' | 'listByConversation'>;
  emailJobs: Pick<EmailJobRepository, 'insert'>;
  outbox: Outbox;
  jobs: Pick<ConversationJobQueue, 'request'>;
}

/**
 * How a message goes out by mail: `pending` (a delivery job is queued with it), or `failed` at once
 * with the reason (no SMTP server configured, no address to write to).
 */
export type MailDelivery = { status: 'pending' } | { status: 'failed'; error: string };

export interface NewMessage {
  row: MessageRow;
  attachments?: readonly AttachmentRow[];
  mail?: MailDelivery;
}

/** A bare row is a message without attachments or mail. */
const asNewMessage = (message: MessageRow | NewMessage): NewMessage => ('row' in message ? message : { row: message });

export function createConversationWrites({ conversations, messages, attachments, emailJobs, outbox, jobs }: ConversationWritesDeps) {
  /** The conversation with its messages (and their attachments) and linked issues, as GET shows it. */
  const detailIn = async (tx: Executor, row: ConversationWithContactRow): Promise<ConversationDetail> => {
    const [messageRows, attachmentRows, issueRows] = await Promise.all([
      messages.listByConversation(row.workspace_id, row.id, tx),
      attachments.listByConversation(row.workspace_id, row.id, tx),
      conversations.listLinkedIssues(row.workspace_id, row.id, tx),
    ]);
    return { ...toConversation(row), messages: messageRows.map((message) => toMessage(message, attachmentRows)), linked_issues: issueRows.map(toLinkedIssue) };
  };

  /** Writes the message, its attachments and its mail job; the message as shown. */
  const insertMessage = async (work: Work, { row, attachments: files = [], mail }: NewMessage): Promise<Message> => {
    await messages.insert(row, work.tx);
    await attachments.insertMany(files, work.tx);
    if (mail) {
      await emailJobs.insert({
        id: row.id, workspace_id: row.workspace_id, kind: 'reply', status: mail.status, attempts: 0,
        last_error: mail.status === 'failed' ? mail.error : null, next_attempt_at: mail.status === 'pending' ? row.created_at : null,
        created_at: row.created_at, updated_at: row.created_at,
      }, work.tx);
    }
    return toMessage({ ...row, delivery_status: mail ? (mail.status === 'pending' ? 'pending' : 'failed') : null, delivery_error: mail?.status === 'failed' ? mail.error : null }, files);
  };

  /** message.created carries the message and the conversation it belongs to. */
  const recordMessage = (work: Work, row: MessageRow, message: Message) =>
    outbox.record(work, { type: 'message.created', workspaceId: row.workspace_id, data: { ...message, conversation_id: row.conversation_id } });

  /**
   * A contact's message asks for the conversation's summary, and the contact's first also for its
   * triage; agents' replies and system messages ask for neither.
   */
  const askForJobs = async (work: Work, row: MessageRow, first: () => Promise<boolean>) => {
    if (row.sender_type !== 'contact') return;
    await jobs.request(work, 'summary', row);
    if (await first()) await jobs.request(work, 'triage', row);
  };

  return {
    /** Reads a conversation's detail (its messages, their attachments and deliveries, its linked issues). */
    detail: detailIn,

    /** A new conversation, with its contact's first message when there is one. */
    async create(work: Work, row: ConversationRow, contact: ContactRef | null, first: MessageRow | NewMessage | null): Promise<ConversationDetail> {
      const { tx } = work;
      const firstMessage = first && asNewMessage(first);
      await conversations.insert(row, tx);
      const message = firstMessage && (await insertMessage(work, firstMessage));
      if (firstMessage) await askForJobs(work, firstMessage.row, async () => true);
      const detail: ConversationDetail = {
        ...toConversation({ ...row, contact_name: contact?.name ?? null, contact_email: contact?.email ?? null, contact_external_id: contact?.external_id ?? null }),
        messages: message ? [message] : [],
        linked_issues: [],
      };
      await outbox.record(work, { type: 'conversation.created', workspaceId: row.workspace_id, data: detail });
      if (firstMessage && message) await recordMessage(work, firstMessage.row, message);
      return detail;
    },

    /** Writes a change's effective fields (updated_at among them): a PATCH's, a visitor's rating, a new summary. */
    async update(work: Work, current: ConversationWithContactRow, changes: ConversationChanges): Promise<Conversation> {
      await conversations.update(current.workspace_id, current.id, changes, work.tx);
      const next = { ...current, ...changes };
      await outbox.record(work, {
        type: 'conversation.updated',
        workspaceId: current.workspace_id,
        data: await detailIn(work.tx, next),
        previous: previousOf(toConversation(current), changes),
      });
      return toConversation(next);
    },

    /**
     * A message in a conversation; the conversation's updated_at moves with it (that is part of
     * message.created, not a conversation.updated of its own).
     */
    async addMessage(work: Work, added: MessageRow | NewMessage): Promise<Message> {
      const message = asNewMessage(added);
      const { row } = message;
      // Before the message's own writes: the request locks the conversation first (its comment says why).
      await askForJobs(work, row, async () => !(await messages.firstOfContact(row.workspace_id, row.conversation_id, work.tx)));
      const shown = await insertMessage(work, message);
      await conversations.touch(row.workspace_id, row.conversation_id, row.created_at, work.tx);
      await recordMessage(work, row, shown);
      return shown;
    },
  };
}

export type ConversationWrites = ReturnType<typeof createConversationWrites>;
