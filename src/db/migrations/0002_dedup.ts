// Duplicate detection: one stored embedding per issue, and a per-product version counter that
// every write to a product's issues bumps, so each process knows when its in-memory vector
// cache for that product is out of date.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function dedup(types: ColumnTypes) {
  const { uuid, timestamp, bytes } = types;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('issue_embeddings')
        .addColumn('issue_id', uuid, (c) => c.primaryKey().references('issues.id').onDelete('cascade'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('dimension', 'integer', (c) => c.notNull())
        .addColumn('vector', bytes, (c) => c.notNull())
        .addColumn('text_hash', 'text', (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('issue_embeddings_product_model').on('issue_embeddings').columns(['product_id', 'model']).execute();

      await db.schema
        .createTable('dedup_versions')
        .addColumn('product_id', uuid, (c) => c.primaryKey().references('products.id').onDelete('cascade'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('dedup_versions').ifExists().execute();
      await db.schema.dropTable('issue_embeddings').ifExists().execute();
    },
  };
}
