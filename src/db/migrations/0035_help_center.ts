// The help center (docs/help-center.md): collections and articles of a product, and what the public
// pages need of the product: its help slug (unique across the installation, like a widget key:
// the public URL alone names the product), whether its help center is on, and a version every
// write of its articles or collections moves, which keys the pages' cache.
// - An article keeps its Markdown as written (`body`) and the plain text of it (`body_text`),
//   derived by the one write path: the excerpt, the search index and, later, the passages answers
//   are cut from read the text, never the Markdown.
// - Views and votes are counters on the article (`views`, `helpful`, `not_helpful`).
// - Search: articles join the full-text index of migrations 0020/0023/0030 as `article`
//   documents (title and plain text), kept by triggers like every other source.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, DialectName } from '../dialect.js';
import { freeSlug } from '../../domain/products/product-naming.js';
import { foldedSql } from '../search-letters.js';
import { tsvector } from './0020_search.js';

/** Existing products' help slugs: their slug, `-2`, `-3`, … where an older product of another workspace holds it. */
async function backfillHelpSlugs(db: Kysely<any>): Promise<void> {
  const products: { id: string; slug: string }[] = await db.selectFrom('products').select(['id', 'slug']).orderBy('created_at').orderBy('id').execute();
  const taken = new Set<string>();
  for (const product of products) {
    const helpSlug = freeSlug(product.slug, taken);
    taken.add(helpSlug);
    await db.updateTable('products').set({ help_slug: helpSlug }).where('id', '=', product.id).execute();
  }
}

async function createTables(db: Kysely<any>, { uuid, timestamp }: ColumnTypes): Promise<void> {
  await db.schema.alterTable('products').addColumn('help_slug', 'text').execute();
  await db.schema.alterTable('products').addColumn('help_center', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('products').addColumn('help_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await backfillHelpSlugs(db);
  await db.schema.createIndex('products_help_slug').on('products').column('help_slug').unique().execute();

  await db.schema
    .createTable('help_collections')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('help_collections_slug').on('help_collections').columns(['product_id', 'slug']).unique().execute();
  // The list (all of a workspace's, or one product's), in position order.
  await db.schema.createIndex('help_collections_order').on('help_collections').columns(['workspace_id', 'position', 'created_at', 'id']).execute();
  await db.schema.createIndex('help_collections_product').on('help_collections').columns(['product_id', 'position', 'created_at', 'id']).execute();

  await db.schema
    .createTable('articles')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('collection_id', uuid, (c) => c.references('help_collections.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('translation_of', uuid, (c) => c.references('articles.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('helpful', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('not_helpful', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addColumn('published_at', timestamp)
    .execute();
  await db.schema.createIndex('articles_slug').on('articles').columns(['product_id', 'locale', 'slug']).unique().execute();
  // One article per locale in a translation group (the original's locale is checked by the write path).
  await db.schema.createIndex('articles_translation').on('articles').columns(['translation_of', 'locale']).unique().execute();
  // The lists, newest first: the workspace's, a product's, a collection's.
  await db.schema.createIndex('articles_order').on('articles').columns(['workspace_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('articles_product').on('articles').columns(['product_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('articles_collection').on('articles').columns(['collection_id', 'created_at', 'id']).execute();
  // The public pages: a product's published articles.
  await db.schema.createIndex('articles_public').on('articles').columns(['product_id', 'status', 'locale']).execute();
}

async function dropTables(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('articles').execute();
  await db.schema.dropTable('help_collections').execute();
  await db.schema.dropIndex('products_help_slug').execute();
  for (const column of ['help_version', 'help_center', 'help_slug']) await db.schema.alterTable('products').dropColumn(column).execute();
}

const docOf = (row: string) => `(select doc_id from search_documents where source_id = ${row}id)`;
const indexed = (row: string) => `${foldedSql(`${row}title`)}, ${foldedSql(`${row}body_text`)}`;
const ARTICLE_TEXTS = `select d.doc_id, s.title, s.body_text from search_documents d join articles s on s.id = d.source_id where d.kind = 'article'`;
const ARTICLE_TRIGGERS = ['articles_search_insert', 'articles_search_update', 'articles_search_delete'];

async function textsView(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'view' and name = 'search_texts'`.execute(db);
  return rows[0]!.sql;
}

async function sqliteUp(db: Kysely<any>): Promise<void> {
  const view = await textsView(db);
  await sql`drop view search_texts`.execute(db);
  await sql.raw(`${view}\n  union all ${ARTICLE_TEXTS}`).execute(db);
  const forget = `insert into search_index (search_index, rowid, title, body) values ('delete', ${docOf('old.')}, ${indexed('old.')});`;
  const remember = `insert into search_index (rowid, title, body) values (${docOf('new.')}, ${indexed('new.')});`;
  await sql.raw(`create trigger articles_search_insert after insert on articles begin
    insert into search_documents (workspace_id, kind, source_id, result_id, product_id) values (new.workspace_id, 'article', new.id, new.id, new.product_id);
    ${remember}
  end`).execute(db);
  await sql.raw(`create trigger articles_search_update after update of title, body_text on articles
    when old.title is not new.title or old.body_text is not new.body_text begin
    ${forget}
    ${remember}
  end`).execute(db);
  await sql.raw(`create trigger articles_search_delete after delete on articles begin
    ${forget}
    delete from search_documents where source_id = old.id;
  end`).execute(db);
}

async function sqliteDown(db: Kysely<any>): Promise<void> {
  // The index's words of the articles go with their rows (the delete trigger), then the triggers and the view's part.
  await sql`delete from articles`.execute(db);
  for (const trigger of ARTICLE_TRIGGERS) await sql.raw(`drop trigger ${trigger}`).execute(db);
  const view = await textsView(db);
  await sql`drop view search_texts`.execute(db);
  await sql.raw(view.replace(`\n  union all ${ARTICLE_TEXTS}`, '')).execute(db);
}

const articleVector = (row: string) => `${tsvector(`${row}title`, 'A')} || ${tsvector(`${row}body_text`, 'D')}`;

async function postgresUp(db: Kysely<any>): Promise<void> {
  await sql.raw(`create function articles_search() returns trigger language plpgsql as $$ begin
    if tg_op = 'DELETE' then
      delete from search_documents where result_id = old.id;
    elsif tg_op = 'INSERT' then
      insert into search_documents (result_id, workspace_id, type, product_id, search_vector)
        values (new.id, new.workspace_id, 'article', new.product_id, ${articleVector('new.')});
    elsif old.title is distinct from new.title or old.body_text is distinct from new.body_text then
      update search_documents set search_vector = ${articleVector('new.')} where result_id = new.id;
    end if;
    return null;
  end $$`).execute(db);
  await sql`create trigger articles_search after insert or delete or update of title, body_text on articles
    for each row execute function articles_search()`.execute(db);
}

async function postgresDown(db: Kysely<any>): Promise<void> {
  await sql`delete from search_documents where type = 'article'`.execute(db);
  await sql`drop trigger articles_search on articles`.execute(db);
  await sql`drop function articles_search()`.execute(db);
}

export function helpCenter(types: ColumnTypes, dialect: DialectName) {
  const index = dialect === 'sqlite' ? { up: sqliteUp, down: sqliteDown } : { up: postgresUp, down: postgresDown };
  return {
    async up(db: Kysely<any>): Promise<void> {
      await createTables(db, types);
      await index.up(db);
    },
    async down(db: Kysely<any>): Promise<void> {
      await index.down(db);
      await dropTables(db);
    },
  };
}
