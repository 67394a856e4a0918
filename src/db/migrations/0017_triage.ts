// Triage (docs/triage.md): a product's `triage` setting, the suggestions a triage run makes for a
// conversation (link it to an open issue, or create one), and, on the provenance records of
// issues, which path reported the issue: a deduplicating create, a person accepting a suggestion,
// or the platform accepting one on its own (a product in `auto`).
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function triage({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // off | suggest | auto.
      await db.schema.alterTable('products').addColumn('triage', 'text', (c) => c.notNull().defaultTo('suggest')).execute();

      await db.schema
        .createTable('suggestions')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // The conversation's product, copied: the queue filters by it without a join (a conversation never changes product).
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        // link | create
        .addColumn('kind', 'text', (c) => c.notNull())
        // open | accepted | dismissed
        .addColumn('status', 'text', (c) => c.notNull())
        // The link target, or the issue an accepted create made.
        .addColumn('issue_id', uuid, (c) => c.references('issues.id').onDelete('set null'))
        // The draft of a create suggestion; null on a link suggestion.
        .addColumn('title', 'text')
        .addColumn('description', 'text')
        .addColumn('priority', 'text')
        .addColumn('score', 'double precision')
        // JSON `[{ "issue_id": …, "score": … }]`: the review band's candidates, best first.
        .addColumn('possible_duplicates', 'text', (c) => c.notNull())
        // The matcher that decided, recorded with the provenance on accept.
        .addColumn('detector', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      // A conversation's suggestions, oldest first.
      await db.schema.createIndex('suggestions_conversation').on('suggestions').columns(['conversation_id', 'created_at', 'id']).execute();
      // The triage queue, oldest first: by status, and by product and status (kind, two values, is filtered on these rows).
      await db.schema.createIndex('suggestions_queue').on('suggestions').columns(['workspace_id', 'status', 'created_at', 'id']).execute();
      await db.schema
        .createIndex('suggestions_queue_product')
        .on('suggestions')
        .columns(['workspace_id', 'product_id', 'status', 'created_at', 'id'])
        .execute();

      // maybe (POST /issues/maybe) | triage (a person accepted a suggestion) | triage_auto (the platform did).
      await db.schema.alterTable('issue_api_sources').addColumn('origin', 'text', (c) => c.notNull().defaultTo('maybe')).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('issue_api_sources').dropColumn('origin').execute();
      await db.schema.dropTable('suggestions').execute();
      await db.schema.alterTable('products').dropColumn('triage').execute();
    },
  };
}
