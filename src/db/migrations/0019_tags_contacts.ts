// Tags on issues and conversations, and what the contacts' list needs (docs/tags.md, docs/privacy.md).
// A record's tags are kept twice: in its own `tags` column (JSON, in the order given, as the API
// shows them) and as rows of `record_tags` (one per record and tag, by the tag's lowercase key),
// which the `tag` filter reads through its primary key. `tags` holds the workspace's tags with their
// counts, kept by the same writes, so GET /tags reads one row per tag.
// Contacts gain lowercase keys of their name and email, compared byte by byte in both databases,
// so a prefix filter is an index range; and `last_seen_at`, when the contact last wrote.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function tagsContacts({ uuid, timestamp, clusteredByKey, byteOrderedText }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const table of ['issues', 'conversations']) {
        await db.schema.alterTable(table).addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      }

      await db.schema
        .createTable('record_tags')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // issue | conversation
        .addColumn('record_type', 'text', (c) => c.notNull())
        .addColumn('tag_key', 'text', (c) => c.notNull())
        .addColumn('record_id', uuid, (c) => c.notNull())
        .addPrimaryKeyConstraint('record_tags_pk', ['workspace_id', 'record_type', 'tag_key', 'record_id'])
        .modifyEnd(clusteredByKey)
        .execute();

      await db.schema
        .createTable('tags')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('tag_key', byteOrderedText, (c) => c.notNull())
        // The spelling of its first use (while the tag is in use).
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('conversations', 'integer', (c) => c.notNull())
        .addColumn('issues', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('tags_pk', ['workspace_id', 'tag_key'])
        .modifyEnd(clusteredByKey)
        .execute();

      await db.schema.alterTable('contacts').addColumn('name_key', byteOrderedText).execute();
      await db.schema.alterTable('contacts').addColumn('email_key', byteOrderedText).execute();
      await db.schema.alterTable('contacts').addColumn('last_seen_at', timestamp).execute();
      // Keys are lowercased by JavaScript, as the application writes them (SQLite's lower() is ASCII only).
      const contacts = await db.selectFrom('contacts').select(['id', 'name', 'email']).execute();
      for (const { id, name, email } of contacts) {
        await db.updateTable('contacts')
          .set({ name_key: name === null ? null : name.toLowerCase(), email_key: email === null ? null : email.toLowerCase() })
          .where('id', '=', id)
          .execute();
      }
      await sql`update contacts set last_seen_at = (
        select max(m.created_at) from conversations c join messages m on m.conversation_id = c.id and m.sender_type = 'contact'
        where c.contact_id = contacts.id)`.execute(db);
      await db.schema.createIndex('contacts_workspace_created').on('contacts').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('contacts_name_key').on('contacts').columns(['workspace_id', 'name_key']).execute();
      await db.schema.createIndex('contacts_email_key').on('contacts').columns(['workspace_id', 'email_key']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const index of ['contacts_email_key', 'contacts_name_key', 'contacts_workspace_created']) await db.schema.dropIndex(index).execute();
      for (const column of ['last_seen_at', 'email_key', 'name_key']) await db.schema.alterTable('contacts').dropColumn(column).execute();
      await db.schema.dropTable('tags').execute();
      await db.schema.dropTable('record_tags').execute();
      for (const table of ['conversations', 'issues']) await db.schema.alterTable(table).dropColumn('tags').execute();
    },
  };
}
