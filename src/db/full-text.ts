// Full-text search over the index migration 0020 keeps (docs/search.md), one implementation per
// database with the same signature (the dialect picks one, as it picks everything else that
// differs): SQLite's FTS5 with bm25 and snippet(), PostgreSQL's tsvector with ts_rank and
// ts_headline. Both rank a result by its best-matching row (a conversation by its title or its
// best message) and answer the same shapes.
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

/** Tables (SQLite) and columns (PostgreSQL) that only the index uses: derived from the rows, never copied. */
export const SEARCH_INDEX_TABLE = /^search_/;
export const SEARCH_INDEX_COLUMN = 'search_vector';

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

const sqliteMatch = (words: readonly string[]) => words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' ');

/**
 * The page of results, and how many there are, in one pass over the index's matches: each match
 * is scored (bm25 is lower for better matches; a title counts four times its body; it may only run
 * in a query over the index itself, hence the materialized hits) and joined to its document for
 * the workspace and the filters. Only the best `candidates` rows (-1: all) are grouped into
 * results: rows in the order (score, type, result, document) list every result at its best row
 * first, so the first n results found among them are the first n of all, whatever lies beyond
 * them. The count needs every match, but no ranking. The ids of results are UUIDs, never shared
 * by two tables, so they are distinct without their type. A left join keeps the count when the
 * page is past the end.
 */
const sqlitePage = (query: FullTextQuery, match: string, candidates: number) => {
  const product = query.productId === undefined ? sql`` : sql`and (d.product_id = ${query.productId} or (d.kind = 'contact' and exists (
    select 1 from conversations c where c.contact_id = d.result_id and c.product_id = ${query.productId})))`;
  const excluded = query.excludeIssueId === undefined ? sql`` : sql`and d.result_id <> ${query.excludeIssueId}`;
  return sql<SqliteRankedRow>`
    with hits as materialized (
      select d.doc_id, case d.kind when 'message' then 'conversation' else d.kind end as type, d.result_id,
        bm25(search_index, 4.0, 1.0) as score
      from search_index join search_documents d on d.doc_id = search_index.rowid
      where search_index match ${match} and d.workspace_id = ${query.workspaceId}
        and d.kind in (${sql.join(kindsOf(query.types))}) ${product} ${excluded}
    ), candidates as (select * from hits order by score, type, result_id, doc_id limit ${candidates}),
    best as (select type, result_id, min(score) as score, doc_id from candidates group by type, result_id),
    page as (select * from best order by score, type, result_id limit ${query.limit} offset ${query.offset}),
    counts as (select (select count(distinct result_id) from hits) as total, (select count(*) from best) as found)
    select page.type, page.result_id as id, page.doc_id, counts.total, counts.found
    from counts left join page order by page.score, page.type, page.result_id`;
};

export const sqliteFullText: FullTextSearch = {
  async search(db, query) {
    const match = sqliteMatch(query.words);
    const wanted = query.offset + query.limit;
    let { rows } = await sqlitePage(query, match, wanted * CANDIDATES_PER_RESULT).execute(db);
    const { total, found } = rows[0]!;
    // Fewer results among the candidates than the page reaches, and more beyond them: rank every row.
    if (found < wanted && found < total) ({ rows } = await sqlitePage(query, match, -1).execute(db));
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

/** Each kind of row: its table, the result it counts for, and the text its snippet comes from. */
const POSTGRES_KINDS = {
  issue: { table: 'issues', type: 'issue', result: 'id', text: sql`concat_ws(' ', s.title, s.description)` },
  conversation: { table: 'conversations', type: 'conversation', result: 'id', text: sql`s.title` },
  message: { table: 'messages', type: 'conversation', result: 'conversation_id', text: sql`s.body` },
  contact: { table: 'contacts', type: 'contact', result: 'id', text: sql`concat_ws(' ', s.name, s.email)` },
} as const;
type PostgresKind = keyof typeof POSTGRES_KINDS;

const HEADLINE_OPTIONS = `StartSel="${MATCH_START}", StopSel="${MATCH_END}", MaxWords=${SNIPPET_WORDS}, MinWords=${SNIPPET_WORDS / 2}, ShortWord=0, MaxFragments=1, FragmentDelimiter="…"`;

/**
 * The matches of one kind of row in the workspace, scored, as the result they count for; `columns`
 * adds to what is selected and `where` narrows.
 */
function postgresMatches(kind: PostgresKind, workspaceId: string, columns: RawBuilder<unknown>, where: RawBuilder<unknown>) {
  const { table, type, result } = POSTGRES_KINDS[kind];
  return sql`select ${type}::text as type, s.${sql.ref(result)} as result_id, ts_rank(s.search_vector, q.query) as score ${columns}
    from ${sql.table(table)} s, q where s.search_vector @@ q.query and s.workspace_id = ${workspaceId} ${where}`;
}

/**
 * The page of results and how many there are: every match scored, each result's best score by
 * hashing (no sort of all the matches), the page cut by a top-N sort. Ids stay UUIDs until the
 * page (they order as their text does). A left join keeps the count when the page is past the end.
 */
function postgresPage(query: FullTextQuery, tsquery: RawBuilder<unknown>) {
  const arms = (kindsOf(query.types) as PostgresKind[]).map((kind) => {
    const productOf = kind === 'message' ? sql`(select c.product_id from conversations c where c.id = s.conversation_id)` : sql.ref(`s.product_id`);
    const product = query.productId === undefined ? sql``
      : kind === 'contact'
        ? sql`and exists (select 1 from conversations c where c.contact_id = s.id and c.product_id = ${query.productId})`
        : sql`and ${productOf} = ${query.productId}`;
    const excluded = kind === 'issue' && query.excludeIssueId !== undefined ? sql`and s.id <> ${query.excludeIssueId}` : sql``;
    return postgresMatches(kind, query.workspaceId, sql``, sql`${product} ${excluded}`);
  });
  return sql<{ type: SearchType | null; id: string | null; total: number | string }>`
    with q as (select ${tsquery} as query), hits as (${sql.join(arms, sql` union all `)}),
    best as (select type, result_id, max(score) as score from hits group by type, result_id),
    page as (select * from best order by score desc, type, result_id limit ${query.limit} offset ${query.offset})
    select page.type, page.result_id::text as id, counts.total from (select count(*) as total from best) counts left join page on true
    order by page.score desc, page.type, page.result_id`;
}

export const postgresFullText: FullTextSearch = {
  async search(db, query) {
    const tsquery = sql`to_tsquery('loopdesk_search', ${postgresQuery(query.words)})`;
    const { rows } = await postgresPage(query, tsquery).execute(db);
    const total = Number(rows[0]!.total);
    const page = rows.filter((row) => row.id !== null) as { type: SearchType; id: string }[];
    if (page.length === 0) return { hits: [], total };
    // The headline of each result's best-matching row, found again among the page's results only.
    const arms = (kindsOf([...new Set(page.map((row) => row.type))]) as PostgresKind[]).map((kind) => {
      const ids = page.filter((row) => row.type === POSTGRES_KINDS[kind].type).map((row) => row.id);
      return postgresMatches(kind, query.workspaceId, sql`, s.id as doc_id, ${POSTGRES_KINDS[kind].text} as content`,
        sql`and s.${sql.ref(POSTGRES_KINDS[kind].result)} in (${sql.join(ids)})`);
    });
    const headlines = await sql<{ type: SearchType; id: string; snippet: string }>`
      with q as (select ${tsquery} as query), matches as (${sql.join(arms, sql` union all `)}),
      best as (select distinct on (type, result_id) type, result_id, content from matches order by type, result_id, score desc, doc_id)
      select best.type, best.result_id::text as id, ts_headline('loopdesk_search', best.content, q.query, ${HEADLINE_OPTIONS}) as snippet from best, q`
      .execute(db);
    const snippetOf = new Map(headlines.rows.map((row) => [`${row.type}:${row.id}`, row.snippet]));
    return { hits: page.map((row) => ({ type: row.type, id: row.id, snippet: snippetOf.get(`${row.type}:${row.id}`) ?? '' })), total };
  },
};
