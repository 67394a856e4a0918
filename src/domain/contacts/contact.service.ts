// Contacts (docs/privacy.md): the list and detail, corrections of name and email, the export of
// everything about a person that is not internal, and their erasure, in one transaction.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { AttachmentRepository } from '../../db/repositories/attachment.repository.js';
import type { ContactRepository } from '../../db/repositories/contact.repository.js';
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import type { ErasureRepository } from '../../db/repositories/erasure.repository.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import type { MessageRepository } from '../../db/repositories/message.repository.js';
import { invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { requireSettingsRole } from '../accounts/roles.js';
import type { AuditLog } from '../audit/audit-log.js';
import { toConversation, toMessage } from '../conversations/conversation.shapes.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import { inTransaction } from '../shared/unit-of-work.js';
import { contactName } from './contact-name.js';
import { toContactProfile, toConversationSummary, type ContactDetail, type ContactExport, type ContactProfile } from './contact.shapes.js';
import { eraseContact, type ContactErasureDeps } from './contact-erasure.js';

export interface ContactUpdate {
  name?: string | null;
  email?: string | null;
}

export interface ContactServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction' | 'isUniqueViolation' | 'purgeErased'>;
  contacts: ContactRepository;
  conversations: ConversationRepository;
  messages: MessageRepository;
  attachments: Pick<AttachmentRepository, 'listByConversation'>;
  erasure: ErasureRepository;
  writes: ConversationWrites;
  attachmentFiles: ContactErasureDeps['attachmentFiles'];
  audit: AuditLog;
  clock: Clock;
}

export function createContactService(deps: ContactServiceDeps) {
  const { db, dialect, contacts, conversations, messages, attachments, erasure, audit, clock } = deps;

  async function profileOf(actor: Actor, id: string): Promise<ContactProfile> {
    const contactId = parseUuid(id);
    const row = contactId ? await contacts.findProfile(actor.workspaceId, contactId) : undefined;
    if (!row) throw notFound('contact');
    return toContactProfile(row);
  }

  return {
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await profileOf(actor, id);
    },

    /** Newest first; `q` keeps those whose name or email starts with it (without case). */
    async list(actor: Actor, q: string | undefined, page: Page): Promise<PageOf<ContactProfile>> {
      const prefix = q?.trim().toLowerCase() || undefined;
      const { rows, total } = await contacts.list(actor.workspaceId, prefix, page);
      return { rows: rows.map(toContactProfile), total };
    },

    async get(actor: Actor, id: string): Promise<ContactDetail> {
      const profile = await profileOf(actor, id);
      const rows = await conversations.listOfContact(actor.workspaceId, profile.id);
      return { ...profile, conversations: rows.map(toConversationSummary) };
    },

    /**
     * Corrects the name or email. Names are made one line and trimmed (blank: null); emails are lowercased and stay
     * unique in the workspace (taken: a validation_error, as a taken slug is). Under the workspace's
     * contacts lock, which the widget's and imports' contact writes take too.
     */
    async update(actor: Actor, id: string, input: ContactUpdate): Promise<ContactDetail> {
      const { id: contactId } = await profileOf(actor, id);
      const name = input.name === undefined ? undefined : contactName(input.name);
      const email = input.email === undefined ? undefined : input.email?.toLowerCase() ?? null;
      await inTransaction(db, async ({ tx }) => {
        await dialect.lockKeyInTransaction(tx, `contacts:${actor.workspaceId}`);
        const current = (await contacts.findById(actor.workspaceId, contactId, tx))!;
        if (email) {
          const holder = await contacts.findByEmail(actor.workspaceId, email, tx);
          if (holder && holder.id !== contactId) throw invalidField('email', 'is already the email of another contact');
        }
        const changes = { ...(name !== undefined && name !== current.name ? { name } : {}), ...(email !== undefined && email !== current.email ? { email } : {}) };
        if (Object.keys(changes).length) await contacts.update(actor.workspaceId, contactId, { ...changes, updated_at: clock.now() }, tx);
      });
      return this.get(actor, contactId);
    },

    /** Everything about the person that is not internal (docs/privacy.md, "Export"). */
    async export(actor: Actor, id: string): Promise<ContactExport> {
      const contact = await profileOf(actor, id);
      const [rows, upvotes, sessions] = await Promise.all([
        conversations.listOfContact(actor.workspaceId, contact.id),
        erasure.upvotesOf(actor.workspaceId, contact.id),
        erasure.sessionsOf(actor.workspaceId, contact.id),
      ]);
      const messageRows = await messages.exportMessages(actor.workspaceId, rows.map((row) => row.id), contact.id);
      const conversationIds = [...new Set(messageRows.map((message) => message.conversation_id))];
      const attachmentRows = (await Promise.all(conversationIds.map((conversationId) => attachments.listByConversation(actor.workspaceId, conversationId)))).flat();
      const messagesIn = (conversationId: string) => messageRows.filter((message) => message.conversation_id === conversationId);
      const owned = new Set(rows.map((row) => row.id));
      await audit.record({ tx: db }, { actor, action: 'contact.exported', target_type: 'contact', target_id: contact.id });
      return {
        exported_at: clock.now(),
        contact,
        conversations: rows.map((row) => {
          const { contact: _contact, assignee_id: _assignee, tags: _tags, last_message: _lastMessage, ...conversation } = toConversation(row);
          return { ...conversation, messages: messagesIn(row.id).map((message) => toMessage(message, attachmentRows)) };
        }),
        // Only their own messages there: the conversation and the other person's words are not theirs.
        messages_elsewhere: messageRows.filter((message) => !owned.has(message.conversation_id))
          .map((message) => ({ ...toMessage(message, attachmentRows), conversation_id: message.conversation_id })),
        upvotes: upvotes.map(({ conversation_id, title, created_at }) => ({ conversation_id, title, created_at })),
        widget_sessions: sessions.map((session) => ({ ...session, verified: session.verified === 1 })),
      };
    },

    /** Erases the person (settings role), in one transaction; then makes the deleted bytes unreadable. */
    async erase(actor: Actor, id: string): Promise<void> {
      requireSettingsRole(actor, 'erasing a contact');
      const { id: contactId } = await profileOf(actor, id);
      await inTransaction(db, async (work) => {
        await eraseContact(deps, work, actor.workspaceId, contactId);
        await audit.record(work, { actor, action: 'contact.erased', target_type: 'contact', target_id: contactId });
      });
      await dialect.purgeErased(db);
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
