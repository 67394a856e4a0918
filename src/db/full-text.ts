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

interface RankedRow {
  type: SearchType;
  id: string;
  /** The row whose text matched best: a document id (SQLite), or its kind and id (PostgreSQL). */
  doc_id: number | string;
  kind: string;
  total: number;
}

const kindsOf = (types: readonly SearchType[]) =>
  types.flatMap((type) => (type === 'conversation' ? ['conversation', 'message'] : [type]));

/** The ranked page and how many results there are (the count rides on the page's rows). */
async function rankedPage(db: Executor, page: (limit: number, offset: number) => RawBuilder<RankedRow>, query: FullTextQuery) {
  const { rows } = await page(query.limit, query.offset).execute(db);
  if (rows.length > 0 || query.offset === 0) return { rows, total: Number(rows[0]?.total ?? 0) };
  // Past the end: the count comes from the first page.
  const first = await page(1, 0).execute(db);
  return { rows, total: Number(first.rows[0]?.total ?? 0) };
}

const sqliteMatch = (words: readonly string[]) => words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' ');

export const sqliteFullText: FullTextSearch = {
  async search(db, query) {
    const match = sqliteMatch(query.words);
    const product = query.productId === undefined ? sql`` : sql`and (d.product_id = ${query.productId} or (d.kind = 'contact' and exists (
      select 1 from conversations c where c.contact_id = d.result_id and c.product_id = ${query.productId})))`;
    const excluded = query.excludeIssueId === undefined ? sql`` : sql`and d.result_id <> ${query.excludeIssueId}`;
    // bm25 is lower for better matches; a title counts four times its body. It may only run in a
    // query over the index itself, hence the materialized hits. The bare doc_id next to min() is
    // SQLite's: the row that had the minimum.
    const page = (limit: number, offset: number) => sql<RankedRow>`
      with hits as materialized (
        select d.doc_id, case d.kind when 'message' then 'conversation' else d.kind end as type, d.result_id, d.kind,
          bm25(search_index, 4.0, 1.0) as score
        from search_index join search_documents d on d.doc_id = search_index.rowid
        where search_index match ${match} and d.workspace_id = ${query.workspaceId}
          and d.kind in (${sql.join(kindsOf(query.types))}) ${product} ${excluded}
      ), best as (select type, result_id, min(score) as score, doc_id, kind from hits group by type, result_id)
      select type, result_id as id, doc_id, kind, count(*) over () as total from best order by score, type, id limit ${limit} offset ${offset}`;
    const { rows, total } = await rankedPage(db, page, query);
    if (rows.length === 0) return { hits: [], total };
    const snippets = await sql<{ doc_id: number; snippet: string }>`
      select rowid as doc_id, snippet(search_index, -1, ${MATCH_START}, ${MATCH_END}, '…', ${SNIPPET_WORDS}) as snippet
      from search_index where search_index match ${match} and rowid in (${sql.join(rows.map((row) => row.doc_id))})`.execute(db);
    const byDoc = new Map(snippets.rows.map((row) => [row.doc_id, row.snippet]));
    return { hits: rows.map((row) => ({ type: row.type, id: row.id, snippet: byDoc.get(row.doc_id as number) ?? '' })), total };
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

export const postgresFullText: FullTextSearch = {
  async search(db, query) {
    const tsquery = sql`to_tsquery('loopdesk_search', ${postgresQuery(query.words)})`;
    const arms = (kindsOf(query.types) as PostgresKind[]).map((kind) => {
      const { table, type, result } = POSTGRES_KINDS[kind];
      const productOf = kind === 'message' ? sql`(select c.product_id from conversations c where c.id = s.conversation_id)` : sql.ref(`s.product_id`);
      const product = query.productId === undefined ? sql``
        : kind === 'contact'
          ? sql`and exists (select 1 from conversations c where c.contact_id = s.id and c.product_id = ${query.productId})`
          : sql`and ${productOf} = ${query.productId}`;
      const excluded = kind === 'issue' && query.excludeIssueId !== undefined ? sql`and s.id <> ${query.excludeIssueId}` : sql``;
      return sql`select ${type}::text as type, s.${sql.ref(result)}::text as result_id, ${kind}::text as kind, s.id::text as doc_id,
          ts_rank(s.search_vector, q.query) as score
        from ${sql.table(table)} s, q where s.search_vector @@ q.query and s.workspace_id = ${query.workspaceId} ${product} ${excluded}`;
    });
    const page = (limit: number, offset: number) => sql<RankedRow>`
      with q as (select ${tsquery} as query), hits as (${sql.join(arms, sql` union all `)}),
      best as (select distinct on (type, result_id) type, result_id, kind, doc_id, score from hits order by type, result_id, score desc, doc_id)
      select type, result_id as id, doc_id, kind, count(*) over () as total from best order by score desc, type, id limit ${limit} offset ${offset}`;
    const { rows, total } = await rankedPage(db, page, query);
    if (rows.length === 0) return { hits: [], total };
    const kinds = [...new Set(rows.map((row) => row.kind as PostgresKind))];
    const headlines = await sql<{ doc_id: string; snippet: string }>`
      with q as (select ${tsquery} as query)
      ${sql.join(kinds.map((kind) => sql`
        select s.id::text as doc_id, ts_headline('loopdesk_search', ${POSTGRES_KINDS[kind].text}, q.query, ${HEADLINE_OPTIONS}) as snippet
        from ${sql.table(POSTGRES_KINDS[kind].table)} s, q
        where s.workspace_id = ${query.workspaceId} and s.id in (${sql.join(rows.filter((row) => row.kind === kind).map((row) => row.doc_id))})`), sql` union all `)}`
      .execute(db);
    const byDoc = new Map(headlines.rows.map((row) => [row.doc_id, row.snippet]));
    return { hits: rows.map((row) => ({ type: row.type, id: row.id, snippet: byDoc.get(row.doc_id as string) ?? '' })), total };
  },
};
