// A conversation's messages are folded into its document (docs/search.md, "Folding"): once its
// conversation has been quiet a while, a message stops being indexed as a row of its own and its
// text joins the conversation's, so a broad query matches each quiet conversation once instead of
// once per message. A message written since the last fold is indexed on its own until the next;
// the fold (a conversation job, `search`) costs a conversation's text once per quiet spell, where
// re-indexing that text with every message would cost it with each one. Every existing message is
// folded here.
// - SQLite: a conversation's document is its title and, as body, the text of its messages that
//   have no document of their own (the view `search_texts` computes it); a message's document
//   goes when it is folded. A change to a folded message (an erasure) takes the conversation's
//   document out of the index before the change and puts it back after.
// - PostgreSQL: `messages.search_folded` marks a folded message, left out of the messages' GIN
//   index (a partial index). Issues, conversations and contacts move their words from a generated
//   column of their own to one narrow row each in `search_documents` (result, workspace, type,
//   product, words; GIN-indexed), kept by triggers: a broad query then reads narrow rows. A
//   conversation's words are its title's and those of its folded messages, re-indexed on a title's
//   change, a fold, and a folded message's change or delete.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { tsvector } from './0020_search.js';

/** The text of a conversation's folded messages, oldest first, one per line (SQLite). */
export const sqliteFoldedText = (conversationId: string) => `coalesce((select group_concat(m.body, char(10) order by m.created_at, m.id) from messages m
  where m.conversation_id = ${conversationId} and not exists (select 1 from search_documents md where md.source_id = m.id)), '')`;

/** The view every document's text is read from (FTS5's external content), as 0020 made it but for a conversation's body. */
export const sqliteTextsView = (conversationBody: (row: string) => string) => `create view search_texts (doc_id, title, body) as
  select d.doc_id, s.title, coalesce(s.description, '') from search_documents d join issues s on s.id = d.source_id where d.kind = 'issue'
  union all select d.doc_id, s.title, ${conversationBody('s.id')} from search_documents d join conversations s on s.id = d.source_id where d.kind = 'conversation'
  union all select d.doc_id, '', s.body from search_documents d join messages s on s.id = d.source_id where d.kind = 'message'
  union all select d.doc_id, coalesce(s.name, ''), coalesce(s.email, '') from search_documents d join contacts s on s.id = d.source_id where d.kind = 'contact'`;

const docOf = (sourceId: string) => `(select doc_id from search_documents where source_id = ${sourceId})`;
/** Takes a document out of the index (`forget`) or puts it in (`remember`), its text as the view reads it now. */
const forget = (docId: string) => `insert into search_index (search_index, rowid, title, body) select 'delete', doc_id, title, body from search_texts where doc_id = ${docId};`;
const remember = (docId: string) => `insert into search_index (rowid, title, body) select doc_id, title, body from search_texts where doc_id = ${docId};`;

const SQLITE_REPLACED_TRIGGERS = ['messages_search_update', 'messages_search_delete', 'conversations_search_update', 'conversations_search_delete'];
const SQLITE_TRIGGERS = [...SQLITE_REPLACED_TRIGGERS, 'messages_fold_update_before', 'messages_fold_update_after', 'messages_fold_delete_before', 'messages_fold_delete_after'];

async function sqliteUp(db: Kysely<any>): Promise<void> {
  for (const trigger of SQLITE_REPLACED_TRIGGERS) await sql.raw(`drop trigger ${trigger}`).execute(db);
  await sql`drop view search_texts`.execute(db);
  await sql.raw(sqliteTextsView(sqliteFoldedText)).execute(db);
  await sql`create index search_documents_result on search_documents (result_id, kind)`.execute(db);
  // A workspace's unfolded messages, and whether the index holds any other workspace's documents.
  await sql`create index search_documents_workspace on search_documents (workspace_id, kind)`.execute(db);

  const own = `exists (select 1 from search_documents where source_id = old.id)`;
  const folded = `not ${own} and exists (select 1 from search_documents where source_id = old.conversation_id)`;
  const changed = 'old.body is not new.body';
  // A message with a document of its own: as 0020 kept it.
  await sql.raw(`create trigger messages_search_update after update of body on messages when ${changed} and ${own} begin
    insert into search_index (search_index, rowid, title, body) values ('delete', ${docOf('old.id')}, '', old.body);
    ${remember(docOf('new.id'))}
  end`).execute(db);
  await sql.raw(`create trigger messages_search_delete after delete on messages when ${own} begin
    insert into search_index (search_index, rowid, title, body) values ('delete', ${docOf('old.id')}, '', old.body);
    delete from search_documents where source_id = old.id;
  end`).execute(db);
  // A folded message: its conversation's document out with the text before the change, in with the text after.
  const conversationDoc = docOf('old.conversation_id');
  await sql.raw(`create trigger messages_fold_update_before before update of body on messages when ${changed} and ${folded} begin ${forget(conversationDoc)} end`).execute(db);
  await sql.raw(`create trigger messages_fold_update_after after update of body on messages when ${changed} and ${folded} begin ${remember(conversationDoc)} end`).execute(db);
  await sql.raw(`create trigger messages_fold_delete_before before delete on messages when ${folded} begin ${forget(conversationDoc)} end`).execute(db);
  await sql.raw(`create trigger messages_fold_delete_after after delete on messages when ${folded} begin ${remember(conversationDoc)} end`).execute(db);
  // A conversation's title: its body (the folded messages) is what the view reads now; the title, the old one.
  await sql.raw(`create trigger conversations_search_update after update of title on conversations when old.title is not new.title begin
    insert into search_index (search_index, rowid, title, body) select 'delete', doc_id, old.title, body from search_texts where doc_id = ${docOf('old.id')};
    ${remember(docOf('new.id'))}
  end`).execute(db);
  // Before the row goes, while its folded messages still give the text the index holds.
  await sql.raw(`create trigger conversations_search_delete before delete on conversations begin
    ${forget(docOf('old.id'))}
    delete from search_documents where source_id = old.id;
  end`).execute(db);

  // Every message folded: their documents go, and the index is built again from the view.
  await sql`delete from search_documents where kind = 'message'`.execute(db);
  await sql`insert into search_index (search_index) values ('rebuild')`.execute(db);
}

async function sqliteDown(db: Kysely<any>): Promise<void> {
  for (const trigger of SQLITE_TRIGGERS) await sql.raw(`drop trigger ${trigger}`).execute(db);
  await sql`drop index search_documents_result`.execute(db);
  await sql`drop index search_documents_workspace`.execute(db);
  await sql`drop view search_texts`.execute(db);
  await sql.raw(sqliteTextsView(() => `''`)).execute(db);
  // 0020's triggers of messages and conversations, and a document for every message again.
  await sql.raw(`create trigger messages_search_update after update of body on messages when old.body is not new.body begin
    insert into search_index (search_index, rowid, title, body) values ('delete', ${docOf('old.id')}, '', old.body);
    insert into search_index (rowid, title, body) values (${docOf('new.id')}, '', new.body);
  end`).execute(db);
  await sql.raw(`create trigger messages_search_delete after delete on messages begin
    insert into search_index (search_index, rowid, title, body) values ('delete', ${docOf('old.id')}, '', old.body);
    delete from search_documents where source_id = old.id;
  end`).execute(db);
  await sql.raw(`create trigger conversations_search_update after update of title on conversations when old.title is not new.title begin
    insert into search_index (search_index, rowid, title, body) values ('delete', ${docOf('old.id')}, old.title, '');
    insert into search_index (rowid, title, body) values (${docOf('new.id')}, new.title, '');
  end`).execute(db);
  await sql.raw(`create trigger conversations_search_delete after delete on conversations begin
    insert into search_index (search_index, rowid, title, body) values ('delete', ${docOf('old.id')}, old.title, '');
    delete from search_documents where source_id = old.id;
  end`).execute(db);
  await sql`insert into search_documents (workspace_id, kind, source_id, result_id, product_id)
    select m.workspace_id, 'message', m.id, m.conversation_id, c.product_id from messages m join conversations c on c.id = m.conversation_id
    where not exists (select 1 from search_documents d where d.source_id = m.id)`.execute(db);
  await sql`insert into search_index (search_index) values ('rebuild')`.execute(db);
}

/**
 * Each table with a document of its own on PostgreSQL: its type, title-like text (weight A), body
 * text (weight D; a conversation's is its folded messages'), the columns whose change re-indexes
 * it, and its product (a contact has none).
 */
const POSTGRES_SOURCES = [
  { table: 'issues', type: 'issue', vector: (r: string) => `${tsvector(`${r}title`, 'A')} || ${tsvector(`coalesce(${r}description, '')`, 'D')}`, watched: ['title', 'description'], product: (r: string) => `${r}product_id` },
  { table: 'conversations', type: 'conversation', vector: (r: string) => `search_conversation_vector(${r}title, ${r}id)`, watched: ['title'], product: (r: string) => `${r}product_id` },
  { table: 'contacts', type: 'contact', vector: (r: string) => `${tsvector(`coalesce(${r}name, '')`, 'A')} || ${tsvector(`coalesce(${r}email, '')`, 'D')}`, watched: ['name', 'email'], product: () => 'null' },
];

async function postgresUp(db: Kysely<any>): Promise<void> {
  await sql`alter table messages add column search_folded boolean not null default false`.execute(db);
  await sql`drop index messages_search`.execute(db);
  await sql`update messages set search_folded = true`.execute(db);
  await sql`create index messages_search on messages using gin (search_vector) where not search_folded`.execute(db);
  await sql`create function search_conversation_text(conversation uuid) returns text language sql stable as $$
    select coalesce(string_agg(body, E'\n' order by created_at, id), '') from messages where conversation_id = conversation and search_folded
  $$`.execute(db);
  await sql.raw(`create function search_conversation_vector(title text, conversation uuid) returns tsvector language sql stable as $$
    select ${tsvector('title', 'A')} || ${tsvector('search_conversation_text(conversation)', 'D')}
  $$`).execute(db);
  // One narrow row per result, its words GIN-indexed: read instead of the tables' own columns.
  await sql`create table search_documents (
    result_id uuid primary key,
    workspace_id uuid not null,
    type text not null,
    product_id uuid,
    search_vector tsvector not null
  )`.execute(db);
  for (const { table, type, vector, watched, product } of POSTGRES_SOURCES) {
    await sql.raw(`alter table ${table} drop column search_vector`).execute(db);
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
  // A folded message's change or delete (an erasure) re-indexes its conversation's document.
  await sql`create function messages_fold_search() returns trigger language plpgsql as $$ begin
    update search_documents d set search_vector = search_conversation_vector(c.title, c.id) from conversations c
      where c.id = old.conversation_id and d.result_id = c.id;
    return null;
  end $$`.execute(db);
  await sql`create trigger messages_fold_update after update of body on messages for each row
    when (old.search_folded and old.body is distinct from new.body) execute function messages_fold_search()`.execute(db);
  await sql`create trigger messages_fold_delete after delete on messages for each row when (old.search_folded) execute function messages_fold_search()`.execute(db);
  // Built after the rows are in: one pass instead of an index update per row.
  await sql`create index search_documents_vector on search_documents using gin (search_vector)`.execute(db);
  await sql`analyze search_documents`.execute(db);
  await sql`analyze messages`.execute(db);
}

async function postgresDown(db: Kysely<any>): Promise<void> {
  await sql`drop trigger messages_fold_update on messages`.execute(db);
  await sql`drop trigger messages_fold_delete on messages`.execute(db);
  await sql`drop function messages_fold_search()`.execute(db);
  // 0020's generated columns and their indexes again.
  const columns: Record<string, string> = {
    issues: `${tsvector('title', 'A')} || ${tsvector(`coalesce(description, '')`, 'D')}`,
    conversations: tsvector('title', 'A'),
    contacts: `${tsvector(`coalesce(name, '')`, 'A')} || ${tsvector(`coalesce(email, '')`, 'D')}`,
  };
  for (const { table } of POSTGRES_SOURCES) {
    await sql.raw(`drop trigger ${table}_search on ${table}`).execute(db);
    await sql.raw(`drop function ${table}_search()`).execute(db);
    await sql.raw(`alter table ${table} add column search_vector tsvector generated always as (${columns[table]}) stored`).execute(db);
    await sql.raw(`create index ${table}_search on ${table} using gin (search_vector)`).execute(db);
  }
  await sql`drop table search_documents`.execute(db);
  await sql`drop function search_conversation_vector(text, uuid)`.execute(db);
  await sql`drop function search_conversation_text(uuid)`.execute(db);
  await sql`drop index messages_search`.execute(db);
  await sql`alter table messages drop column search_folded`.execute(db);
  await sql`create index messages_search on messages using gin (search_vector)`.execute(db);
}

export function searchFolds(dialect: DialectName) {
  return dialect === 'sqlite' ? { up: sqliteUp, down: sqliteDown } : { up: postgresUp, down: postgresDown };
}
