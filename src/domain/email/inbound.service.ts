// Mail in (docs/email.md): one function for both ways in (the SMTP receiver and POST
// /api/v1/inbound/email). A new thread becomes an email conversation; a reply (its reply address,
// or In-Reply-To/References naming a message of the workspace) joins its conversation and reopens
// it; the same Message-ID is stored once; automatic mail, our own mail and senders over their
// hourly limit are ignored; a delivery report marks a reply failed only when it comes back to that
// reply's own return path (its token is unguessable), never for a Message-ID it names.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { AttachmentRow } from '../../db/repositories/attachment.repository.js';
import type { ContactRef, ContactRepository } from '../../db/repositories/contact.repository.js';
import type { ConversationRepository, ConversationWithContactRow } from '../../db/repositories/conversation.repository.js';
import type { EmailJobRepository } from '../../db/repositories/email-job.repository.js';
import type { MessageRepository, MessageRow } from '../../db/repositories/message.repository.js';
import type { ProductRepository, ProductRow } from '../../db/repositories/product.repository.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { oneLine } from '../../lib/one-line.js';
import type { AttachmentStore } from '../../storage/attachment-store.js';
import { invalidField } from '../../errors.js';
import type { Actor } from '../accounts/actor.js';
import { requireSettingsRole } from '../accounts/roles.js';
import { contactName } from '../contacts/contact-name.js';
import { MESSAGE_BODY_MAX } from '../conversations/conversation.service.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import { inTransaction, type Work } from '../shared/unit-of-work.js';
import { readInboundMail, type InboundFile, type InboundMail } from './inbound-mail.js';
import { addressToken, parseInboundAddress, RETURN_PATH_NAME } from './addresses.js';

/** Files over this are not kept (the message says which). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
const TITLE_MAX = 500;
const HOUR_MS = 3_600_000;

/** What became of a mail: the conversation and message it made or found; nulls when it was ignored. */
export interface InboundResult {
  conversation_id: string | null;
  message_id: string | null;
  /** A new conversation was made. */
  created: boolean;
}

const IGNORED: InboundResult = { conversation_id: null, message_id: null, created: false };

/** A product a mail is addressed to, and the reply token of the address when it has one. */
export interface InboundTarget {
  product: ProductRow;
  token: string | null;
  /** Set when the address is a reply's return path: the reply (its message id) a delivery report to it fails. */
  returnPathOf?: string;
}

export interface InboundServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction' | 'isUniqueViolation'>;
  products: Pick<ProductRepository, 'findById' | 'findByInboundName'>;
  contacts: Pick<ContactRepository, 'upsertByEmail'>;
  conversations: Pick<ConversationRepository, 'findById' | 'findByReplyToken' | 'countStartedBy'>;
  messages: Pick<MessageRepository, 'findByEmailMessageId'>;
  emailJobs: Pick<EmailJobRepository, 'markBounced' | 'findByReturnPathToken'>;
  writes: ConversationWrites;
  store: Pick<AttachmentStore, 'put'>;
  clock: Clock;
  /** LOOPDESK_INBOUND_DOMAIN; null: no address names a product (the HTTP way then needs product_id). */
  inboundDomain: string | null;
  /** The address replies are sent from (LOOPDESK_MAIL_FROM's): mail from it is our own. */
  ownAddress: string | null;
  /** New conversations one sender may start per hour; 0: no limit. */
  newConversationsPerSenderHour: number;
}

const firstLine = (text: string) => text.split('\n').map((line) => line.trim()).find(Boolean) ?? '';

export function createInboundService(deps: InboundServiceDeps) {
  const { db, dialect, products, contacts, conversations, messages, emailJobs, writes, store, clock, inboundDomain } = deps;

  /** The reply whose return path an address is, with its product; null for any other address. */
  async function returnPathTarget(token: string): Promise<InboundTarget | null> {
    const reply = await emailJobs.findByReturnPathToken(token);
    const product = reply && (await products.findById(reply.workspace_id, reply.product_id));
    return product ? { product, token: null, returnPathOf: reply.id } : null;
  }

  /** The products (and reply tokens) and replies' return paths the addresses name, the first address of each product winning. */
  async function targetsOf(addresses: readonly string[]): Promise<InboundTarget[]> {
    const targets = new Map<string, InboundTarget>();
    for (const address of addresses) {
      const parsed = inboundDomain ? parseInboundAddress(address, inboundDomain) : null;
      if (parsed?.name === RETURN_PATH_NAME) {
        const target = parsed.token ? await returnPathTarget(parsed.token) : null;
        if (target) targets.set(`return-path:${target.returnPathOf}`, target);
        continue;
      }
      const product = parsed && (await products.findByInboundName(parsed.name));
      if (product && !targets.has(product.id)) targets.set(product.id, { product, token: parsed.token });
    }
    return [...targets.values()];
  }

  /** Keeps the files (those within the limit) in the store; their records, and a line naming those left out. */
  async function keepFiles(files: readonly InboundFile[], workspaceId: string, contactId: string, now: string) {
    const kept: Omit<AttachmentRow, 'message_id'>[] = [];
    const left: string[] = [];
    for (const file of files) {
      if (file.content.length > ATTACHMENT_MAX_BYTES) {
        left.push(`${file.filename} (${(file.content.length / 1024 / 1024).toFixed(1)} MB)`);
        continue;
      }
      const sha256 = await store.put(file.content);
      kept.push({
        id: newId(), workspace_id: workspaceId, contact_id: contactId, sha256, filename: file.filename.slice(0, 255),
        content_type: file.contentType.slice(0, 255), size: file.content.length, created_at: now,
      });
    }
    return { kept, note: left.length ? `\n\n[Not kept, over the 10 MB limit: ${left.join(', ')}]` : '' };
  }

  /** The conversation a reply belongs to: its address's token, else the messages its headers name. */
  async function threadOf(work: Work, workspaceId: string, mail: InboundMail, token: string | null): Promise<ConversationWithContactRow | undefined> {
    const byToken = token ? await conversations.findByReplyToken(workspaceId, token, work.tx) : undefined;
    if (byToken) return byToken;
    const named = await messages.findByEmailMessageId(workspaceId, mail.threadIds, work.tx);
    return named ? conversations.findById(workspaceId, named.conversation_id, work.tx) : undefined;
  }

  async function storeMail(work: Work, { product, token }: InboundTarget, mail: InboundMail, sender: NonNullable<InboundMail['from']>): Promise<InboundResult> {
    const { tx } = work;
    const workspaceId = product.workspace_id;
    // Deliveries of one Message-ID (a retrying sender, both ways in at once) take turns.
    await dialect.lockKeyInTransaction(tx, `mail:${workspaceId}:${mail.messageId}`);
    const stored = await messages.findByEmailMessageId(workspaceId, [mail.messageId], tx);
    if (stored) return { conversation_id: stored.conversation_id, message_id: stored.id, created: false };

    const named = await threadOf(work, workspaceId, mail, token);
    // A reply stamps its time under its conversation's lock, and sees the conversation as the writes before it left it.
    const now = named ? await writes.lock(work, named.id) : clock.now();
    const thread = named && (await conversations.findById(workspaceId, named.id, tx));
    // The display name names a new contact only: anybody can write it, so it never renames one (a verified one least of all).
    const contact: ContactRef = await contacts.upsertByEmail(
      { id: newId(), workspace_id: workspaceId, name: contactName(sender.name), email: sender.address, created_at: now, updated_at: now }, 'keep', tx,
    );
    const limit = deps.newConversationsPerSenderHour;
    if (!thread && limit > 0) {
      const since = new Date(Date.parse(now) - HOUR_MS).toISOString();
      if ((await conversations.countStartedBy(workspaceId, contact.id, 'email', since, tx)) >= limit) return IGNORED;
    }

    const { kept, note } = await keepFiles(mail.files, workspaceId, contact.id, now);
    const conversationId = thread?.id ?? newId();
    const row: MessageRow = {
      id: newId(), workspace_id: workspaceId, conversation_id: conversationId, sender_type: 'contact', sender_id: contact.id,
      sender_name: contact.name, body: `${mail.visibleText || '(no text)'}${note}`.slice(0, MESSAGE_BODY_MAX),
      email_message_id: mail.messageId, full_body: mail.fullText, created_at: now, internal: 0,
    };
    const message = { row, attachments: kept.map((file) => ({ ...file, message_id: row.id })) };
    if (thread) {
      if (thread.status === 'resolved' || thread.status === 'dismissed') await writes.update(work, thread, { status: 'open', updated_at: now });
      await writes.addMessage(work, message);
      return { conversation_id: thread.id, message_id: row.id, created: false };
    }
    await writes.create(work, {
      id: conversationId, workspace_id: workspaceId, product_id: product.id, contact_id: contact.id, type: 'ticket', source: 'email', channel: 'email',
      status: 'open', priority: 'normal', title: (oneLine(mail.subject) || firstLine(mail.visibleText) || '(no subject)').slice(0, TITLE_MAX),
      ai_summary: null, rating: null, upvotes: 0, widget_session_id: null, form_fields: null, tags: '[]', reply_token: addressToken(), created_at: now, updated_at: now,
    }, contact, message);
    return { conversation_id: conversationId, message_id: row.id, created: true };
  }

  /** Applies the rules to a parsed mail for one product, or one reply's return path. */
  async function receive(target: InboundTarget, mail: InboundMail): Promise<InboundResult> {
    // A report fails the reply whose return path it came back to; one sent anywhere else names a
    // reply anybody who saw its Message-ID could name, so it is ignored, as is all other mail to a return path.
    if (mail.report || target.returnPathOf !== undefined) {
      if (mail.report && target.returnPathOf !== undefined) {
        await emailJobs.markBounced(target.product.workspace_id, target.returnPathOf, mail.report.reason, clock.now());
      }
      return IGNORED;
    }
    const sender = mail.from;
    if (!sender || mail.automatic || sender.address === deps.ownAddress || parseInboundAddress(sender.address, inboundDomain ?? '')) return IGNORED;
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(db, (work) => storeMail(work, target, mail, sender));
      } catch (error) {
        // Another delivery of the same Message-ID committed first (on SQLite the lock above is a
        // no-op, and the unique index has the last word): the next attempt finds it stored.
        if (!dialect.isUniqueViolation(error) || attempt === 3) throw error;
      }
    }
  }

  return {
    /** The product (and reply token) an address names, or the reply whose return path it is, for the SMTP receiver's RCPT TO; null: none. */
    async targetOf(address: string): Promise<InboundTarget | null> {
      return (await targetsOf([address]))[0] ?? null;
    },

    /** Mail the SMTP receiver accepted for these products (one result per product). */
    async receiveForTargets(raw: Buffer, targets: readonly InboundTarget[]): Promise<InboundResult[]> {
      const mail = await readInboundMail(raw, () => `${newId()}@loopdesk.invalid`);
      const results: InboundResult[] = [];
      for (const target of targets) results.push(await receive(target, mail));
      return results;
    },

    /**
     * POST /inbound/email (settings role): the product the recipients name in the actor's
     * workspace, else `productId` (a well-formed UUID, parsed by the route); neither: 400 on product_id.
     */
    async receiveHttp(actor: Actor, raw: Buffer, productId: string | undefined): Promise<InboundResult> {
      requireSettingsRole(actor, 'inbound mail');
      const mail = await readInboundMail(raw, () => `${newId()}@loopdesk.invalid`);
      const targets = (await targetsOf(mail.recipients)).filter((target) => target.product.workspace_id === actor.workspaceId);
      // A report is for the return path among the recipients, other mail for the product they name.
      const named = targets.find((target) => (target.returnPathOf !== undefined) === (mail.report !== null)) ?? targets[0];
      if (named) return receive(named, mail);
      const product = productId === undefined ? undefined : await products.findById(actor.workspaceId, productId);
      if (!product) {
        throw invalidField('product_id', productId === undefined
          ? 'is required when no recipient of the mail is a product\'s inbound address'
          : 'is not a product of this workspace');
      }
      return receive({ product, token: null }, mail);
    },
  };
}

export type InboundService = ReturnType<typeof createInboundService>;
