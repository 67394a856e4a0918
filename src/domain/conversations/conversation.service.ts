// Conversations and their messages: workspace scoping, permissive status moves, agent replies
// (typed, or [ext] a saved reply with its placeholders filled), [ext] assignees and internal notes
// (docs/inbox.md), and the [ext] import of conversations from other channels.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { ContactRef, ContactRepository } from '../../db/repositories/contact.repository.js';
import type {
  ConversationChanges, ConversationFilters, ConversationRepository, ConversationSort, ConversationWithContactRow, NewConversationRow,
} from '../../db/repositories/conversation.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { SavedReplyRepository } from '../../db/repositories/saved-reply.repository.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { MessageRepository, MessageRow } from '../../db/repositories/message.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import { invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import { actingId, type Actor } from '../accounts/actor.js';
import { resolveMemberRef, type MemberRef } from '../accounts/member-ref.js';
import { nonBlankContactName } from '../contacts/contact-name.js';
import { fillPlaceholders, placeholderValues } from '../saved-replies/placeholders.js';
import { updateUnderLock } from '../shared/changes.js';
import { normalizeTags } from '../tags/tags.js';
import { toConversation, toLinkedIssue, toMessage, type Conversation, type ConversationDetail, type Message } from './conversation.shapes.js';
import { conversationLock, type ConversationWrites, type MailDelivery } from './conversation.writes.js';
import { checkSnoozable, snoozeOf } from './snooze.js';
import { inTransaction } from '../shared/unit-of-work.js';

export type { Conversation, ConversationContact, ConversationDetail, LinkedIssue, Message } from './conversation.shapes.js';
import type { ConversationSource, ConversationStatus, ConversationType, Priority } from '../shared/enums.js';

export const CONVERSATION_DEFAULTS = { type: 'ticket', source: 'chat', priority: 'normal' } as const;
export const MESSAGE_BODY_MAX = 50_000;
/** [ext] The orders GET /conversations offers (the repository's ConversationSort). */
export const CONVERSATION_SORTS = ['newest', 'waiting', 'due'] as const satisfies readonly ConversationSort[];
/** [ext] The values of GET /conversations' `sla` filter. */
export const CONVERSATION_SLA_FILTERS = ['breached', 'running'] as const satisfies readonly NonNullable<ConversationFilters['sla']>[];

export interface ConversationListFilters extends ConversationFilters {
  types?: ConversationType[];
  statuses?: ConversationStatus[];
  priorities?: Priority[];
  /** [ext] The `me` value of the assignee_id filter: the caller's member. */
  assignedToMe?: boolean;
}

export interface ConversationUpdate {
  status?: ConversationStatus;
  priority?: Priority;
  tags?: string[];
  /** [ext] A member id, `me`, or null to unassign. */
  assignee_id?: MemberRef;
  /** [ext] A future instant to snooze until, or null to wake it (snooze.ts). */
  snoozed_until?: string | null;
}

/** An agent's message: its text, or [ext] a saved reply to fill in. */
export type MessageInput = { body: string } | { saved_reply_id: string };

export interface ConversationImport {
  product_id: string;
  title: string;
  type?: ConversationType;
  source?: ConversationSource;
  priority?: Priority;
  contact?: { name?: string | null; email?: string | null } | null;
  body?: string | null;
}

/** Message bodies are stored as sent; only a blank one is refused (length is the schema's). */
function messageBody(body: string, field = 'body'): string {
  if (body.trim() === '') throw invalidField(field, 'must not be empty');
  return body;
}

/** Names are made one line and trimmed; emails are lowercased, so one address is one contact. */
function contactInput(contact: NonNullable<ConversationImport['contact']>): { name: string | null; email: string | null } {
  return { name: nonBlankContactName('contact.name', contact.name), email: contact.email?.toLowerCase() ?? null };
}

export interface ConversationServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  conversations: ConversationRepository;
  contacts: ContactRepository;
  messages: MessageRepository;
  products: Pick<ProductRepository, 'findById'>;
  members: Pick<MemberRepository, 'findById'>;
  savedReplies: Pick<SavedReplyRepository, 'findById'>;
  /** The one path every conversation and message write takes. */
  writes: ConversationWrites;
  clock: Clock;
  /** Replies in email conversations go out by mail; null: no SMTP server is configured (they are marked failed). */
  replyMail: { messageIdDomain: string } | null;
}

/** An agent's reply in an email conversation goes to the contact by mail: queued, or failed at once when it cannot go. */
export function mailOf(conversation: ConversationWithContactRow, replyMail: ConversationServiceDeps['replyMail']): MailDelivery | undefined {
  if (conversation.source !== 'email') return undefined;
  if (!replyMail) return { status: 'failed', error: 'no SMTP server is configured (LOOPDESK_SMTP_URL), so the reply was not mailed' };
  if (!conversation.contact_email) return { status: 'failed', error: 'the conversation\'s contact has no email address' };
  return { status: 'pending' };
}

/** Who posts an agent's message: a member, an API key, or [ext] an automation rule (docs/automation.md). */
export interface AgentSender {
  workspaceId: string;
  id: string;
  name: string | null;
}

/** An agent's message row, stamped `at` (its conversation's lock time); one that is mailed gets a Message-ID of its own. */
export function agentMessage(
  sender: AgentSender, conversationId: string, body: string,
  { internal, mail, at, replyMail }: { internal: boolean; mail?: MailDelivery; at: string; replyMail: ConversationServiceDeps['replyMail'] },
): MessageRow {
  const id = newId();
  return {
    id, workspace_id: sender.workspaceId, conversation_id: conversationId, sender_type: 'agent', sender_id: sender.id, sender_name: sender.name, body,
    email_message_id: mail ? `${id}@${replyMail?.messageIdDomain ?? 'loopdesk.invalid'}` : null, created_at: at, internal: internal ? 1 : 0,
  };
}

export function createConversationService({
  db, dialect, conversations, contacts, messages, products, members, savedReplies, writes, clock, replyMail,
}: ConversationServiceDeps) {
  async function find(actor: Actor, id: string, tx: Executor = db): Promise<ConversationWithContactRow> {
    const conversationId = parseUuid(id);
    const row = conversationId ? await conversations.findById(actor.workspaceId, conversationId, tx) : undefined;
    if (!row) throw notFound('conversation');
    return row;
  }

  /** With an email the workspace's contact of that address is reused (a given name replaces its name). */
  async function saveContact(actor: Actor, input: NonNullable<ConversationImport['contact']>, now: string, tx: Executor): Promise<ContactRef> {
    const { name, email } = contactInput(input);
    const row = { id: newId(), workspace_id: actor.workspaceId, name, email, created_at: now, updated_at: now };
    if (email !== null) return contacts.upsertByEmail({ ...row, email }, 'replace', tx);
    await contacts.insert(row, tx);
    return { id: row.id, name, email, external_id: null };
  }

  /** A saved reply's body with its placeholders filled for this conversation and sender. */
  async function savedReplyText(actor: Actor, conversation: ConversationWithContactRow, savedReplyId: string): Promise<string> {
    const id = parseUuid(savedReplyId);
    const [reply, product] = await Promise.all([
      id ? savedReplies.findById(actor.workspaceId, id) : undefined,
      products.findById(actor.workspaceId, conversation.product_id),
    ]);
    if (!reply) throw invalidField('saved_reply_id', 'is not a saved reply of this workspace');
    const values = placeholderValues({ contactName: conversation.contact_name, agentName: actor.member?.display_name ?? null, productName: product?.name ?? '' });
    const text = fillPlaceholders(reply.body, values);
    if ([...text].length > MESSAGE_BODY_MAX) throw invalidField('saved_reply_id', `fills to more than ${MESSAGE_BODY_MAX} characters`);
    return messageBody(text, 'saved_reply_id');
  }

  /** A message of the actor's (its member, or the key itself when it has none): a reply, or an internal note. */
  async function postAsAgent(actor: Actor, conversationId: string, body: string, { internal, mail }: { internal: boolean; mail?: MailDelivery }): Promise<Message> {
    return inTransaction(db, async (work) => {
      const sender = { workspaceId: actor.workspaceId, id: actingId(actor), name: actor.member?.display_name ?? null };
      const row = agentMessage(sender, conversationId, body, { internal, mail, at: await writes.lock(work, conversationId), replyMail });
      return writes.addMessage(work, { row, mail });
    });
  }

  return {
    /** Throws not_found unless the conversation exists in the actor's workspace. */
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await find(actor, id);
    },

    async get(actor: Actor, id: string): Promise<ConversationDetail> {
      return writes.detail(db, await find(actor, id));
    },

    async list(actor: Actor, { assignedToMe, ...filters }: ConversationListFilters, sort: ConversationSort, page: Page): Promise<PageOf<Conversation>> {
      const assigneeIds = [...(filters.assigneeIds ?? [])];
      if (assignedToMe) assigneeIds.push((await resolveMemberRef(members, actor, 'me', 'assignee_id'))!);
      const { rows, total } = await conversations.list(actor.workspaceId, { ...filters, assigneeIds }, sort, page);
      return { rows: rows.map(toConversation), total };
    },

    /**
     * Any status may be set from any status; updated_at moves only when something changes. [ext] A
     * snooze needs a conversation that stays open or in progress.
     */
    async update(actor: Actor, id: string, input: ConversationUpdate): Promise<Conversation> {
      const { id: conversationId } = await find(actor, id);
      const wanted: ConversationChanges = {
        status: input.status, priority: input.priority, tags: input.tags === undefined ? undefined : JSON.stringify(normalizeTags(input.tags)),
        snoozed_until: input.snoozed_until === undefined ? undefined : snoozeOf(input.snoozed_until, clock.now()),
      };
      if (input.assignee_id !== undefined) wanted.assignee_id = await resolveMemberRef(members, actor, input.assignee_id, 'assignee_id');
      let updated: Conversation | null = null;
      const { current } = await updateUnderLock({ db, dialect, clock }, {
        lockKey: conversationLock(conversationId),
        read: async (tx) => {
          const row = await find(actor, conversationId, tx);
          checkSnoozable(input.status ?? row.status, wanted.snoozed_until);
          return row;
        },
        wanted,
        write: async (work, current, changes) => {
          updated = toConversation(await writes.update(work, current, changes, actor.member?.id ?? null));
        },
      });
      return updated ?? toConversation(current);
    },

    /**
     * An agent's reply, sent as the key's member (or as the key itself when it has none): typed, or a
     * saved reply filled in. In an email conversation it is also mailed to the contact, with a
     * Message-ID of its own.
     */
    async postMessage(actor: Actor, id: string, input: MessageInput): Promise<Message> {
      const conversation = await find(actor, id);
      const body = 'body' in input ? messageBody(input.body) : await savedReplyText(actor, conversation, input.saved_reply_id);
      return postAsAgent(actor, conversation.id, body, { internal: false, mail: mailOf(conversation, replyMail) });
    },

    /** [ext] An internal note: the team sees it, the contact never does (never mailed); it answers nobody (waiting_since stays). */
    async addNote(actor: Actor, id: string, body: string): Promise<Message> {
      const conversation = await find(actor, id);
      return postAsAgent(actor, conversation.id, messageBody(body), { internal: true });
    },

    /**
     * [ext] Imports a conversation. The optional first message is the contact's; without a
     * contact its sender_id is the importing API key's id (a session's: its member's id).
     */
    async create(actor: Actor, input: ConversationImport): Promise<ConversationDetail> {
      const productId = parseUuid(input.product_id);
      if (!productId || !(await products.findById(actor.workspaceId, productId))) {
        throw invalidField('product_id', 'is not a product of this workspace');
      }
      const body = input.body === undefined || input.body === null ? null : messageBody(input.body);
      return inTransaction(db, async (work) => {
        const { tx } = work;
        const now = clock.now();
        const contact = input.contact ? await saveContact(actor, input.contact, now, tx) : null;
        const row: NewConversationRow = {
          id: newId(),
          workspace_id: actor.workspaceId,
          product_id: productId,
          contact_id: contact?.id ?? null,
          type: input.type ?? CONVERSATION_DEFAULTS.type,
          source: input.source ?? CONVERSATION_DEFAULTS.source,
          channel: 'import',
          status: 'open',
          priority: input.priority ?? CONVERSATION_DEFAULTS.priority,
          title: input.title,
          ai_summary: null,
          rating: null,
          upvotes: 0,
          widget_session_id: null,
          form_fields: null,
          tags: '[]',
          created_at: now,
          updated_at: now,
        };
        const firstMessage: MessageRow | null = body === null ? null : {
          id: newId(), workspace_id: actor.workspaceId, conversation_id: row.id, sender_type: 'contact',
          sender_id: contact?.id ?? actor.apiKeyId ?? actingId(actor), sender_name: contact?.name ?? null, body, created_at: now, internal: 0,
        };
        return writes.create(work, row, contact, firstMessage);
      });
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
