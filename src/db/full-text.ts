// Full-text search over the index migration 0022 keeps (docs/search.md), one implementation per
// database with the same signature (the dialect picks one, as it picks everything else that
// differs): SQLite's FTS5 with bm25 and snippet(), PostgreSQL's tsvector with ts_rank and
// ts_headline. The index holds one document per result (a conversation's: its title and all its
// messages), so both score, page and count documents, and answer the same shapes.
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './repositories/executor.js';

export type SearchType = 'issue' | 'conversation' | 'contact';

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
}

/** Private-use characters around a match in a snippet: no text a person writes holds them. */
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';

/** Tables that only the index uses: derived from the rows, never copied. */
export const SEARCH_INDEX_TABLE = /^search_/;

/** Words of a snippet around the match: enough to see it in context on one line. */
const SNIPPET_WORDS = 16;

const sqliteMatch = (words: readonly string[]) => words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' ');

/** The documents of the workspace that pass the filters, as SQL over `d` (a row of `search_documents`). */
function documentFilter(query: FullTextQuery) {
  const product = query.productId === undefined ? sql`` : sql`and (d.product_id = ${query.productId} or (d.type = 'contact' and exists (
    select 1 from conversations c where c.contact_id = d.result_id and c.product_id = ${query.productId})))`;
  const excluded = query.excludeIssueId === undefined ? sql`` : sql`and d.result_id <> ${query.excludeIssueId}`;
  return sql`d.workspace_id = ${query.workspaceId} and d.type in (${sql.join(query.types)}) ${product} ${excluded}`;
}

/**
 * The page of results and how many there are, in one pass over the index's matches: each matching
 * document (one per result) is scored (bm25 is lower for better matches; a title counts four times
 * its body; it may only run in a query over the index itself, hence the materialized hits) and
 * joined to its row of `search_documents` for the workspace and the filters; the page is cut from
 * them, the count is theirs. A left join keeps the count when the page is past the end.
 */
const sqlitePage = (query: FullTextQuery, match: string) => sql<{ type: SearchType | null; id: string | null; doc_id: number | null; total: number }>`
  with hits as materialized (
    select d.doc_id, d.type, d.result_id, bm25(search_index, 4.0, 1.0) as score
    from search_index join search_documents d on d.doc_id = search_index.rowid
    where search_index match ${match} and ${documentFilter(query)}
  ), page as (select * from hits order by score, type, result_id limit ${query.limit} offset ${query.offset})
  select page.type, page.result_id as id, page.doc_id, counts.total
  from (select count(*) as total from hits) counts left join page order by page.score, page.type, page.result_id`;

export const sqliteFullText: FullTextSearch = {
  async search(db, query) {
    const match = sqliteMatch(query.words);
    const { rows } = await sqlitePage(query, match).execute(db);
    const { total } = rows[0]!;
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
};

const postgresQuery = (words: readonly string[]) => words.map((word, i) => `${word}${i === words.length - 1 ? ':*' : ''}`).join(' & ');

/**
 * Each type's text, as its snippet is cut from it (`s` its row, `q` the query). A conversation's is
 * its title when every word is there (its title outweighs its messages, as SQLite's snippet picks
 * the better column), else its messages; the title's words as migration 0022 indexes them.
 */
const POSTGRES_TEXTS: Record<SearchType, { table: string; text: RawBuilder<string> }> = {
  issue: { table: 'issues', text: sql`concat_ws(' ', s.title, s.description)` },
  conversation: {
    table: 'conversations',
    text: sql`case when to_tsvector('loopdesk_search', regexp_replace(s.title collate "C", '[[:punct:]]', ' ', 'g')) @@ q.query
      then s.title else search_conversation_text(s.id) end`,
  },
  contact: { table: 'contacts', text: sql`concat_ws(' ', s.name, s.email)` },
};

const HEADLINE_OPTIONS = `StartSel="${MATCH_START}", StopSel="${MATCH_END}", MaxWords=${SNIPPET_WORDS}, MinWords=${SNIPPET_WORDS / 2}, ShortWord=0, MaxFragments=1, FragmentDelimiter="…"`;

/**
 * The page of results and how many there are: every matching document (one per result) of the
 * workspace scored, the page cut by a top-N sort, the count from the same matches. Ids stay UUIDs
 * until the page (they order as their text does). A left join keeps the count when the page is
 * past the end.
 */
const postgresPage = (query: FullTextQuery, tsquery: RawBuilder<unknown>) => sql<{ type: SearchType | null; id: string | null; total: number | string }>`
  with q as (select ${tsquery} as query), hits as (
    select d.type, d.result_id, ts_rank(d.search_vector, q.query) as score from search_documents d, q
    where d.search_vector @@ q.query and ${documentFilter(query)}
  ), page as (select * from hits order by score desc, type, result_id limit ${query.limit} offset ${query.offset})
  select page.type, page.result_id::text as id, counts.total from (select count(*) as total from hits) counts left join page on true
  order by page.score desc, page.type, page.result_id`;

export const postgresFullText: FullTextSearch = {
  async search(db, query) {
    const tsquery = sql`to_tsquery('loopdesk_search', ${postgresQuery(query.words)})`;
    const { rows } = await postgresPage(query, tsquery).execute(db);
    const total = Number(rows[0]!.total);
    const page = rows.filter((row) => row.id !== null) as { type: SearchType; id: string }[];
    if (page.length === 0) return { hits: [], total };
    // The headlines of the page's results only, each cut from its text as it is now.
    const arms = [...new Set(page.map((row) => row.type))].map((type) => {
      const { table, text } = POSTGRES_TEXTS[type];
      const ids = page.filter((row) => row.type === type).map((row) => row.id);
      return sql`select ${type}::text as type, s.id::text as id, ${text} as content from ${sql.table(table)} s, q where s.id in (${sql.join(ids)})`;
    });
    const headlines = await sql<{ type: SearchType; id: string; snippet: string }>`
      with q as (select ${tsquery} as query), texts as (${sql.join(arms, sql` union all `)})
      select texts.type, texts.id, ts_headline('loopdesk_search', texts.content, q.query, ${HEADLINE_OPTIONS}) as snippet from texts, q`
      .execute(db);
    const snippetOf = new Map(headlines.rows.map((row) => [`${row.type}:${row.id}`, row.snippet]));
    return { hits: page.map((row) => ({ type: row.type, id: row.id, snippet: snippetOf.get(`${row.type}:${row.id}`) ?? '' })), total };
  },
};
