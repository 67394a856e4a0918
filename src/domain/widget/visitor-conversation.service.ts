// A visitor's conversations through the widget (docs/widget.md): a verified visitor sees every
// conversation of their contact in this product, an unverified one only those their session
// started; anything else is a 404, as if it did not exist. Writes take the one write path of
// conversations (conversation.writes.ts), so events and locks are the API's.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { AttachmentRow } from '../../db/repositories/attachment.repository.js';
import type { ContactRepository } from '../../db/repositories/contact.repository.js';
import type {
  ConversationChanges, ConversationRepository, ConversationRow, ConversationWithContactRow, NewConversationRow,
} from '../../db/repositories/conversation.repository.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { MessageRepository, MessageRow } from '../../db/repositories/message.repository.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import { updateUnderLock } from '../shared/changes.js';
import { conversationLock, type ConversationWrites } from '../conversations/conversation.writes.js';
import type { ConversationType } from '../shared/enums.js';
import { inTransaction, type Work } from '../shared/unit-of-work.js';
import {
  titleFromBody, toVisitorMessage, toVisitorSummary, type VisitorConversation, type VisitorConversationSummary, type VisitorMessage,
} from './visitor.shapes.js';
import type { Visitor } from './widget-session.service.js';

export interface VisitorConversationInput {
  type?: ConversationType;
  title?: string;
  body: string;
}

export interface VisitorConversationDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  conversations: ConversationRepository;
  messages: MessageRepository;
  contacts: Pick<ContactRepository, 'findById'>;
  writes: ConversationWrites;
  clock: Clock;
}

const sees = (visitor: Visitor, row: ConversationRow): boolean =>
  row.product_id === visitor.productId && (visitor.verified ? row.contact_id === visitor.contactId : row.widget_session_id === visitor.sessionId);

/** A message from the visitor, as their contact. */
export const visitorMessageRow = (visitor: Visitor, conversationId: string, body: string, now: string): MessageRow => ({
  id: newId(), workspace_id: visitor.workspaceId, conversation_id: conversationId, sender_type: 'contact',
  sender_id: visitor.contactId, sender_name: visitor.name, body, created_at: now, internal: 0,
});

export function createVisitorConversationService({ db, dialect, conversations, messages, contacts, writes, clock }: VisitorConversationDeps) {
  async function find(visitor: Visitor, id: string, tx: Executor = db): Promise<ConversationWithContactRow> {
    const conversationId = parseUuid(id);
    const row = conversationId ? await conversations.findById(visitor.workspaceId, conversationId, tx) : undefined;
    if (!row || !sees(visitor, row)) throw notFound('conversation');
    return row;
  }

  async function detail(visitor: Visitor, row: ConversationRow, tx: Executor = db): Promise<VisitorConversation> {
    const rows = await messages.listForContact(visitor.workspaceId, row.id, tx);
    return { ...toVisitorSummary(row), messages: rows.map(toVisitorMessage) };
  }

  return {
    /** Throws not_found unless the visitor may see the conversation. */
    async ensureVisible(visitor: Visitor, id: string): Promise<void> {
      await find(visitor, id);
    },

    async list(visitor: Visitor, page: Page): Promise<PageOf<VisitorConversationSummary>> {
      const scope = visitor.verified ? { contactId: visitor.contactId } : { sessionId: visitor.sessionId };
      const { rows, total } = await conversations.listForVisitor(visitor.workspaceId, visitor.productId, scope, page);
      return { rows: rows.map(toVisitorSummary), total };
    },

    async get(visitor: Visitor, id: string): Promise<VisitorConversation> {
      return detail(visitor, await find(visitor, id));
    },

    /** A chat (or ticket, idea, feedback) the visitor starts, with their first message; the title defaults to its first line. */
    async start(visitor: Visitor, input: VisitorConversationInput): Promise<VisitorConversation> {
      return inTransaction(db, async (work) => {
        const now = clock.now();
        const contact = await contacts.findById(visitor.workspaceId, visitor.contactId, work.tx);
        if (!contact) throw notFound('contact');
        const row: NewConversationRow = {
          id: newId(), workspace_id: visitor.workspaceId, product_id: visitor.productId, contact_id: contact.id,
          type: input.type ?? 'chat', source: 'chat', channel: 'chat', status: 'open', priority: 'normal', title: input.title ?? titleFromBody(input.body),
          ai_summary: null, rating: null, upvotes: 0, widget_session_id: visitor.sessionId, form_fields: null, tags: '[]', created_at: now, updated_at: now,
        };
        const created = await writes.create(work, row, contact, visitorMessageRow(visitor, row.id, input.body, now));
        return { ...toVisitorSummary(created), messages: created.messages.map(toVisitorMessage) };
      });
    },

    /**
     * The visitor's reply (with the files of a screenshot upload, stored already); a resolved
     * conversation opens again, as the visitor is still waiting for something.
     */
    async postMessage(visitor: Visitor, id: string, body: string, attachments: readonly Omit<AttachmentRow, 'message_id'>[] = []): Promise<VisitorMessage> {
      const { id: conversationId } = await find(visitor, id);
      return inTransaction(db, async (work: Work) => {
        const now = await writes.lock(work, conversationId);
        const current = await find(visitor, conversationId, work.tx);
        if (current.status === 'resolved') await writes.update(work, current, { status: 'open', updated_at: now });
        const row = visitorMessageRow(visitor, conversationId, body, now);
        return toVisitorMessage(await writes.addMessage(work, { row, attachments: attachments.map((file) => ({ ...file, message_id: row.id })) }));
      });
    },

    /** The visitor's rating, 1–5 (the schema's rule); updated_at moves only when it changes. */
    async rate(visitor: Visitor, id: string, rating: number): Promise<VisitorConversation> {
      const { id: conversationId } = await find(visitor, id);
      const { current, changes } = await updateUnderLock<ConversationWithContactRow, ConversationChanges>({ db, dialect, clock }, {
        lockKey: conversationLock(conversationId),
        read: (tx) => find(visitor, conversationId, tx),
        wanted: { rating },
        write: async (work, current, changes) => {
          await writes.update(work, current, changes);
        },
      });
      return detail(visitor, { ...current, ...changes });
    },
  };
}

export type VisitorConversationService = ReturnType<typeof createVisitorConversationService>;
