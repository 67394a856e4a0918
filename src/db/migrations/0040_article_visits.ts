// What each widget visitor session did with a help center article (docs/help-center.md, "In the
// widget"): one row per article and session, made by the session's first view (or its first vote),
// holding when it first viewed the article and its "Was this helpful?" answer (null: none). The
// article's `views`, `helpful` and `not_helpful` are the tallies of these rows, kept by the one
// write path in the same transaction. The rows also say which articles a session read before it
// started a conversation (self-service, §11's reports).
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function articleVisits({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('article_visits')
        .addColumn('article_id', uuid, (c) => c.notNull().references('articles.id').onDelete('cascade'))
        .addColumn('widget_session_id', uuid, (c) => c.notNull().references('widget_sessions.id').onDelete('cascade'))
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('viewed_at', timestamp)
        .addColumn('helpful', 'integer')
        .addColumn('voted_at', timestamp)
        .addPrimaryKeyConstraint('article_visits_pk', ['article_id', 'widget_session_id'])
        .execute();
      // A session's visits (what it read before it wrote), and a product's over time (reports).
      await db.schema.createIndex('article_visits_session').on('article_visits').columns(['widget_session_id', 'viewed_at']).execute();
      await db.schema.createIndex('article_visits_product').on('article_visits').columns(['workspace_id', 'product_id', 'viewed_at']).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('article_visits').execute();
    },
  };
}
