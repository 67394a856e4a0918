// The widget API (docs/widget.md): visitor sessions, verified contacts found again by the host
// site's user id, the product's identity secret, proof-of-work solutions accepted once, upvotes
// of ideas, and the server's own secrets (the ALTCHA HMAC key), kept in the database so that
// every process of a PostgreSQL deployment signs and checks with the same key.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function widget(types: ColumnTypes) {
  const { uuid, timestamp } = types;
  return {
    async up(db: Kysely<any>): Promise<void> {
      // `ids_` + 40 base62; the HMAC key of identity tokens. Kept as is: verifying needs it.
      await db.schema.alterTable('products').addColumn('identity_secret', 'text').execute();

      // A verified contact: the host site's user id (`sub`) under the product whose secret vouched for it.
      await db.schema.alterTable('contacts').addColumn('identity_product_id', uuid, (c) => c.references('products.id').onDelete('set null')).execute();
      await db.schema.alterTable('contacts').addColumn('external_id', 'text').execute();
      await db.schema.createIndex('contacts_identity').unique().on('contacts').columns(['identity_product_id', 'external_id']).execute();

      await db.schema
        .createTable('widget_sessions')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('contact_id', uuid, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        // SHA-256 of the `wst_…` token; the token itself is never stored.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('verified', 'integer', (c) => c.notNull())
        // The name an unverified visitor typed (their messages carry it); null for verified sessions.
        .addColumn('name', 'text')
        .addColumn('created_at', timestamp, (c) => c.notNull())
        // The session is valid until 30 days after this.
        .addColumn('last_used_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('widget_sessions_product').on('widget_sessions').columns(['product_id', 'verified']).execute();

      // The session that started a conversation: what an unverified visitor may see.
      await db.schema.alterTable('conversations').addColumn('widget_session_id', uuid, (c) => c.references('widget_sessions.id').onDelete('set null')).execute();
      // A form's extra fields, as JSON text.
      await db.schema.alterTable('conversations').addColumn('form_fields', 'text').execute();
      await db.schema.createIndex('conversations_widget_session').on('conversations').columns(['widget_session_id']).execute();
      await db.schema.createIndex('conversations_contact').on('conversations').columns(['contact_id', 'product_id', 'created_at']).execute();

      await db.schema
        .createTable('idea_upvotes')
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        .addColumn('contact_id', uuid, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('idea_upvotes_pk', ['conversation_id', 'contact_id'])
        .execute();
      await db.schema.createIndex('idea_upvotes_contact').on('idea_upvotes').columns(['contact_id']).execute();

      // Each ALTCHA solution is accepted once: its challenge's signature, kept until the challenge expires.
      await db.schema
        .createTable('used_challenges')
        .addColumn('signature', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('used_challenges_expiry').on('used_challenges').columns(['expires_at']).execute();

      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const table of ['server_secrets', 'used_challenges', 'idea_upvotes']) await db.schema.dropTable(table).ifExists().execute();
      await db.schema.dropIndex('conversations_contact').ifExists().execute();
      await db.schema.dropIndex('conversations_widget_session').ifExists().execute();
      await db.schema.alterTable('conversations').dropColumn('form_fields').execute();
      await db.schema.alterTable('conversations').dropColumn('widget_session_id').execute();
      await db.schema.dropTable('widget_sessions').ifExists().execute();
      await db.schema.dropIndex('contacts_identity').ifExists().execute();
      await db.schema.alterTable('contacts').dropColumn('external_id').execute();
      await db.schema.alterTable('contacts').dropColumn('identity_product_id').execute();
      await db.schema.alterTable('products').dropColumn('identity_secret').execute();
    },
  };
}
