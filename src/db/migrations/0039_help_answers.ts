// Answers from the help center (docs/help-center.md, "Answers"):
// - `article_passages`: each article's text cut into passages of at most 400 characters, written
//   by the article write path in the article's transaction (so they never lag an edit), with the
//   vector of the embedding model that last embedded them (null until then). A vector belongs to
//   the passage's text as embedded (`text_hash`), so an edit keeps the vectors of the passages it
//   did not change. Deleting an article deletes its passages.
// - `help_events`: what visitors did with the help center, one row per event and visitor session
//   (a search, an answer shown, an article viewed), never what they typed: what the reports count
//   self-service from. `decided_at` is 30 minutes after the event: a conversation the visitor's
//   contact starts before it means the help center did not serve them.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';
import { articlePassages } from '../../domain/help-center/passages.js';

/** Passages of the articles written before this migration. */
async function backfillPassages(db: Kysely<any>): Promise<void> {
  const articles: { id: string; workspace_id: string; product_id: string; title: string; body_text: string }[] =
    await db.selectFrom('articles').select(['id', 'workspace_id', 'product_id', 'title', 'body_text']).execute();
  for (const article of articles) {
    const rows = articlePassages(article.title, article.body_text).map((passage, position) => ({
      article_id: article.id, position, workspace_id: article.workspace_id, product_id: article.product_id,
      text: passage.text, text_hash: passage.hash, model: null, dimension: null, vector: null,
    }));
    if (rows.length > 0) await db.insertInto('article_passages').values(rows).execute();
  }
}

export function helpAnswers({ uuid, timestamp, bytes }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('article_passages')
        .addColumn('article_id', uuid, (c) => c.notNull().references('articles.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('text_hash', 'text', (c) => c.notNull())
        .addColumn('model', 'text')
        .addColumn('dimension', 'integer')
        .addColumn('vector', bytes)
        .addPrimaryKeyConstraint('article_passages_pkey', ['article_id', 'position'])
        .execute();
      // What an answer reads: a product's passages.
      await db.schema.createIndex('article_passages_product').on('article_passages').columns(['product_id', 'article_id', 'position']).execute();
      await backfillPassages(db);

      await db.schema
        .createTable('help_events')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        // Null: no visitor session (a search without one), or the session is gone (expired, erased).
        .addColumn('session_id', uuid, (c) => c.references('widget_sessions.id').onDelete('set null'))
        .addColumn('contact_id', uuid, (c) => c.references('contacts.id').onDelete('set null'))
        .addColumn('article_id', uuid, (c) => c.references('articles.id').onDelete('set null'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('decided_at', timestamp, (c) => c.notNull())
        .execute();
      // The reports' window: a product's (or the workspace's) events by time.
      await db.schema.createIndex('help_events_product_time').on('help_events').columns(['product_id', 'created_at']).execute();
      await db.schema.createIndex('help_events_workspace_time').on('help_events').columns(['workspace_id', 'created_at']).execute();
      await db.schema.createIndex('help_events_session').on('help_events').column('session_id').execute();
      // (Whether a contact started a conversation in the 30 minutes after an event reads conversations_contact of 0008.)
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('help_events').execute();
      await db.schema.dropTable('article_passages').execute();
    },
  };
}
