// Fair assignment (docs/automation.md, "Assignment"): each member's availability (`online` |
// `away`), each product's assignment settings (JSON text as the API shows them) and the member
// its round robin gave the last conversation to, and the conversations waiting for a free member
// (oldest first per product). Open conversations are counted per product and assignee.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export const DEFAULT_ASSIGNMENT_TEXT = '{"mode":"off","capacity":null,"member_ids":[]}';

export function assignment({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('members').addColumn('availability', 'text', (c) => c.notNull().defaultTo('online')).execute();
      await db.schema.alterTable('products').addColumn('assignment', 'text', (c) => c.notNull().defaultTo(DEFAULT_ASSIGNMENT_TEXT)).execute();
      // No foreign key: a removed member is skipped by the next turn (the list is read under the product's lock).
      await db.schema.alterTable('products').addColumn('assignment_cursor', 'text').execute();
      await db.schema
        .createTable('assignment_waits')
        .addColumn('conversation_id', uuid, (c) => c.primaryKey().references('conversations.id').onDelete('cascade'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('assignment_waits_product').on('assignment_waits').columns(['product_id', 'created_at', 'conversation_id']).execute();
      await db.schema.createIndex('conversations_product_assignee').on('conversations').columns(['product_id', 'assignee_id', 'status']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('conversations_product_assignee').ifExists().execute();
      await db.schema.dropTable('assignment_waits').ifExists().execute();
      await db.schema.alterTable('products').dropColumn('assignment_cursor').execute();
      await db.schema.alterTable('products').dropColumn('assignment').execute();
      await db.schema.alterTable('members').dropColumn('availability').execute();
    },
  };
}
