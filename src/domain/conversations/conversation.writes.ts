// Every write of a conversation or a message goes through here (the API's import, PATCH and
// replies, the widget's visitors and forms, announcements, summaries), so each records its event
// in its transaction, and each message of a contact asks for the conversation's summary in it
// (the contact's first, for its triage too).
import type { ContactRef, ContactRepository } from '../../db/repositories/contact.repository.js';
import type { ConversationChanges, ConversationRepository, ConversationRow, ConversationWithContactRow } from '../../db/repositories/conversation.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { TagRepository } from '../../db/repositories/tag.repository.js';
import { ERASED, type MessageRepository, type MessageRow } from '../../db/repositories/message.repository.js';
import type { Outbox } from '../../events/outbox.js';
import { previousOf } from '../shared/changes.js';
import type { ConversationJobQueue } from './conversation-jobs.js';
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
    async create(work: Work, row: ConversationRow, contact: ContactRef | null, firstMessage: MessageRow | null): Promise<ConversationDetail> {
      const { tx } = work;
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
     * A message in a conversation; the conversation's updated_at moves with it (that is part of
     * message.created, not a conversation.updated of its own).
     */
    async addMessage(work: Work, row: MessageRow): Promise<Message> {
      // Before the message's own writes: the request locks the conversation first (its comment says why).
      await askForJobs(work, row, async () => !(await messages.firstOfContact(row.workspace_id, row.conversation_id, work.tx)));
      await messages.insert(row, work.tx);
      await conversations.touch(row.workspace_id, row.conversation_id, row.created_at, work.tx);
      await recordMessage(work, row);
      return toMessage(row);
    },
  };
}

export type ConversationWrites = ReturnType<typeof createConversationWrites>;
