// Email (docs/email.md): each product's inbound name (the local part of its address), each email
// conversation's reply token (the `+token` of its reply address), the RFC 5322 Message-ID and the
// whole text of mail-borne messages, one delivery job per agent reply that goes out by mail, and
// the attachments, stored by content hash outside the database.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function email({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // Unique across workspaces: the address alone names the product. Products made before this
      // migration get `{slug}-{6 random characters}`, the form new ones get.
      await db.schema.alterTable('products').addColumn('inbound_name', 'text').execute();
      const products: { id: string; slug: string }[] = await db.selectFrom('products').select(['id', 'slug']).execute();
      for (const { id, slug } of products) {
        let suffix = '';
        for (let i = 0; i < 6; i++) suffix += LOWER_ALPHANUMERIC[randomInt(LOWER_ALPHANUMERIC.length)];
        await db.updateTable('products').set({ inbound_name: `${slug.slice(0, 40)}-${suffix}` }).where('id', '=', id).execute();
      }
      await db.schema.createIndex('products_inbound_name').unique().on('products').column('inbound_name').execute();

      // Set on conversations that came by mail: their replies are addressed `{inbound name}+{token}@…`.
      await db.schema.alterTable('conversations').addColumn('reply_token', 'text').execute();
      await db.schema.createIndex('conversations_reply_token').unique().on('conversations').column('reply_token').execute();

      // The Message-ID of a message that came or went by mail (threading, and the same mail stored once).
      await db.schema.alterTable('messages').addColumn('email_message_id', 'text').execute();
      // A mail's whole text, quoted history and signature included (`body` is what was left).
      await db.schema.alterTable('messages').addColumn('full_body', 'text').execute();
      // Message-ID first: an index led by workspace_id would tempt SQLite's planner (without
      // statistics) to walk a workspace's messages for queries that name a conversation.
      await db.schema.createIndex('messages_email_message_id').unique().on('messages').columns(['email_message_id', 'workspace_id']).execute();

      // One per agent reply in an email conversation, written with the message: the outbox of reply mail.
      await db.schema
        .createTable('email_jobs')
        .addColumn('id', uuid, (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // reply
        .addColumn('kind', 'text', (c) => c.notNull())
        // pending | done | failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', timestamp)
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('email_jobs_due').on('email_jobs').columns(['kind', 'status', 'next_attempt_at']).execute();

      await db.schema
        .createTable('attachments')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // The message it came with; null for a visitor's upload not yet sent with a message.
        .addColumn('message_id', uuid, (c) => c.references('messages.id').onDelete('cascade'))
        // The contact who sent it: erased with them.
        .addColumn('contact_id', uuid, (c) => c.references('contacts.id').onDelete('set null'))
        // SHA-256 of the bytes, hex: the key of the stored file, shared by identical files.
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('attachments_message').on('attachments').columns(['message_id']).execute();
      await db.schema.createIndex('attachments_contact').on('attachments').columns(['contact_id']).execute();
      await db.schema.createIndex('attachments_sha256').on('attachments').columns(['sha256']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('attachments').execute();
      await db.schema.dropTable('email_jobs').execute();
      await db.schema.dropIndex('messages_email_message_id').execute();
      await db.schema.alterTable('messages').dropColumn('full_body').execute();
      await db.schema.alterTable('messages').dropColumn('email_message_id').execute();
      await db.schema.dropIndex('conversations_reply_token').execute();
      await db.schema.alterTable('conversations').dropColumn('reply_token').execute();
      await db.schema.dropIndex('products_inbound_name').execute();
      await db.schema.alterTable('products').dropColumn('inbound_name').execute();
    },
  };
}
