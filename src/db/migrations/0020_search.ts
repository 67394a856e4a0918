// Full-text search (docs/search.md): the words of issues (title, description), conversations
// (title), messages (body, notes included) and contacts (name, email), kept in step with every
// write by the database itself, so that no write path (an erasure's bulk update included) can
// leave the index behind.
// - SQLite: an FTS5 index (`unicode61 remove_diacritics 2`: case and accents folded) over a view of
//   the rows' texts, fed by triggers on the four tables; `search_documents` maps each indexed row
//   to an integer key (FTS5's rowid), the result it belongs to and what filters it. The index's
//   `secure-delete` option removes a row's words from the index itself when the row changes,
//   instead of leaving them in old segments behind a delete marker.
// - PostgreSQL: a stored generated `search_vector` column on each table with a GIN index, in a
//   text search configuration that copies `simple` (no stemming, no stop words: every language
//   alike) and unaccents words first.
// Both split words at ASCII punctuation, so `ada@example.com` is the words ada, example and com.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/** SQL over one row, its columns named through `row` (`new.`, `old.`, `s.` or nothing). */
type RowSql = (row: string) => string;

/**
 * What each table gives the index: title-like text (ranked higher) and body text (null: none), the
 * columns whose change reindexes the row, the result a row belongs to and the product it is filtered by.
 */
const SOURCES: { table: string; kind: string; title: RowSql | null; body: RowSql | null; watched: string[]; result: RowSql; product: RowSql }[] = [
  {
    table: 'issues', kind: 'issue', title: (r) => `${r}title`, body: (r) => `coalesce(${r}description, '')`,
    watched: ['title', 'description'], result: (r) => `${r}id`, product: (r) => `${r}product_id`,
  },
  {
    table: 'conversations', kind: 'conversation', title: (r) => `${r}title`, body: null,
    watched: ['title'], result: (r) => `${r}id`, product: (r) => `${r}product_id`,
  },
  {
    table: 'messages', kind: 'message', title: null, body: (r) => `${r}body`, watched: ['body'],
    result: (r) => `${r}conversation_id`, product: (r) => `(select c.product_id from conversations c where c.id = ${r}conversation_id)`,
  },
  {
    table: 'contacts', kind: 'contact', title: (r) => `coalesce(${r}name, '')`, body: (r) => `coalesce(${r}email, '')`,
    watched: ['name', 'email'], result: (r) => `${r}id`, product: () => 'null',
  },
];

/** A row's text for FTS5, which takes every column of every row: '' where the table has none. */
const textOf = (part: RowSql | null, row: string) => (part ? part(row) : `''`);

async function sqliteUp(db: Kysely<any>): Promise<void> {
  await sql`create table search_documents (
    doc_id integer primary key,
    workspace_id text not null,
    kind text not null,
    source_id text not null unique,
    result_id text not null,
    product_id text
  )`.execute(db);
  const texts = SOURCES.map(({ table, kind, title, body }) =>
    `select d.doc_id, ${textOf(title, 's.')}, ${textOf(body, 's.')} from search_documents d join ${table} s on s.id = d.source_id where d.kind = '${kind}'`);
  await sql.raw(`create view search_texts (doc_id, title, body) as ${texts.join(' union all ')}`).execute(db);
  await sql`create virtual table search_index using fts5(
    title, body, content = 'search_texts', content_rowid = 'doc_id', tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`insert into search_index (search_index, rank) values ('secure-delete', 1)`.execute(db);

  for (const { table, kind, title, body, watched, result, product } of SOURCES) {
    const docOf = (row: string) => `(select doc_id from search_documents where source_id = ${row}id)`;
    const forget = `insert into search_index (search_index, rowid, title, body) values ('delete', ${docOf('old.')}, ${textOf(title, 'old.')}, ${textOf(body, 'old.')});`;
    const remember = `insert into search_index (rowid, title, body) values (${docOf('new.')}, ${textOf(title, 'new.')}, ${textOf(body, 'new.')});`;
    const document = (r: string) => `${r}workspace_id, '${kind}', ${r}id, ${result(r)}, ${product(r)}`;
    const changed = watched.map((column) => `old.${column} is not new.${column}`).join(' or ');
    await sql.raw(`create trigger ${table}_search_insert after insert on ${table} begin
      insert into search_documents (workspace_id, kind, source_id, result_id, product_id) values (${document('new.')});
      ${remember}
    end`).execute(db);
    await sql.raw(`create trigger ${table}_search_update after update of ${watched.join(', ')} on ${table} when ${changed} begin
      ${forget}
      ${remember}
    end`).execute(db);
    await sql.raw(`create trigger ${table}_search_delete after delete on ${table} begin
      ${forget}
      delete from search_documents where source_id = old.id;
    end`).execute(db);
    // The rows written before this migration.
    await sql.raw(`insert into search_documents (workspace_id, kind, source_id, result_id, product_id)
      select ${document('s.')} from ${table} s`).execute(db);
  }
  await sql`insert into search_index (search_index) values ('rebuild')`.execute(db);
}

async function sqliteDown(db: Kysely<any>): Promise<void> {
  for (const { table } of SOURCES) {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger ${table}_search_${event}`).execute(db);
  }
  await sql`drop table search_index`.execute(db);
  await sql`drop view search_texts`.execute(db);
  await sql`drop table search_documents`.execute(db);
}

/** A text's words as PostgreSQL indexes them: ASCII punctuation made a space, as SQLite's tokenizer splits there. */
export const tsvector = (expression: string, weight: 'A' | 'D') =>
  `setweight(to_tsvector('loopdesk_search', regexp_replace((${expression}) collate "C", '[[:punct:]]', ' ', 'g')), '${weight}')`;

async function postgresUp(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  await sql`create text search configuration loopdesk_search (copy = simple)`.execute(db);
  // Words with letters outside ASCII are unaccented before `simple` lowercases them.
  await sql`alter text search configuration loopdesk_search
    alter mapping for word, numword, hword, numhword, hword_part, hword_numpart with unaccent, simple`.execute(db);
  for (const { table, title, body } of SOURCES) {
    const parts = [title && tsvector(title(''), 'A'), body && tsvector(body(''), 'D')].filter((part) => part !== null);
    await sql.raw(`alter table ${table} add column search_vector tsvector generated always as (${parts.join(' || ')}) stored`).execute(db);
    await sql.raw(`create index ${table}_search on ${table} using gin (search_vector)`).execute(db);
  }
}

async function postgresDown(db: Kysely<any>): Promise<void> {
  for (const { table } of SOURCES) await sql.raw(`alter table ${table} drop column search_vector`).execute(db);
  await sql`drop text search configuration loopdesk_search`.execute(db);
}

export function search(dialect: DialectName) {
  return dialect === 'sqlite' ? { up: sqliteUp, down: sqliteDown } : { up: postgresUp, down: postgresDown };
}
