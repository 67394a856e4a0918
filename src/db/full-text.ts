// Full-text search over the index migrations 0020 and 0023 keep (docs/search.md), one
// implementation per database with the same signature (the dialect picks one, as it picks
// everything else that differs): SQLite's FTS5 with bm25 and snippet(), PostgreSQL's tsvector with
// ts_rank and ts_headline. Both rank a result by its best-matching row (a conversation by its
// document, its title and folded messages, or by a message written since its last fold) and answer
// the same shapes.
import { sql, type RawBuilder } from 'kysely';
import { foldedSql, foldLetters } from './search-letters.js';
import type { Executor } from './repositories/executor.js';

/** What a search finds, each type's records (the HTTP schema's enum is this list). */
export const SEARCH_TYPES = ['issue', 'conversation', 'contact', 'article'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface FullTextQuery {
  workspaceId: string;
  /** The query's words (letters, digits and marks only); every one must match, the last also as a prefix. */
  words: readonly string[];
  types: readonly SearchType[];
  productId?: string;
  /** An issue already placed first (an exact shortcode), left out of these results. */
  excludeIssueId?: string;
  limit: number;
  offset: number;
}

export interface FullTextHit {
  type: SearchType;
  id: string;
  /** An excerpt of the best-matching text, matches between MATCH_START and MATCH_END. */
  snippet: string;
}

export interface FullTextSearch {
  search(db: Executor, query: FullTextQuery): Promise<{ hits: FullTextHit[]; total: number }>;
  /**
   * Folds the conversation's messages that are indexed on their own into its document (migration
   * 0023); in the transaction holding the conversation's lock.
   */
  fold(db: Executor, conversationId: string): Promise<void>;
  /**
   * Folds every conversation's messages at once, in one pass over the index instead of one
   * rewrite per conversation; for a database no server is serving (it takes no conversation's
   * lock): a copy's target (`loopdesk copy`), the benchmark's seed. In a transaction: on SQLite the
   * messages' documents go before the index is rebuilt without them.
   */
  foldAll(db: Executor): Promise<void>;
}

/** Private-use characters around a match in a snippet: no text a person writes holds them. */
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';

/**
 * The names of the tables and columns (a row's words, a message's fold) that only the index uses:
 * derived from the rows or left at their start, never copied.
 */
export const SEARCH_INDEX_NAME = /^search_/;

/** Words of a snippet around the match: enough to see it in context on one line. */
const SNIPPET_WORDS = 16;

const kindsOf = (types: readonly SearchType[]) =>
  types.flatMap((type) => (type === 'conversation' ? ['conversation', 'message'] : [type]));

/**
 * Rows ranked per result before the page is cut, as a multiple of the results the page needs: a
 * conversation has several matching messages, and this many rows cover them almost always.
 */
const CANDIDATES_PER_RESULT = 10;

interface SqliteRankedRow {
  type: SearchType | null;
  id: string | null;
  /** The document whose text matched best. */
  doc_id: number | null;
  /** Every result, and the results among the candidate rows. */
  total: number;
  found: number;
}

/** The letters FTS5 keeps and the index folds (migration 0030), folded in a query's words too. */
const sqliteMatch = (words: readonly string[]) => words.map((word, i) => `"${foldLetters(word)}"${i === words.length - 1 ? '*' : ''}`).join(' ');

/** A document's words as the index holds them: title and body as the view reads them, folded (migration 0030). */
const sqliteIndexed = sql.raw(`doc_id, ${foldedSql('title')}, ${foldedSql('body')}`);

/**
 * The matches of a query that needs no join to pick its documents: one workspace's documents are
 * the whole index, and every type is searched (no product). Scored by the index alone; only the
 * best `candidates` rows, ties at the last one's score included, are joined to their documents
 * (hits first: a cross join keeps SQLite from walking every document instead) for their result
 * and order, and the workspace again: another's first document may have been written since the
 * index was found to be this one's alone, and must not reach the page. Unfolded messages are the only second rows a result can have: the count subtracts
 * those second rows, found from the workspace's unfolded messages among the hits, when it has any.
 */
const sqliteIndexMatches = (query: FullTextQuery, match: string, candidates: number) => {
  const excluded = query.excludeIssueId === undefined ? sql``
    : sql`and rowid <> coalesce((select doc_id from search_documents where source_id = ${query.excludeIssueId}), 0)`;
  const cut = candidates < 0 ? sql`` : sql`and h.score <= coalesce((select score from hits order by score limit 1 offset ${candidates - 1}), 1e308)`;
  return sql`
    hits as materialized (
      select rowid as doc_id, bm25(search_index, 4.0, 1.0) as score from search_index where search_index match ${match} ${excluded}
    ), candidates as (
      select h.doc_id, h.score, case d.kind when 'message' then 'conversation' else d.kind end as type, d.result_id
      from hits h cross join search_documents d on d.doc_id = h.doc_id where d.workspace_id = ${query.workspaceId} ${cut}
      order by h.score, type, d.result_id, h.doc_id limit ${candidates}
    ), messages as (
      select result_id from search_documents where workspace_id = ${query.workspaceId} and kind = 'message' and doc_id in (select doc_id from hits)
    ), total as (select (select count(*) from hits) - case
      when not exists (select 1 from search_documents where workspace_id = ${query.workspaceId} and kind = 'message') then 0
      else (select count(*) from hits h join search_documents d on d.doc_id = h.doc_id where d.result_id in (select result_id from messages))
        - (select count(distinct result_id) from messages) end as n)`;
};

/**
 * The matches of any query: each joined to its document for the workspace and the filters, then
 * the best `candidates` rows (-1: all) in the order (score, type, result, document). The count
 * takes a result's rows once; only results with unfolded messages can have more than one.
 */
const sqliteJoinedMatches = (query: FullTextQuery, match: string, candidates: number) => {
  const product = query.productId === undefined ? sql`` : sql`and (d.product_id = ${query.productId} or (d.kind = 'contact' and exists (
    select 1 from conversations c where c.contact_id = d.result_id and c.product_id = ${query.productId})))`;
  const excluded = query.excludeIssueId === undefined ? sql`` : sql`and d.result_id <> ${query.excludeIssueId}`;
  return sql`
    hits as materialized (
      select d.doc_id, d.kind, case d.kind when 'message' then 'conversation' else d.kind end as type, d.result_id,
        bm25(search_index, 4.0, 1.0) as score
      from search_index join search_documents d on d.doc_id = search_index.rowid
      where search_index match ${match} and d.workspace_id = ${query.workspaceId}
        and d.kind in (${sql.join(kindsOf(query.types))}) ${product} ${excluded}
    ), candidates as (select * from hits order by score, type, result_id, doc_id limit ${candidates}),
    total as (select (select count(*) from hits) - (select count(*) - count(distinct result_id) from hits where result_id in (
      select result_id from hits where kind = 'message')) as n)`;
};

/**
 * The page of results, and how many there are, in one pass over the index's matches: each match
 * is scored (bm25 is lower for better matches; a title counts four times its body; it may only run
 * in a query over the index itself, hence the materialized hits). Only the candidate rows are
 * grouped into results: rows in the order (score, type, result, document) list every result at
 * its best row first, so the first n results found among them are the first n of all, whatever
 * lies beyond them. The count needs every match, but no ranking. The ids of results are UUIDs,
 * never shared by two tables, so they are distinct without their type. A left join keeps the
 * count when the page is past the end.
 */
const sqlitePage = (query: FullTextQuery, match: string, candidates: number, wholeIndex: boolean) => sql<SqliteRankedRow>`
  with ${wholeIndex ? sqliteIndexMatches(query, match, candidates) : sqliteJoinedMatches(query, match, candidates)},
  best as (select type, result_id, min(score) as score, doc_id from candidates group by type, result_id),
  page as (select * from best order by score, type, result_id limit ${query.limit} offset ${query.offset}),
  counts as (select (select n from total) as total, (select count(*) from best) as found)
  select page.type, page.result_id as id, page.doc_id, counts.total, counts.found
  from counts left join page order by page.score, page.type, page.result_id`;

/**
 * Whether the query's documents are the whole index: every type searched, no product, and no
 * other workspace's document in it (the common case of one workspace per installation).
 */
async function wholeIndexMatches(db: Executor, query: FullTextQuery): Promise<boolean> {
  if (query.productId !== undefined || !SEARCH_TYPES.every((type) => query.types.includes(type))) return false;
  const { rows } = await sql<{ other: number }>`select exists (select 1 from search_documents where workspace_id < ${query.workspaceId})
    or exists (select 1 from search_documents where workspace_id > ${query.workspaceId}) as other`.execute(db);
  return Number(rows[0]!.other) === 0;
}

export const sqliteFullText: FullTextSearch = {
  async search(db, query) {
    const match = sqliteMatch(query.words);
    const wanted = query.offset + query.limit;
    const wholeIndex = await wholeIndexMatches(db, query);
    let { rows } = await sqlitePage(query, match, wanted * CANDIDATES_PER_RESULT, wholeIndex).execute(db);
    const { total, found } = rows[0]!;
    // Fewer results among the candidates than the page reaches, and more beyond them: rank every row.
    if (found < wanted && found < total) ({ rows } = await sqlitePage(query, match, -1, wholeIndex).execute(db));
    const page = rows.filter((row) => row.id !== null);
    if (page.length === 0) return { hits: [], total };
    const docs = page.map((row) => row.doc_id!);
    // The unary plus keeps SQLite from handing FTS5 one lookup per id, each of which expands a
    // prefix word again (1.5 ms apiece at 100k issues); the range bounds one pass over the matches.
    const snippets = await sql<{ doc_id: number; snippet: string }>`
      select rowid as doc_id, snippet(search_index, -1, ${MATCH_START}, ${MATCH_END}, '…', ${SNIPPET_WORDS}) as snippet
      from search_index where search_index match ${match} and rowid between ${Math.min(...docs)} and ${Math.max(...docs)}
        and +rowid in (${sql.join(docs)})`.execute(db);
    const byDoc = new Map(snippets.rows.map((row) => [row.doc_id, row.snippet]));
    return { hits: page.map((row) => ({ type: row.type!, id: row.id!, snippet: byDoc.get(row.doc_id!) ?? '' })), total };
  },

  async fold(db, conversationId) {
    const unfolded = await sql`select 1 from search_documents where result_id = ${conversationId} and kind = 'message' limit 1`.execute(db);
    if (unfolded.rows.length === 0) return;
    // The conversation's document and its messages' out, with the text the index holds; the messages' documents go; the conversation's back in.
    await sql`insert into search_index (search_index, rowid, title, body) select 'delete', ${sqliteIndexed} from search_texts
      where doc_id in (select doc_id from search_documents where result_id = ${conversationId} and kind in ('conversation', 'message'))`.execute(db);
    await sql`delete from search_documents where result_id = ${conversationId} and kind = 'message'`.execute(db);
    await sql`insert into search_index (rowid, title, body) select ${sqliteIndexed} from search_texts
      where doc_id = (select doc_id from search_documents where source_id = ${conversationId})`.execute(db);
  },

  // A message without a document of its own is folded (the view reads it into its conversation's
  // body); the index is then filled again from the view, its words folded (not FTS5's 'rebuild',
  // which would index the text unfolded).
  async foldAll(db) {
    await sql`delete from search_documents where kind = 'message'`.execute(db);
    await sql`insert into search_index (search_index) values ('delete-all')`.execute(db);
    await sql`insert into search_index (rowid, title, body) select ${sqliteIndexed} from search_texts`.execute(db);
  },
};

const postgresQuery = (words: readonly string[]) => words.map((word, i) => `${word}${i === words.length - 1 ? ':*' : ''}`).join(' & ');

/**
 * Each type's text, as its snippet is cut from it (`s` its row, `q` the query): a conversation's is
 * its title when every word is there (a title outweighs a body, as SQLite's snippet picks the
 * better column), else its best-matching message, folded or not, by the message's own stored
 * words (a headline of the whole conversation would parse all of its text, several ms apiece).
 */
const POSTGRES_TEXTS: Record<SearchType, { table: string; text: RawBuilder<string> }> = {
  issue: { table: 'issues', text: sql`concat_ws(' ', s.title, s.description)` },
  conversation: {
    table: 'conversations',
    text: sql`case when to_tsvector('loopdesk_search', regexp_replace(s.title collate "C", '[[:punct:]]', ' ', 'g')) @@ q.query then s.title
      else coalesce((select m.body from messages m where m.conversation_id = s.id order by ts_rank(m.search_vector, q.query) desc, m.created_at, m.id limit 1), s.title) end`,
  },
  contact: { table: 'contacts', text: sql`concat_ws(' ', s.name, s.email)` },
  article: { table: 'articles', text: sql`concat_ws(' ', s.title, s.body_text)` },
};

const HEADLINE_OPTIONS = `StartSel="${MATCH_START}", StopSel="${MATCH_END}", MaxWords=${SNIPPET_WORDS}, MinWords=${SNIPPET_WORDS / 2}, ShortWord=0, MaxFragments=1, FragmentDelimiter="…"`;

/** The workspace's documents (one per result) that match and pass the filters, scored. */
function postgresDocuments(query: FullTextQuery) {
  const product = query.productId === undefined ? sql`` : sql`and (d.product_id = ${query.productId} or (d.type = 'contact' and exists (
    select 1 from conversations c where c.contact_id = d.result_id and c.product_id = ${query.productId})))`;
  const excluded = query.excludeIssueId === undefined ? sql`` : sql`and d.result_id <> ${query.excludeIssueId}`;
  return sql`select d.type, d.result_id, ts_rank(d.search_vector, q.query) as score from search_documents d, q
    where d.search_vector @@ q.query and d.workspace_id = ${query.workspaceId} and d.type in (${sql.join(query.types)}) ${product} ${excluded}`;
}

/** The workspace's messages not yet folded that match and pass the filters, scored, as their conversation (none unless conversations are searched). */
function postgresUnfolded(query: FullTextQuery) {
  const product = query.productId === undefined ? sql``
    : sql`and (select c.product_id from conversations c where c.id = s.conversation_id) = ${query.productId}`;
  return sql`select 'conversation'::text as type, s.conversation_id as result_id, ts_rank(s.search_vector, q.query) as score from messages s, q
    where ${query.types.includes('conversation')} and s.search_vector @@ q.query and not s.search_folded and s.workspace_id = ${query.workspaceId} ${product}`;
}

/**
 * The page of results and how many there are: every matching document scored, the page cut by a
 * top-N sort, the count from the same matches. A result has one document, and more rows only
 * through its conversation's messages not yet folded (`unfolded`: looked for first, in the
 * messages' partial index); only then are the results they name grouped for their best score.
 * Ids stay UUIDs until the page (they order as their text does). A left join keeps the count when
 * the page is past the end.
 */
function postgresPage(query: FullTextQuery, tsquery: RawBuilder<unknown>, unfolded: boolean) {
  const best = unfolded
    ? sql`documents as (${postgresDocuments(query)}), messages as (${postgresUnfolded(query)}), best as (
        select type, result_id, score from documents where result_id not in (select result_id from messages)
        union all
        select type, result_id, max(score) from (select * from documents where result_id in (select result_id from messages) union all select * from messages) rows
        group by type, result_id)`
    : sql`best as (${postgresDocuments(query)})`;
  return sql<{ type: SearchType | null; id: string | null; total: number | string }>`
    with q as (select ${tsquery} as query), ${best},
    page as (select * from best order by score desc, type, result_id limit ${query.limit} offset ${query.offset})
    select page.type, page.result_id::text as id, counts.total from (select count(*) as total from best) counts left join page on true
    order by page.score desc, page.type, page.result_id`;
}

export const postgresFullText: FullTextSearch = {
  async search(db, query) {
    const tsquery = sql`to_tsquery('loopdesk_search', ${postgresQuery(query.words)})`;
    const unfolded = await sql<{ found: boolean }>`with q as (select ${tsquery} as query) select exists (${postgresUnfolded(query)}) as found`.execute(db);
    const { rows } = await postgresPage(query, tsquery, unfolded.rows[0]!.found).execute(db);
    const total = Number(rows[0]!.total);
    const page = rows.filter((row) => row.id !== null) as { type: SearchType; id: string }[];
    if (page.length === 0) return { hits: [], total };
    // The headlines of the page's results only, each cut from its text as it is now.
    const texts = [...new Set(page.map((row) => row.type))].map((type) => {
      const { table, text } = POSTGRES_TEXTS[type];
      const ids = page.filter((row) => row.type === type).map((row) => row.id);
      return sql`select ${type}::text as type, s.id::text as id, ${text} as content from ${sql.table(table)} s, q where s.id in (${sql.join(ids)})`;
    });
    const headlines = await sql<{ type: SearchType; id: string; snippet: string }>`
      with q as (select ${tsquery} as query), texts as (${sql.join(texts, sql` union all `)})
      select texts.type, texts.id, ts_headline('loopdesk_search', texts.content, q.query, ${HEADLINE_OPTIONS}) as snippet from texts, q`
      .execute(db);
    const snippetOf = new Map(headlines.rows.map((row) => [`${row.type}:${row.id}`, row.snippet]));
    return { hits: page.map((row) => ({ type: row.type, id: row.id, snippet: snippetOf.get(`${row.type}:${row.id}`) ?? '' })), total };
  },

  async fold(db, conversationId) {
    const folded = await sql`update messages set search_folded = true where conversation_id = ${conversationId} and not search_folded`.execute(db);
    if (Number(folded.numAffectedRows ?? 0) === 0) return;
    await sql`update search_documents d set search_vector = search_conversation_vector(c.title, c.id) from conversations c
      where c.id = ${conversationId} and d.result_id = c.id`.execute(db);
  },

  // Two statements: a statement's subqueries (a data-modifying WITH included) read the messages as
  // they were before it, when the conversation's text held none of them.
  async foldAll(db) {
    const folded = await sql<{ id: string }>`update messages set search_folded = true where not search_folded returning conversation_id as id`.execute(db);
    const ids = [...new Set(folded.rows.map((row) => row.id))];
    await sql`update search_documents d set search_vector = search_conversation_vector(c.title, c.id) from conversations c
      where c.id = any(${ids}::uuid[]) and d.result_id = c.id`.execute(db);
  },
};
