// Conversations and their messages: workspace scoping, permissive status moves, agent replies
// and the [ext] import of conversations from other channels.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { ContactRef, ContactRepository } from '../../db/repositories/contact.repository.js';
import type {
  ConversationChanges, ConversationFilters, ConversationRepository, ConversationRow, ConversationWithContactRow,
} from '../../db/repositories/conversation.repository.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { MessageRepository, MessageRow } from '../../db/repositories/message.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import { invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import { actingId, type Actor } from '../accounts/actor.js';
import { updateUnderLock } from '../shared/changes.js';
import { normalizeTags } from '../tags/tags.js';
import { toConversation, toLinkedIssue, toMessage, type Conversation, type ConversationDetail, type Message } from './conversation.shapes.js';
import type { ConversationWrites } from './conversation.writes.js';
import { inTransaction } from '../shared/unit-of-work.js';

export type { Conversation, ConversationContact, ConversationDetail, LinkedIssue, Message } from './conversation.shapes.js';
import type { ConversationSource, ConversationStatus, ConversationType, Priority, SenderType } from '../shared/enums.js';

export const CONVERSATION_DEFAULTS = { type: 'ticket', source: 'chat', priority: 'normal' } as const;
export const MESSAGE_BODY_MAX = 50_000;

export interface ConversationListFilters extends ConversationFilters {
  types?: ConversationType[];
  statuses?: ConversationStatus[];
  priorities?: Priority[];
}

export interface ConversationUpdate {
  status?: ConversationStatus;
  priority?: Priority;
  tags?: string[];
}

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
function messageBody(body: string): string {
  if (body.trim() === '') throw invalidField('body', 'must not be empty');
  return body;
}

/** Names are trimmed; emails are lowercased, so one address is one contact. */
function contactInput(contact: NonNullable<ConversationImport['contact']>): { name: string | null; email: string | null } {
  const name = contact.name?.trim() ?? null;
  if (name === '') throw invalidField('contact.name', 'must not be empty');
  return { name, email: contact.email?.toLowerCase() ?? null };
}

export interface ConversationServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  conversations: ConversationRepository;
  contacts: ContactRepository;
  messages: MessageRepository;
  products: Pick<ProductRepository, 'findById'>;
  /** The one path every conversation and message write takes. */
  writes: ConversationWrites;
  clock: Clock;
}

export function createConversationService({ db, dialect, conversations, contacts, messages, products, writes, clock }: ConversationServiceDeps) {
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
    if (email !== null) return contacts.upsertByEmail({ ...row, email }, tx);
    await contacts.insert(row, tx);
    return { id: row.id, name, email, external_id: null };
  }

  return {
    /** Throws not_found unless the conversation exists in the actor's workspace. */
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await find(actor, id);
    },

    async get(actor: Actor, id: string): Promise<ConversationDetail> {
      const row = await find(actor, id);
      const [messageRows, issueRows] = await Promise.all([
        messages.listByConversation(actor.workspaceId, row.id),
        conversations.listLinkedIssues(actor.workspaceId, row.id),
      ]);
      return { ...toConversation(row), messages: messageRows.map(toMessage), linked_issues: issueRows.map(toLinkedIssue) };
    },

    async list(actor: Actor, filters: ConversationListFilters, page: Page): Promise<PageOf<Conversation>> {
      const { rows, total } = await conversations.list(actor.workspaceId, filters, page);
      return { rows: rows.map(toConversation), total };
    },

    /** Any status may be set from any status; updated_at moves only when something changes. */
    async update(actor: Actor, id: string, input: ConversationUpdate): Promise<Conversation> {
      const { id: conversationId } = await find(actor, id);
      const wanted: ConversationChanges = {
        status: input.status, priority: input.priority, tags: input.tags === undefined ? undefined : JSON.stringify(normalizeTags(input.tags)),
      };
      let updated: Conversation | null = null;
      const { current } = await updateUnderLock({ db, dialect, clock }, {
        lockKey: `conversation:${conversationId}`,
        read: (tx) => find(actor, conversationId, tx),
        wanted,
        write: async (work, current, changes) => {
          updated = await writes.update(work, current, changes);
        },
      });
      return updated ?? toConversation(current);
    },

    /** An agent's reply, sent as the key's member (or as the key itself when it has none). */
    async postMessage(actor: Actor, id: string, body: string): Promise<Message> {
      const conversation = await find(actor, id);
      const now = clock.now();
      const row: MessageRow = {
        id: newId(),
        workspace_id: actor.workspaceId,
        conversation_id: conversation.id,
        sender_type: 'agent',
        sender_id: actingId(actor),
        sender_name: actor.member?.display_name ?? null,
        body: messageBody(body),
        created_at: now,
      };
      return inTransaction(db, (work) => writes.addMessage(work, row));
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
        const row: ConversationRow = {
          id: newId(),
          workspace_id: actor.workspaceId,
          product_id: productId,
          contact_id: contact?.id ?? null,
          type: input.type ?? CONVERSATION_DEFAULTS.type,
          source: input.source ?? CONVERSATION_DEFAULTS.source,
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
          sender_id: contact?.id ?? actor.apiKeyId ?? actingId(actor), sender_name: contact?.name ?? null, body, created_at: now,
        };
        return writes.create(work, row, contact, firstMessage);
      });
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
