// The floor's search (GET /search): the words of `q`, the last also a prefix, ranked by each
// database's own index with the statements the server runs (src/db/full-text.ts: FTS5's bm25 and
// snippet() on SQLite, ts_rank and ts_headline on PostgreSQL), then the page's records read by id.
// It answers the bench's queries: a shortcode in `q` (its issue put first), `types` and
// `product_id` are answered 501.
import { MATCH_END, MATCH_START, SEARCH_TYPES as ALL_SEARCH_TYPES, type SearchType as AnySearchType } from '../../src/db/full-text.js';

/** The types the bench's corpus holds (it has no help center articles), searched as the server searches all of them. */
type SearchType = Exclude<AnySearchType, 'article'>;
const SEARCH_TYPES = ALL_SEARCH_TYPES.filter((type): type is SearchType => type !== 'article');
import { highlighted } from '../../src/domain/search/search.shapes.js';
import { CONVERSATIONS_WITH_CONTACTS, conversationFields, failure, ISSUES_AS_LISTED, issueListItemJson, ok, pageOf, SHORTCODE, type Actor, type Answer } from './reads.js';
import { contactProfileJson, json } from './shapes.js';
import { placeholders, type Queries, type Row, type Store } from './store.js';

// The server's, private to their modules: the query's longest (src/http/schemas/search.ts), the
// words of a snippet, the rows ranked per result, the headline's options (src/db/full-text.ts).
const QUERY_MAX = 200;
const SNIPPET_WORDS = 16;
const CANDIDATES_PER_RESULT = 10;
const HEADLINE_OPTIONS =
  `StartSel="${MATCH_START}", StopSel="${MATCH_END}", MaxWords=${SNIPPET_WORDS}, MinWords=${SNIPPET_WORDS / 2}, ShortWord=0, MaxFragments=1, FragmentDelimiter="…"`;

/** The words the indexes see, as the service cuts them from `q`: runs of letters and digits with their combining marks. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

type Page = NonNullable<ReturnType<typeof pageOf>>;

/** A result of the index, best first: its snippet with the matches between MATCH_START and MATCH_END. */
interface Hit {
  type: SearchType;
  id: string;
  snippet: string;
}

interface Found {
  hits: Hit[];
  total: number;
}

// SQLite: a message not folded into its conversation's document yet is a document of its own, of
// kind `message`, whose result is its conversation.
const SQLITE_TYPE = "case d.kind when 'message' then 'conversation' else d.kind end as type";
const SQLITE_KINDS = ['issue', 'conversation', 'message', 'contact'];

const SQLITE_OTHER_WORKSPACES =
  'select exists (select 1 from search_documents where workspace_id < ?) or exists (select 1 from search_documents where workspace_id > ?) as other';

/** When the workspace's documents are the whole index: scored by the index alone, the best `candidates` rows (ties included, or all) joined to their documents. */
const sqliteIndexMatches = (cut: boolean) =>
  'hits as materialized (select rowid as doc_id, bm25(search_index, 4.0, 1.0) as score from search_index where search_index match ?), ' +
  `candidates as (select h.doc_id, h.score, ${SQLITE_TYPE}, d.result_id from hits h cross join search_documents d on d.doc_id = h.doc_id ` +
  `where d.workspace_id = ?${cut ? ' and h.score <= coalesce((select score from hits order by score limit 1 offset ?), 1e308)' : ''} ` +
  'order by h.score, type, d.result_id, h.doc_id limit ?), ' +
  "messages as (select result_id from search_documents where workspace_id = ? and kind = 'message' and doc_id in (select doc_id from hits)), " +
  "total as (select (select count(*) from hits) - case when not exists (select 1 from search_documents where workspace_id = ? and kind = 'message') then 0 " +
  'else (select count(*) from hits h join search_documents d on d.doc_id = h.doc_id where d.result_id in (select result_id from messages)) ' +
  '- (select count(distinct result_id) from messages) end as n)';

/** Otherwise: every match joined to its document for the workspace, then the best `candidates` rows (-1: all). */
const SQLITE_JOINED_MATCHES =
  `hits as materialized (select d.doc_id, d.kind, ${SQLITE_TYPE}, d.result_id, bm25(search_index, 4.0, 1.0) as score ` +
  'from search_index join search_documents d on d.doc_id = search_index.rowid ' +
  `where search_index match ? and d.workspace_id = ? and d.kind in (${placeholders(SQLITE_KINDS)})), ` +
  'candidates as (select * from hits order by score, type, result_id, doc_id limit ?), ' +
  'total as (select (select count(*) from hits) - (select count(*) - count(distinct result_id) from hits where result_id in (' +
  "select result_id from hits where kind = 'message')) as n)";

/** The page among the candidates' results (each at its best row), with the count of every result and of those among the candidates. */
const sqlitePage = (matches: string) =>
  `with ${matches}, best as (select type, result_id, min(score) as score, doc_id from candidates group by type, result_id), ` +
  'page as (select * from best order by score, type, result_id limit ? offset ?), ' +
  'counts as (select (select n from total) as total, (select count(*) from best) as found) ' +
  'select page.type, page.result_id as id, page.doc_id, counts.total, counts.found from counts left join page order by page.score, page.type, page.result_id';

const SQLITE_PAGES = { cut: sqlitePage(sqliteIndexMatches(true)), all: sqlitePage(sqliteIndexMatches(false)), joined: sqlitePage(SQLITE_JOINED_MATCHES) };

interface SqliteRanked {
  type: SearchType | null;
  id: string | null;
  doc_id: number | null;
  total: number;
  found: number;
}

function sqliteRanked(db: Queries, workspaceId: string, match: string, wholeIndex: boolean, candidates: number, page: Page) {
  if (!wholeIndex) return db.all<SqliteRanked>(SQLITE_PAGES.joined, [match, workspaceId, ...SQLITE_KINDS, candidates, page.limit, page.offset]);
  const cut = candidates >= 0;
  return db.all<SqliteRanked>(
    cut ? SQLITE_PAGES.cut : SQLITE_PAGES.all,
    [match, workspaceId, ...(cut ? [candidates - 1] : []), candidates, workspaceId, workspaceId, page.limit, page.offset],
  );
}

/** As the server: the best rows of the page's reach ranked first, every row only when they hold too few results; then the page's snippets. */
async function sqliteSearch(db: Queries, workspaceId: string, words: readonly string[], page: Page): Promise<Found> {
  // FTS5's query, as full-text.ts writes it: each word quoted (a phrase of one), the last a prefix.
  const match = words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' ');
  const wanted = page.offset + page.limit;
  const wholeIndex = (await db.one<{ other: number }>(SQLITE_OTHER_WORKSPACES, [workspaceId, workspaceId]))!.other === 0;
  let rows = await sqliteRanked(db, workspaceId, match, wholeIndex, wanted * CANDIDATES_PER_RESULT, page);
  const { total, found } = rows[0]!;
  if (found < wanted && found < total) rows = await sqliteRanked(db, workspaceId, match, wholeIndex, -1, page);
  const ranked = rows.filter((row) => row.id !== null);
  if (ranked.length === 0) return { hits: [], total };
  const docs = ranked.map((row) => row.doc_id!);
  // The range bounds FTS5 to one pass over the matches; the unary plus keeps it from one lookup per id (as the server writes it).
  const snippets = await db.all<{ doc_id: number; snippet: string }>(
    `select rowid as doc_id, snippet(search_index, -1, ?, ?, '…', ?) as snippet from search_index where search_index match ? ` +
      `and rowid between ? and ? and +rowid in (${placeholders(docs)})`,
    [MATCH_START, MATCH_END, SNIPPET_WORDS, match, Math.min(...docs), Math.max(...docs), ...docs],
  );
  const byDoc = new Map(snippets.map((row) => [row.doc_id, row.snippet]));
  return { hits: ranked.map((row) => ({ type: row.type!, id: row.id!, snippet: byDoc.get(row.doc_id!) ?? '' })), total };
}

// PostgreSQL: one document per result, and a message not folded yet matched on its own stored words.
const POSTGRES_QUERY = "q as (select to_tsquery('loopdesk_search', ?) as query)";
const POSTGRES_DOCUMENTS =
  'select d.type, d.result_id, ts_rank(d.search_vector, q.query) as score from search_documents d, q ' +
  `where d.search_vector @@ q.query and d.workspace_id = ? and d.type in (${placeholders(SEARCH_TYPES)})`;
/** Its leading `?` is whether conversations are searched, bound as the server binds it. */
const POSTGRES_UNFOLDED =
  "select 'conversation'::text as type, s.conversation_id as result_id, ts_rank(s.search_vector, q.query) as score from messages s, q " +
  'where ? and s.search_vector @@ q.query and not s.search_folded and s.workspace_id = ?';
const POSTGRES_ANY_UNFOLDED = `with ${POSTGRES_QUERY} select exists (${POSTGRES_UNFOLDED}) as found`;

/** Every match scored, the page cut by a top-N sort and the count from the same matches; results with unfolded messages grouped for their best score. */
const postgresPage = (best: string) =>
  `with ${POSTGRES_QUERY}, ${best}, page as (select * from best order by score desc, type, result_id limit ? offset ?) ` +
  'select page.type, page.result_id::text as id, counts.total from (select count(*) as total from best) counts left join page on true ' +
  'order by page.score desc, page.type, page.result_id';
const POSTGRES_PAGES = {
  documents: postgresPage(`best as (${POSTGRES_DOCUMENTS})`),
  withUnfolded: postgresPage(
    `documents as (${POSTGRES_DOCUMENTS}), messages as (${POSTGRES_UNFOLDED}), best as (` +
      'select type, result_id, score from documents where result_id not in (select result_id from messages) union all ' +
      'select type, result_id, max(score) from (select * from documents where result_id in (select result_id from messages) union all select * from messages) rows ' +
      'group by type, result_id)',
  ),
};

/** Each type's text its headline is cut from (`s` its row): a conversation's title when every word is there, else its best-matching message. */
const POSTGRES_TEXTS: Record<SearchType, { table: string; text: string }> = {
  issue: { table: 'issues', text: "concat_ws(' ', s.title, s.description)" },
  conversation: {
    table: 'conversations',
    text: `case when to_tsvector('loopdesk_search', regexp_replace(s.title collate "C", '[[:punct:]]', ' ', 'g')) @@ q.query then s.title ` +
      'else coalesce((select m.body from messages m where m.conversation_id = s.id order by ts_rank(m.search_vector, q.query) desc, m.created_at, m.id limit 1), s.title) end',
  },
  contact: { table: 'contacts', text: "concat_ws(' ', s.name, s.email)" },
};

/** As the server: whether any unfolded message matches, then the page and its count, then the page's headlines. */
async function postgresSearch(db: Queries, workspaceId: string, words: readonly string[], page: Page): Promise<Found> {
  // to_tsquery's text, as full-text.ts writes it: the words and-ed, the last a prefix.
  const tsquery = words.map((word, i) => `${word}${i === words.length - 1 ? ':*' : ''}`).join(' & ');
  const { found: unfolded } = (await db.one<{ found: boolean }>(POSTGRES_ANY_UNFOLDED, [tsquery, true, workspaceId]))!;
  const rows = await db.all<{ type: SearchType | null; id: string | null; total: number }>(
    unfolded ? POSTGRES_PAGES.withUnfolded : POSTGRES_PAGES.documents,
    [tsquery, workspaceId, ...SEARCH_TYPES, ...(unfolded ? [true, workspaceId] : []), page.limit, page.offset],
  );
  const { total } = rows[0]!;
  const ranked = rows.filter((row) => row.id !== null) as { type: SearchType; id: string }[];
  if (ranked.length === 0) return { hits: [], total };
  // The headlines of the page's results only, each cut from its text as it is now.
  const texts = [...new Set(ranked.map((row) => row.type))].map((type) => {
    const ids = ranked.filter((row) => row.type === type).map((row) => row.id);
    const { table, text } = POSTGRES_TEXTS[type];
    return { sql: `select ?::text as type, s.id::text as id, ${text} as content from ${table} s, q where s.id in (${placeholders(ids)})`, params: [type, ...ids] };
  });
  const headlines = await db.all<{ type: SearchType; id: string; snippet: string }>(
    `with ${POSTGRES_QUERY}, texts as (${texts.map((part) => part.sql).join(' union all ')}) ` +
      "select texts.type, texts.id, ts_headline('loopdesk_search', texts.content, q.query, ?) as snippet from texts, q",
    [tsquery, ...texts.flatMap((part) => part.params), HEADLINE_OPTIONS],
  );
  const snippetOf = new Map(headlines.map((row) => [`${row.type}:${row.id}`, row.snippet]));
  return { hits: ranked.map((row) => ({ type: row.type, id: row.id, snippet: snippetOf.get(`${row.type}:${row.id}`) ?? '' })), total };
}

const CONTACT_PROFILES =
  'select ct.id, ct.name, ct.email, ct.external_id, ct.created_at, ct.last_seen_at, ' +
  '(select count(*) from conversations c where c.workspace_id = ct.workspace_id and c.contact_id = ct.id) as conversations_count from contacts ct';

/** Each type's records as the search shows them (the issue and conversation lists' items, the contact's profile), read by id. */
const RECORDS: Record<SearchType, { select: string; alias: string; json: (row: Row) => string; title: (row: Row) => unknown }> = {
  issue: { select: ISSUES_AS_LISTED, alias: 'i', json: issueListItemJson, title: (row) => row.title },
  conversation: { select: CONVERSATIONS_WITH_CONTACTS, alias: 'c', json: (row) => `{${conversationFields(row)}}`, title: (row) => row.title },
  contact: { select: CONTACT_PROFILES, alias: 'ct', json: contactProfileJson, title: (row) => row.name ?? row.email ?? '' },
};

/** The hits' records, in the hits' order (a record deleted meanwhile drops out), each type's in one statement by id. */
async function resultsOf(db: Queries, workspaceId: string, hits: readonly Hit[]): Promise<string[]> {
  const rows = await Promise.all(SEARCH_TYPES.map((type) => {
    const ids = hits.filter((hit) => hit.type === type).map((hit) => hit.id);
    const { select, alias } = RECORDS[type];
    return ids.length === 0 ? [] : db.all(`${select} where ${alias}.workspace_id = ? and ${alias}.id in (${placeholders(ids)})`, [workspaceId, ...ids]);
  }));
  // Ids are UUIDs, never shared by two tables.
  const byId = new Map(rows.flat().map((row) => [row.id as string, row]));
  return hits.flatMap((hit) => {
    const row = byId.get(hit.id);
    if (!row) return [];
    const { title, json: recordJson } = RECORDS[hit.type];
    const { snippet, highlights } = highlighted(hit.snippet);
    const marks = highlights.map(({ start, end }) => `{"start":${start},"end":${end}}`).join(',');
    return [`{"type":"${hit.type}","id":"${hit.id}","title":${json.text(title(row))},"snippet":${json.text(snippet)},"highlights":[${marks}],"${hit.type}":${recordJson(row)}}`];
  });
}

/** A page of results, best first, and how many there are. */
export async function search(store: Store, actor: Actor, query: URLSearchParams): Promise<Answer> {
  const q = query.get('q');
  if (q === null || !/\S/.test(q) || [...q].length > QUERY_MAX) return failure(400, 'validation_error', `q: 1–${QUERY_MAX} characters, not blank`);
  if (query.has('types') || query.has('product_id') || SHORTCODE.test(q.trim())) {
    return failure(501, 'not_implemented', 'the floor answers only the bench\'s searches');
  }
  const page = pageOf(query);
  if (!page) return failure(400, 'validation_error', 'limit or offset out of range');
  const words = q.normalize('NFC').match(WORD) ?? [];
  const found = words.length === 0
    ? { hits: [], total: 0 }
    : await (store.dialect === 'sqlite' ? sqliteSearch : postgresSearch)(store, actor.workspaceId, words, page);
  const results = await resultsOf(store, actor.workspaceId, found.hits);
  return ok(`{"data":[${results.join(',')}],"pagination":{"total":${found.total},"limit":${page.limit},"offset":${page.offset}}}`);
}
