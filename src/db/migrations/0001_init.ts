// The v1 schema. Migrations use the portable schema builder and the dialect's column types;
// they never import the application's row types, which may move on.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function init(types: ColumnTypes) {
  const { uuid, timestamp } = types;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('members')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', uuid, (c) => c.references('users.id').onDelete('set null'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text')
        .addColumn('avatar_url', 'text')
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('members_workspace_created').on('members').columns(['workspace_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('member_id', uuid, (c) => c.references('members.id').onDelete('set null'))
        .addColumn('label', 'text')
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('revoked_at', timestamp)
        .addColumn('last_used_at', timestamp)
        .execute();
      await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['workspace_id', 'created_at']).execute();

      await db.schema
        .createTable('products')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('issue_prefix', 'text', (c) => c.notNull())
        .addColumn('widget_key', 'text', (c) => c.notNull().unique())
        .addColumn('product_key', 'text', (c) => c.notNull().unique())
        .addColumn('widget_config', 'text')
        .addColumn('domain', 'text')
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .addUniqueConstraint('products_workspace_slug', ['workspace_id', 'slug'])
        .addUniqueConstraint('products_workspace_prefix', ['workspace_id', 'issue_prefix'])
        .execute();
      await db.schema.createIndex('products_workspace_created').on('products').columns(['workspace_id', 'created_at', 'id']).execute();

      // Numbering is kept per (workspace, prefix), not per product: a prefix freed by one product
      // and taken by another continues the count, so a shortcode is never issued twice.
      await db.schema
        .createTable('issue_counters')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('last_number', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('issue_counters_pk', ['workspace_id', 'prefix'])
        .execute();

      await db.schema
        .createTable('issues')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('shortcode', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('assignee_id', uuid, (c) => c.references('members.id').onDelete('set null'))
        .addColumn('resolution_comment', 'text')
        .addColumn('is_ai_generated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .addUniqueConstraint('issues_workspace_shortcode', ['workspace_id', 'shortcode'])
        .execute();
      await db.schema.createIndex('issues_workspace_created').on('issues').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('issues_product_status').on('issues').columns(['product_id', 'status', 'created_at']).execute();
      await db.schema.createIndex('issues_workspace_status').on('issues').columns(['workspace_id', 'status', 'created_at']).execute();
      await db.schema.createIndex('issues_assignee').on('issues').columns(['assignee_id']).execute();

      await db.schema
        .createTable('contacts')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('email', 'text')
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .addUniqueConstraint('contacts_workspace_email', ['workspace_id', 'email'])
        .execute();

      await db.schema
        .createTable('conversations')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('contact_id', uuid, (c) => c.references('contacts.id').onDelete('set null'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('ai_summary', 'text')
        .addColumn('rating', 'double precision')
        .addColumn('upvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('conversations_workspace_created').on('conversations').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('conversations_product').on('conversations').columns(['product_id', 'created_at']).execute();

      await db.schema
        .createTable('messages')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        .addColumn('sender_type', 'text', (c) => c.notNull())
        .addColumn('sender_id', 'text', (c) => c.notNull())
        .addColumn('sender_name', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('messages_conversation_created').on('messages').columns(['conversation_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('issue_conversations')
        .addColumn('issue_id', uuid, (c) => c.notNull().references('issues.id').onDelete('cascade'))
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('issue_conversations_pk', ['issue_id', 'conversation_id'])
        .execute();
      await db.schema.createIndex('issue_conversations_conversation').on('issue_conversations').columns(['conversation_id']).execute();

      await db.schema
        .createTable('releases')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('version', 'text')
        .addColumn('released_at', timestamp)
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('releases_workspace_created').on('releases').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('releases_product').on('releases').columns(['product_id', 'created_at']).execute();

      await db.schema
        .createTable('release_issues')
        .addColumn('release_id', uuid, (c) => c.notNull().references('releases.id').onDelete('cascade'))
        .addColumn('issue_id', uuid, (c) => c.notNull().references('issues.id').onDelete('cascade'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('release_issues_pk', ['release_id', 'issue_id'])
        .execute();
      await db.schema.createIndex('release_issues_issue').on('release_issues').columns(['issue_id']).execute();

      await db.schema
        .createTable('issue_api_sources')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('issue_id', uuid, (c) => c.notNull().references('issues.id').onDelete('cascade'))
        .addColumn('api_key_id', uuid, (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('matched_existing', 'integer', (c) => c.notNull())
        .addColumn('score', 'double precision')
        .addColumn('detector', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('issue_api_sources_issue').on('issue_api_sources').columns(['issue_id']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const table of [
        'issue_api_sources', 'release_issues', 'releases', 'issue_conversations', 'messages',
        'conversations', 'contacts', 'issues', 'issue_counters', 'products', 'api_keys',
        'members', 'users', 'workspaces',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
