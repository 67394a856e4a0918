// Every write of a conversation or a message goes through here (the API's import, PATCH and
// replies, the widget's visitors and forms, mail, announcements, summaries), so each records its
// event in its transaction, and each message of a contact asks for the conversation's summary in it
// (the contact's first, for its triage too). It also keeps the list fields on the conversation's
// row (the latest message, since when the contact waits), so no list reads the messages. It owns
// the snooze's rules (snooze.ts): a snooze asks for its wake, closing a conversation or its
// contact's message ends it. A
// message's attachments are written with it, and a reply that goes out by mail gets its delivery
// job in the same transaction (the outbox of mail).
//
// A write to an existing conversation first takes its lock (`lock`), then stamps its time: so the
// writes of one conversation stamp in the order they commit, updated_at never goes back, no
// message is newer than its conversation's updated_at, and the latest message is the last one.
// The writes check the lock is held.
import type { AttachmentRepository, AttachmentRow } from '../../db/repositories/attachment.repository.js';
import type { ContactRef, ContactRepository } from '../../db/repositories/contact.repository.js';
import type { EmailJobRepository } from '../../db/repositories/email-job.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type {
  ConversationChanges, ConversationRepository, ConversationRow, ConversationWithContactRow, InboxColumns, NewConversationRow, WaitEffect,
} from '../../db/repositories/conversation.repository.js';
import type { DueClock } from '../../db/repositories/service-levels/sla-clock.repository.js';
import type { Dialect } from '../../db/dialect.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { Clock } from '../../lib/clock.js';
import type { TagRepository } from '../../db/repositories/tag.repository.js';
import { ERASED, type MessageRepository, type MessageRow } from '../../db/repositories/message.repository.js';
import type { Outbox } from '../../events/outbox.js';
import { holdAssignee } from '../accounts/member-ref.js';
import type { Assignment } from '../assignment/assignment.js';
import { OPEN_STATUSES } from '../../db/repositories/automation/assignment.repository.js';
import { addressToken } from '../email/addresses.js';
import { previousOf } from '../shared/changes.js';
import type { ConversationJobQueue } from './conversation-jobs.js';
import { messageExcerpt } from './message-excerpt.js';
import { withSnoozeRule } from './snooze.js';
import { toConversation, toLinkedIssue, toMessage, type ConversationDetail, type Message } from './conversation.shapes.js';
import type { NotificationWrites } from '../notifications/notification.writes.js';
import type { SlaClocks } from '../service-levels/sla-clocks.js';
import { holdLock, sharedRead, type Work } from '../shared/unit-of-work.js';
import { parseTags, retag } from '../tags/tags.js';

export interface ConversationWritesDeps {
  conversations: ConversationRepository;
  messages: MessageRepository;
  attachments: Pick<AttachmentRepository, 'insertMany' | 'listByConversation'>;
  emailJobs: Pick<EmailJobRepository, 'insert' | 'erase'>;
  outbox: Outbox;
  jobs: Pick<ConversationJobQueue, 'request' | 'requestAt'>;
  tags: Pick<TagRepository, 'retag'>;
  contacts: Pick<ContactRepository, 'seen'>;
  members: Pick<MemberRepository, 'findById'>;
  /** Who is told of an assignment, a contact's message, a note's mentions (docs/inbox.md, "Notifications"). */
  notify: Pick<NotificationWrites, 'assigned' | 'messageAdded'>;
  /** The SLA clocks every create, message and change moves (docs/service-levels.md). */
  serviceLevels: SlaClocks;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  clock: Clock;
  /** Fair assignment (docs/automation.md, "Assignment"): a new conversation's assignee, the queue of those waiting. */
  assignment: Pick<Assignment, 'forNew' | 'wait' | 'unwait'>;
  /** After a commit that freed a member's place in the product (an assigned open conversation closed or reassigned). */
  onFreed: (workspaceId: string, productId: string) => void;
}

const isOpen = (status: string): boolean => (OPEN_STATUSES as readonly string[]).includes(status);

/** The lock of a conversation's writes (its messages, its row, its background jobs). */
export const conversationLock = (conversationId: string): string => `conversation:${conversationId}`;

/**
 * A contact's message starts the wait (unless one is already waiting), an agent's reply ends it;
 * an internal note is no answer, and system messages (announcements) are none either.
 */
const waitEffectOf = (row: MessageRow): WaitEffect =>
  row.sender_type === 'contact' ? 'asks' : row.sender_type === 'agent' && row.internal === 0 ? 'answers' : 'none';

/** A new conversation's list fields: unassigned, its first message (if any) the latest, waiting if the contact wrote it. */
function inboxFieldsOf(firstMessage: MessageRow | null): Pick<ConversationRow, InboxColumns> {
  return {
    assignee_id: null,
    last_message_sender_type: firstMessage?.sender_type ?? null,
    last_message_excerpt: firstMessage ? messageExcerpt(firstMessage.body) : null,
    last_message_at: firstMessage?.created_at ?? null,
    waiting_since: firstMessage && waitEffectOf(firstMessage) === 'asks' ? firstMessage.created_at : null,
    snoozed_until: null,
    rated_at: null,
  };
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

export function createConversationWrites({
  conversations, messages, attachments, emailJobs, outbox, jobs, tags, contacts, members, notify, serviceLevels, dialect, clock, assignment, onFreed,
}: ConversationWritesDeps) {
  /** A write to a conversation without its lock is a bug in the caller, not a request to refuse. */
  const requireLock = (work: Work, conversationId: string) => {
    if (!work.locks.has(conversationLock(conversationId))) throw new Error(`conversation ${conversationId} written without its lock`);
  };

  /** A conversation's messages (with their attachments) and linked issues, as its detail shows them. */
  const partsOf = async (tx: Executor, row: Pick<ConversationRow, 'workspace_id' | 'id'>): Promise<Pick<ConversationDetail, 'messages' | 'linked_issues'>> => {
    const [messageRows, attachmentRows, issueRows] = await Promise.all([
      messages.listByConversation(row.workspace_id, row.id, tx),
      attachments.listByConversation(row.workspace_id, row.id, tx),
      conversations.listLinkedIssues(row.workspace_id, row.id, tx),
    ]);
    return { messages: messageRows.map((message) => toMessage(message, attachmentRows)), linked_issues: issueRows.map(toLinkedIssue) };
  };

  /** The conversation with its messages (and their attachments) and linked issues, as GET shows it. */
  const detailIn = async (tx: Executor, row: ConversationWithContactRow): Promise<ConversationDetail> => ({ ...toConversation(row), ...(await partsOf(tx, row)) });

  /**
   * The detail for an event of `work`: a transaction sharing its reads (a rule job) reads the
   * messages and linked issues once, again only after a message of its own (`partsKey` dropped).
   */
  const partsKey = (conversationId: string) => `conversation-parts:${conversationId}`;
  const detailFor = async (work: Work, row: ConversationWithContactRow): Promise<ConversationDetail> =>
    ({ ...toConversation(row), ...(await sharedRead(work, partsKey(row.id), () => partsOf(work.tx, row))) });

  /** Writes the message, its attachments and its mail job; the message as shown. */
  const insertMessage = async (work: Work, { row, attachments: files = [], mail }: NewMessage): Promise<Message> => {
    work.shared?.delete(partsKey(row.conversation_id));
    await messages.insert(row, work.tx);
    await attachments.insertMany(files, work.tx);
    if (mail) {
      await emailJobs.insert({
        id: row.id, workspace_id: row.workspace_id, kind: 'reply', status: mail.status, attempts: 0,
        last_error: mail.status === 'failed' ? mail.error : null, next_attempt_at: mail.status === 'pending' ? row.created_at : null,
        created_at: row.created_at, updated_at: row.created_at, return_path_token: mail.status === 'pending' ? addressToken() : null,
      }, work.tx);
    }
    return toMessage({ ...row, delivery_status: mail ? (mail.status === 'pending' ? 'pending' : 'failed') : null, delivery_error: mail?.status === 'failed' ? mail.error : null }, files);
  };

  /** message.created carries the message and the conversation it belongs to. */
  const recordMessage = (work: Work, row: MessageRow, message: Message) =>
    outbox.record(work, { type: 'message.created', workspaceId: row.workspace_id, data: { ...message, conversation_id: row.conversation_id } });

  /**
   * Every message asks for its fold into the search document; a contact's message also marks its contact seen and asks for the
   * conversation's summary, and the contact's first also for its triage; agents' replies and system messages ask for neither.
   */
  const askForJobs = async (work: Work, row: MessageRow, first: () => Promise<boolean>) => {
    // Every message, once its conversation is quiet, is folded into the conversation's search document.
    await jobs.request(work, 'search', row);
    if (row.sender_type !== 'contact') return;
    // The contact's last_seen_at (a contact-less import's sender is its API key: no contact matches).
    await contacts.seen(row.workspace_id, row.sender_id, row.created_at, work.tx);
    await jobs.request(work, 'summary', row);
    if (await first()) await jobs.request(work, 'triage', row);
  };

  /** An erasure's conversation.updated: the conversation as the erasure left it (read after it). */
  const recordErased = async (work: Work, current: ConversationWithContactRow, previous: Record<string, unknown>) => {
    work.shared?.delete(partsKey(current.id));
    const erased = (await conversations.findById(current.workspace_id, current.id, work.tx))!;
    await outbox.record(work, { type: 'conversation.updated', workspaceId: current.workspace_id, data: await detailIn(work.tx, erased), previous });
  };

  /**
   * What a change means for fair assignment: a conversation assigned or closed leaves its queue; an
   * assigned open one closed or given to someone else frees its member's place (the queue may move).
   */
  const followAssignment = async (work: Work, current: ConversationRow, next: ConversationRow) => {
    if ((current.assignee_id === null && next.assignee_id !== null) || (isOpen(current.status) && !isOpen(next.status))) {
      await assignment.unwait(work, current.id);
    }
    if (current.assignee_id !== null && isOpen(current.status) && (next.assignee_id !== current.assignee_id || !isOpen(next.status))) {
      work.afterCommit(() => onFreed(current.workspace_id, current.product_id));
    }
  };

  const writes = {
    /**
     * Records an SLA clock's breach (docs/service-levels.md, "Breaches") under its conversation's
     * lock, with its event; false when another process recorded it first, or it stopped meanwhile.
     */
    async recordBreach(work: Work, due: DueClock): Promise<boolean> {
      await holdLock(dialect, work, conversationLock(due.conversation_id));
      const breach = await serviceLevels.breach(work, due, clock.now());
      if (!breach) return false;
      const row = (await conversations.findById(due.workspace_id, due.conversation_id, work.tx))!;
      await outbox.record(work, { type: 'conversation.sla_breached', workspaceId: due.workspace_id, data: { conversation: await detailFor(work, row), ...breach } });
      return true;
    },

    /** Reads a conversation's detail (its messages, their attachments and deliveries, its linked issues). */
    detail: detailIn,

    /**
     * Takes the conversation's lock until the transaction ends, and gives the time to stamp its
     * writes with (read the conversation after it, to see what the writes before left).
     */
    async lock(work: Work, conversationId: string): Promise<string> {
      await holdLock(dialect, work, conversationLock(conversationId));
      return clock.now();
    },

    /**
     * A new conversation, with its contact's first message when there is one; assigned by its
     * product's assignment, or waiting in its queue when nobody is free.
     */
    async create(work: Work, newRow: NewConversationRow, contact: ContactRef | null, first: MessageRow | NewMessage | null): Promise<ConversationDetail> {
      const { tx } = work;
      const firstMessage = first && asNewMessage(first);
      const assigned = isOpen(newRow.status) ? await assignment.forNew(work, newRow.workspace_id, newRow.product_id) : 'none';
      const assigneeId = typeof assigned === 'object' ? assigned.member : null;
      const sla = await serviceLevels.opened(work, { ...newRow, sla_policy_id: null }, firstMessage?.row ?? null);
      const row: ConversationRow = { ...newRow, ...inboxFieldsOf(firstMessage?.row ?? null), assignee_id: assigneeId, ...sla.columns };
      await conversations.insert(row, tx);
      if (assigned === 'wait') await assignment.wait(work, row, row.created_at);
      await sla.start();
      const message = firstMessage && (await insertMessage(work, firstMessage));
      if (firstMessage) await askForJobs(work, firstMessage.row, async () => true);
      const detail: ConversationDetail = {
        ...toConversation({ ...row, contact_name: contact?.name ?? null, contact_email: contact?.email ?? null, contact_external_id: contact?.external_id ?? null }),
        messages: message ? [message] : [],
        linked_issues: [],
      };
      await outbox.record(work, { type: 'conversation.created', workspaceId: row.workspace_id, data: detail });
      if (firstMessage && message) await recordMessage(work, firstMessage.row, message);
      if (assigneeId) await notify.assigned(work, row.workspace_id, row.id, assigneeId, null);
      return detail;
    },

    /**
     * Writes a change's effective fields (updated_at among them): a PATCH's, a visitor's rating, a
     * new summary, a wake. Resolving or dismissing a snoozed conversation ends its snooze as well;
     * a snooze asks for its wake, due when it ends. `by`: the member who made it, if any (a new
     * assignee is told who assigned them). The conversation's row as it left it.
     */
    async update(work: Work, current: ConversationWithContactRow, wanted: ConversationChanges, by: string | null = null): Promise<ConversationWithContactRow> {
      requireLock(work, current.id);
      const changes = withSnoozeRule(current, wanted);
      // CSAT counts a rating when it is given (docs/reports.md).
      if (changes.rating !== undefined && changes.rating !== current.rating) changes.rated_at = changes.updated_at ?? clock.now();
      await holdAssignee(dialect, members, work, current.workspace_id, changes.assignee_id, current.assignee_id);
      await conversations.update(current, changes, work.tx);
      if (changes.tags !== undefined) {
        await retag(tags, work.tx, current.workspace_id, 'conversation', current.id, parseTags(current.tags), parseTags(changes.tags));
      }
      if (changes.snoozed_until) {
        await jobs.requestAt(work, 'wake', { workspace_id: current.workspace_id, conversation_id: current.id, created_at: changes.updated_at ?? clock.now() }, changes.snoozed_until);
      }
      await followAssignment(work, current, { ...current, ...changes });
      const sla = await serviceLevels.changed(work, current, { ...current, ...changes }, changes.updated_at ?? clock.now());
      const next = { ...current, ...changes, ...sla };
      await outbox.record(work, {
        type: 'conversation.updated',
        workspaceId: current.workspace_id,
        data: await detailFor(work, next),
        previous: previousOf(toConversation(current), changes),
      });
      if (changes.assignee_id && changes.assignee_id !== current.assignee_id) await notify.assigned(work, current.workspace_id, current.id, changes.assignee_id, by);
      return next;
    },

    /**
     * Erasure of the conversation's contact (docs/privacy.md): the conversation stays, without its
     * contact and without the person's words (their mail's whole text and their replies' delivery
     * errors too). Its event is built after it all and names only the contact's id in `previous`.
     */
    async eraseContact(work: Work, current: ConversationWithContactRow, now: string): Promise<void> {
      requireLock(work, current.id);
      await messages.erase(current.workspace_id, current.id, null, work.tx);
      await emailJobs.erase(current.workspace_id, current.id, now, work.tx);
      await conversations.erase(current.workspace_id, current.id, ERASED, now, work.tx);
      await recordErased(work, current, { contact_id: current.contact_id });
    },

    /**
     * Erasure of a contact who wrote in this conversation, not theirs (a mail into another person's
     * thread): their messages lose their words, the summary goes and is asked for again from what
     * is left; the rest of the conversation stays. Its event is built after it and names nothing of theirs.
     */
    async eraseMessagesOf(work: Work, current: ConversationWithContactRow, contactId: string, now: string): Promise<void> {
      requireLock(work, current.id);
      await messages.erase(current.workspace_id, current.id, contactId, work.tx);
      await conversations.eraseWordsOf(current.workspace_id, current.id, contactId, ERASED, now, work.tx);
      await jobs.request(work, 'summary', { workspace_id: current.workspace_id, conversation_id: current.id, created_at: now });
      await recordErased(work, current, {});
    },

    /**
     * A message in a conversation, an internal note included; the conversation's updated_at, latest
     * message and wait move with it (that is part of message.created, not a conversation.updated of
     * its own). A contact's message wakes a snoozed conversation: one conversation.updated after it.
     */
    async addMessage(work: Work, added: MessageRow | NewMessage): Promise<Message> {
      const message = asNewMessage(added);
      const { row } = message;
      requireLock(work, row.conversation_id);
      await askForJobs(work, row, async () => !(await messages.firstOfContact(row.workspace_id, row.conversation_id, work.tx)));
      const shown = await insertMessage(work, message);
      const wait = waitEffectOf(row);
      const snoozedUntil = await conversations.markMessage(row.workspace_id, row.conversation_id, {
        at: row.created_at, senderType: row.sender_type, excerpt: messageExcerpt(row.body), wait,
      }, work.tx);
      // The conversation as the message left it, read once for its SLA clocks and its assignee's notification.
      const marked = wait === 'none' ? null : (await conversations.findById(row.workspace_id, row.conversation_id, work.tx))!;
      if (marked) await serviceLevels.messageAdded(work, marked, row, wait);
      await recordMessage(work, row, shown);
      await notify.messageAdded(work, row, marked?.assignee_id ?? null);
      if (row.sender_type === 'contact' && snoozedUntil !== null) {
        // Read after the mark, so the event shows the conversation with this message.
        await writes.update(work, (await conversations.findById(row.workspace_id, row.conversation_id, work.tx))!, { snoozed_until: null });
      }
      return shown;
    },
  };
  return writes;
}

export type ConversationWrites = ReturnType<typeof createConversationWrites>;
