// Every write of a conversation or a message goes through here (the API's import, PATCH and
// replies, the widget's visitors and forms, announcements, summaries), so each records its event
// in its transaction, and each message of a contact asks for the conversation's summary in it
// (the contact's first, for its triage too). It also keeps the list fields on the conversation's
// row (the latest message, since when the contact waits), so no list reads the messages.
import type { ContactRef, ContactRepository } from '../../db/repositories/contact.repository.js';
import type {
  ConversationChanges, ConversationRepository, ConversationRow, ConversationWithContactRow, NewConversationRow, WaitEffect,
} from '../../db/repositories/conversation.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { TagRepository } from '../../db/repositories/tag.repository.js';
import { ERASED, type MessageRepository, type MessageRow } from '../../db/repositories/message.repository.js';
import type { Outbox } from '../../events/outbox.js';
import { previousOf } from '../shared/changes.js';
import type { ConversationJobQueue } from './conversation-jobs.js';
import { messageExcerpt } from './message-excerpt.js';
import { toConversation, toLinkedIssue, toMessage, type Conversation, type ConversationDetail, type Message } from './conversation.shapes.js';
import type { Work } from '../shared/unit-of-work.js';
import { parseTags, retag } from '../tags/tags.js';

export interface ConversationWritesDeps {
  conversations: ConversationRepository;
  messages: MessageRepository;
  outbox: Outbox;
  jobs: Pick<ConversationJobQueue, 'request'>;
  tags: Pick<TagRepository, 'retag'>;
  contacts: Pick<ContactRepository, 'seen'>;
}

/**
 * A contact's message starts the wait (unless one is already waiting), an agent's reply ends it;
 * an internal note is no answer, and system messages (announcements) are none either.
 */
const waitEffectOf = (row: MessageRow): WaitEffect =>
  row.sender_type === 'contact' ? 'asks' : row.sender_type === 'agent' && row.internal === 0 ? 'answers' : 'none';

/** A new conversation's list fields: unassigned, its first message (if any) the latest, waiting if the contact wrote it. */
function inboxFieldsOf(firstMessage: MessageRow | null): Omit<ConversationRow, keyof NewConversationRow> {
  return {
    assignee_id: null,
    last_message_sender_type: firstMessage?.sender_type ?? null,
    last_message_excerpt: firstMessage ? messageExcerpt(firstMessage.body) : null,
    last_message_at: firstMessage?.created_at ?? null,
    waiting_since: firstMessage && waitEffectOf(firstMessage) === 'asks' ? firstMessage.created_at : null,
  };
}

export function createConversationWrites({ conversations, messages, outbox, jobs, tags, contacts }: ConversationWritesDeps) {
  const detailIn = async (tx: Executor, row: ConversationWithContactRow): Promise<ConversationDetail> => ({
    ...toConversation(row),
    messages: (await messages.listByConversation(row.workspace_id, row.id, tx)).map(toMessage),
    linked_issues: (await conversations.listLinkedIssues(row.workspace_id, row.id, tx)).map(toLinkedIssue),
  });

  /** message.created carries the message and the conversation it belongs to. */
  const recordMessage = (work: Work, row: MessageRow) =>
    outbox.record(work, { type: 'message.created', workspaceId: row.workspace_id, data: { ...toMessage(row), conversation_id: row.conversation_id } });

  /**
   * A contact's message marks its contact seen, and asks for the conversation's summary, and the contact's first also for its
   * triage; agents' replies and system messages ask for neither.
   */
  const askForJobs = async (work: Work, row: MessageRow, first: () => Promise<boolean>) => {
    if (row.sender_type !== 'contact') return;
    // The contact's last_seen_at (a contact-less import's sender is its API key: no contact matches).
    await contacts.seen(row.workspace_id, row.sender_id, row.created_at, work.tx);
    await jobs.request(work, 'summary', row);
    if (await first()) await jobs.request(work, 'triage', row);
  };

  return {
    /** A new conversation, with its contact's first message when there is one. */
    async create(work: Work, newRow: NewConversationRow, contact: ContactRef | null, firstMessage: MessageRow | null): Promise<ConversationDetail> {
      const { tx } = work;
      const row: ConversationRow = { ...newRow, ...inboxFieldsOf(firstMessage) };
      await conversations.insert(row, tx);
      if (firstMessage) {
        await messages.insert(firstMessage, tx);
        await askForJobs(work, firstMessage, async () => true);
      }
      const detail: ConversationDetail = {
        ...toConversation({ ...row, contact_name: contact?.name ?? null, contact_email: contact?.email ?? null, contact_external_id: contact?.external_id ?? null }),
        messages: firstMessage ? [toMessage(firstMessage)] : [],
        linked_issues: [],
      };
      await outbox.record(work, { type: 'conversation.created', workspaceId: row.workspace_id, data: detail });
      if (firstMessage) await recordMessage(work, firstMessage);
      return detail;
    },

    /** Writes a change's effective fields (updated_at among them): a PATCH's, a visitor's rating, a new summary. */
    async update(work: Work, current: ConversationWithContactRow, changes: ConversationChanges): Promise<Conversation> {
      await conversations.update(current.workspace_id, current.id, changes, work.tx);
      if (changes.tags !== undefined) {
        await retag(tags, work.tx, current.workspace_id, 'conversation', current.id, parseTags(current.tags), parseTags(changes.tags));
      }
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
     * Erasure of the conversation's contact (docs/privacy.md): the conversation stays, without its
     * contact and without the person's words. Its event's `previous` names only the contact's id.
     */
    async eraseContact(work: Work, current: ConversationWithContactRow, now: string): Promise<void> {
      await messages.erase(current.workspace_id, [current.id], work.tx);
      await conversations.erase(current.workspace_id, current.id, ERASED, now, work.tx);
      const erased = (await conversations.findById(current.workspace_id, current.id, work.tx))!;
      await outbox.record(work, {
        type: 'conversation.updated', workspaceId: current.workspace_id, data: await detailIn(work.tx, erased), previous: { contact_id: current.contact_id },
      });
    },

    /**
     * A message in a conversation, an internal note included; the conversation's updated_at, latest
     * message and wait move with it (that is part of message.created, not a conversation.updated of its own).
     */
    async addMessage(work: Work, row: MessageRow): Promise<Message> {
      // Before the message's own writes: the request locks the conversation first (its comment says why).
      await askForJobs(work, row, async () => !(await messages.firstOfContact(row.workspace_id, row.conversation_id, work.tx)));
      await messages.insert(row, work.tx);
      await conversations.markMessage(row.workspace_id, row.conversation_id, {
        at: row.created_at, senderType: row.sender_type, excerpt: messageExcerpt(row.body), wait: waitEffectOf(row),
      }, work.tx);
      await recordMessage(work, row);
      return toMessage(row);
    },
  };
}

export type ConversationWrites = ReturnType<typeof createConversationWrites>;
