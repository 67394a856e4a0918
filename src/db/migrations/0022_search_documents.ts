// Full-text search indexes one document per result (docs/search.md) instead of one per row:
// an issue (title, description), a contact (name, email), and a conversation: its title and the
// text of all its messages (notes included), in the order they were written. A broad query then
// scores and counts each result once, with no grouping of a conversation's messages. Every
// write to a message re-indexes its conversation's document (its cost grows with the
// conversation); triggers keep the documents in step, as before, so that no write path (an
// erasure's bulk update, a cascade delete, `loopdesk copy`) can leave the index behind.
// - SQLite: the FTS5 table `search_index` keeps its own copy of each document's text (snippet()
//   reads it, and replacing a document needs its old words); `search_documents` maps each
//   document to FTS5's rowid, its result, workspace and product.
// - PostgreSQL: `search_documents` holds each document's tsvector (GIN-indexed) with its result,
//   workspace and product: narrow rows, read instead of the four tables' generated columns.
// The documents of the rows written before this migration are built from the rows.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { search as perRowSearch } from './0020_search.js';

/** SQL over one row, its columns named through `row` (`new.`, `old.`, `s.`). */
type RowSql = (row: string) => string;

/** A conversation's messages, oldest first, one per line: SQL for each database. */
const SQLITE_CONVERSATION_TEXT = (conversationId: string) =>
  `coalesce((select group_concat(m.body, char(10) order by m.created_at, m.id) from messages m where m.conversation_id = ${conversationId}), '')`;
const POSTGRES_CONVERSATION_TEXT = (conversationId: string) => `search_conversation_text(${conversationId})`;

/**
 * Each kind of document: its table, title-like text (ranked higher), body text, the columns whose
 * change re-indexes it, and the product it is filtered by (a contact has none).
 */
const sourcesFor = (conversationText: (conversationId: string) => string) => [
  {
    table: 'issues', type: 'issue', title: (r: string) => `${r}title`, body: (r: string) => `coalesce(${r}description, '')`,
    watched: ['title', 'description'], product: (r: string) => `${r}product_id`,
  },
  {
    table: 'conversations', type: 'conversation', title: (r: string) => `${r}title`, body: (r: string) => conversationText(`${r}id`),
    watched: ['title'], product: (r: string) => `${r}product_id`,
  },
  {
    table: 'contacts', type: 'contact', title: (r: string) => `coalesce(${r}name, '')`, body: (r: string) => `coalesce(${r}email, '')`,
    watched: ['name', 'email'], product: () => 'null',
  },
] satisfies { table: string; type: string; title: RowSql; body: RowSql; watched: string[]; product: RowSql }[];

async function sqliteUp(db: Kysely<any>): Promise<void> {
  await perRowSearch('sqlite').down(db);
  await sql`create table search_documents (
    doc_id integer primary key,
    workspace_id text not null,
    type text not null,
    result_id text not null unique,
    product_id text
  )`.execute(db);
  await sql`create virtual table search_index using fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  await sql`insert into search_index (search_index, rank) values ('secure-delete', 1)`.execute(db);
  const docOf = (resultId: string) => `(select doc_id from search_documents where result_id = ${resultId})`;

  for (const { table, type, title, body, watched, product } of sourcesFor(SQLITE_CONVERSATION_TEXT)) {
    const changed = watched.map((column) => `old.${column} is not new.${column}`).join(' or ');
    await sql.raw(`create trigger ${table}_search_insert after insert on ${table} begin
      insert into search_documents (workspace_id, type, result_id, product_id) values (new.workspace_id, '${type}', new.id, ${product('new.')});
      insert into search_index (rowid, title, body) values (${docOf('new.id')}, ${title('new.')}, ${body('new.')});
    end`).execute(db);
    await sql.raw(`create trigger ${table}_search_update after update of ${watched.join(', ')} on ${table} when ${changed} begin
      update search_index set title = ${title('new.')}, body = ${body('new.')} where rowid = ${docOf('new.id')};
    end`).execute(db);
    await sql.raw(`create trigger ${table}_search_delete after delete on ${table} begin
      delete from search_index where rowid = ${docOf('old.id')};
      delete from search_documents where result_id = old.id;
    end`).execute(db);
    await sql.raw(`insert into search_documents (workspace_id, type, result_id, product_id) select s.workspace_id, '${type}', s.id, ${product('s.')} from ${table} s`).execute(db);
    await sql.raw(`insert into search_index (rowid, title, body)
      select d.doc_id, ${title('s.')}, ${body('s.')} from ${table} s join search_documents d on d.result_id = s.id`).execute(db);
  }
  // A message's insert, edit or delete rewrites its conversation's text (a conversation's delete removes its document, whichever runs first).
  const reindex = (row: string) =>
    `update search_index set body = ${SQLITE_CONVERSATION_TEXT(`${row}conversation_id`)} where rowid = ${docOf(`${row}conversation_id`)};`;
  await sql.raw(`create trigger messages_search_insert after insert on messages begin ${reindex('new.')} end`).execute(db);
  await sql.raw(`create trigger messages_search_update after update of body on messages when old.body is not new.body begin ${reindex('new.')} end`).execute(db);
  await sql.raw(`create trigger messages_search_delete after delete on messages begin ${reindex('old.')} end`).execute(db);
}

async function sqliteDown(db: Kysely<any>): Promise<void> {
  for (const table of ['issues', 'conversations', 'contacts', 'messages']) {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger ${table}_search_${event}`).execute(db);
  }
  await sql`drop table search_index`.execute(db);
  await sql`drop table search_documents`.execute(db);
  await perRowSearch('sqlite').up(db);
}

/** A text's words as PostgreSQL indexes them: ASCII punctuation made a space, as SQLite's tokenizer splits there. */
const tsvector = (expression: string, weight: 'A' | 'D') =>
  `setweight(to_tsvector('loopdesk_search', regexp_replace((${expression}) collate "C", '[[:punct:]]', ' ', 'g')), '${weight}')`;

async function postgresUp(db: Kysely<any>): Promise<void> {
  for (const table of ['issues', 'conversations', 'messages', 'contacts']) await sql.raw(`alter table ${table} drop column search_vector`).execute(db);
  await sql`create function search_conversation_text(conversation uuid) returns text language sql stable as $$
    select coalesce(string_agg(body, E'\n' order by created_at, id), '') from messages where conversation_id = conversation
  $$`.execute(db);
  await sql`create table search_documents (
    result_id uuid primary key,
    workspace_id uuid not null,
    type text not null,
    product_id uuid,
    search_vector tsvector not null
  )`.execute(db);

  const sources = sourcesFor(POSTGRES_CONVERSATION_TEXT);
  const vectorOf = ({ title, body }: (typeof sources)[number], r: string) => `${tsvector(title(r), 'A')} || ${tsvector(body(r), 'D')}`;
  for (const source of sources) {
    const { table, type, watched, product } = source;
    const vector = (r: string) => vectorOf(source, r);
    const changed = watched.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
    await sql.raw(`create function ${table}_search() returns trigger language plpgsql as $$ begin
      if tg_op = 'DELETE' then
        delete from search_documents where result_id = old.id;
      elsif tg_op = 'INSERT' then
        insert into search_documents (result_id, workspace_id, type, product_id, search_vector)
          values (new.id, new.workspace_id, '${type}', ${product('new.')}, ${vector('new.')});
      elsif ${changed} then
        update search_documents set search_vector = ${vector('new.')} where result_id = new.id;
      end if;
      return null;
    end $$`).execute(db);
    await sql.raw(`create trigger ${table}_search after insert or delete or update of ${watched.join(', ')} on ${table}
      for each row execute function ${table}_search()`).execute(db);
    await sql.raw(`insert into search_documents (result_id, workspace_id, type, product_id, search_vector)
      select s.id, s.workspace_id, '${type}', ${product('s.')}, ${vector('s.')} from ${table} s`).execute(db);
  }
  const conversations = sources.find((source) => source.table === 'conversations')!;
  await sql.raw(`create function messages_search() returns trigger language plpgsql as $$ begin
      if tg_op = 'UPDATE' and old.body is not distinct from new.body then return null; end if;
      update search_documents d set search_vector = ${vectorOf(conversations, 'c.')}
        from conversations c where c.id = (case tg_op when 'DELETE' then old.conversation_id else new.conversation_id end) and d.result_id = c.id;
      return null;
    end $$`).execute(db);
  await sql`create trigger messages_search after insert or delete or update of body on messages for each row execute function messages_search()`.execute(db);
  // Built after the rows are in: one pass instead of an index update per row.
  await sql`create index search_documents_vector on search_documents using gin (search_vector)`.execute(db);
  // The planner's statistics of the new table now, not at autovacuum's next visit.
  await sql`analyze search_documents`.execute(db);
}

async function postgresDown(db: Kysely<any>): Promise<void> {
  for (const table of ['issues', 'conversations', 'messages', 'contacts']) {
    await sql.raw(`drop trigger ${table}_search on ${table}`).execute(db);
    await sql.raw(`drop function ${table}_search()`).execute(db);
  }
  await sql`drop table search_documents`.execute(db);
  await sql`drop function search_conversation_text(uuid)`.execute(db);
  // 0020's columns and indexes again (its configuration is still there).
  await sql`drop text search configuration loopdesk_search`.execute(db);
  await perRowSearch('postgres').up(db);
}

export function searchDocuments(dialect: DialectName) {
  return dialect === 'sqlite' ? { up: sqliteUp, down: sqliteDown } : { up: postgresUp, down: postgresDown };
}
