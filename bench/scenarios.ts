// The scenarios of issue 5. Each one turns the seeded fixture into a pool of requests that the
// load generator cycles through. Reads run before writes at each scale, so no write changes
// what a later read at that scale sees.
import type { Scale } from './args.js';
import { CONNECTIONS, type RequestSpec } from './load.js';
import type { DatabaseHandle } from '../src/db/database.js';
import { seedDedupWorkspace, type DedupWorkspace, type Fixture } from './seed.js';
import { issueDescription, issueTitle, seededRandom } from './texts.js';
import { createWidgetProduct, startConversation, startSessions } from './widget.js';

export interface ScenarioContext {
  fixture: Fixture;
  scale: Scale;
  baseUrl: string;
  /** What the scenario's own `seed` returned. */
  own: unknown;
}

export type Prepared = { key: string; requests: RequestSpec[] } | { skipped: string };

export interface Scenario {
  name: string;
  writes: boolean;
  /** The scales it runs at; every scale when absent. */
  runsAt?(scale: Scale): boolean;
  /**
   * Data of its own, seeded before the server starts: two processes writing one SQLite file
   * at once fail with SQLITE_BUSY_SNAPSHOT rather than wait.
   */
  seed?(database: DatabaseHandle, scale: Scale): Promise<unknown>;
  prepare(context: ScenarioContext): Prepared | Promise<Prepared>;
}

const get = (path: string): RequestSpec => ({ method: 'GET', path });
const send = (method: 'POST' | 'PATCH', path: string, body: unknown): RequestSpec => ({ method, path, body: JSON.stringify(body) });
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];
const DEDUP_MAX_OPEN_ISSUES = 10_000;
/** Two-word searches an agent would type: the last word often unfinished. */
export const SEARCH_QUERIES = [
  'checkout butt', 'password reset', 'blank page', 'invoice pd', 'crashes android', 'safari slow', 'csv exp', 'screenshot sen',
  'clearing cache', 'dark mode',
];
/** Visitors writing at once in the widget scenario: one per connection of the load. */
const WIDGET_VISITORS = CONNECTIONS;

export const SCENARIOS: Scenario[] = [
  {
    name: 'GET /me',
    writes: false,
    prepare: ({ fixture }) => ({ key: fixture.key, requests: [get('/api/v1/me')] }),
  },
  {
    name: 'GET /issues/{shortcode}',
    writes: false,
    prepare: ({ fixture }) => ({ key: fixture.key, requests: fixture.shortcodes.map((code) => get(`/api/v1/issues/${code}`)) }),
  },
  {
    name: 'GET /issues (status filter)',
    writes: false,
    prepare: ({ fixture }) => ({ key: fixture.key, requests: [get('/api/v1/issues?status=pending,in_progress&limit=50')] }),
  },
  {
    // The page the deep offset is held against: its p99 is what a deep page should stay within 2× of.
    name: 'GET /issues (first page)',
    writes: false,
    prepare: ({ fixture }) => ({ key: fixture.key, requests: [get('/api/v1/issues?limit=50&offset=0')] }),
  },
  {
    // 90 % into the workspace's issues: the deepest page a client walking the list would reach.
    name: 'GET /issues (deep offset)',
    writes: false,
    prepare: ({ fixture, scale }) => ({
      key: fixture.key,
      requests: [get(`/api/v1/issues?limit=50&offset=${Math.floor(scale.issues * 0.9)}`)],
    }),
  },
  {
    // The conversations' pair of the two above: the first page, and 90 % into the workspace's conversations.
    name: 'GET /conversations (first page)',
    writes: false,
    prepare: ({ fixture }) => ({ key: fixture.key, requests: [get('/api/v1/conversations?limit=50&offset=0')] }),
  },
  {
    name: 'GET /conversations (deep offset)',
    writes: false,
    async prepare({ fixture, baseUrl }) {
      const first = await fetch(`${baseUrl}/api/v1/conversations?limit=1`, { headers: { authorization: `Bearer ${fixture.key}` } });
      const { pagination } = (await first.json()) as { pagination: { total: number } };
      return { key: fixture.key, requests: [get(`/api/v1/conversations?limit=50&offset=${Math.floor(pagination.total * 0.9)}`)] };
    },
  },
  {
    // The inbox's Unassigned view, and its longest-waiting-first order (docs/inbox.md).
    name: 'GET /conversations (unassigned)',
    writes: false,
    prepare: ({ fixture }) => ({ key: fixture.key, requests: [get('/api/v1/conversations?assignee_id=none&status=open&limit=50')] }),
  },
  {
    name: 'GET /conversations (sort=waiting)',
    writes: false,
    prepare: ({ fixture }) => ({ key: fixture.key, requests: [get('/api/v1/conversations?status=open,in_progress&sort=waiting&limit=50')] }),
  },
  {
    name: 'GET /conversations/{id}',
    writes: false,
    prepare: ({ fixture }) => ({ key: fixture.key, requests: fixture.conversationIds.map((id) => get(`/api/v1/conversations/${id}`)) }),
  },
  {
    // Two words, the last one also a prefix, over every issue, conversation, message and contact of
    // the workspace: words of titles (about 5 % of the issues each), of descriptions and of replies.
    name: 'GET /search (two words)',
    writes: false,
    prepare: ({ fixture }) => ({
      key: fixture.key,
      requests: SEARCH_QUERIES.map((q) => get(`/api/v1/search?q=${encodeURIComponent(q)}&limit=20`)),
    }),
  },
  {
    name: 'POST /issues',
    writes: true,
    prepare: ({ fixture }) => ({
      key: fixture.key,
      requests: fixture.products.map((product, i) =>
        send('POST', '/api/v1/issues', { product_id: product.id, title: 'Bench issue {n}: export times out', priority: PRIORITIES[i % 4] }),
      ),
    }),
  },
  {
    name: 'PATCH /issues/{id}',
    writes: true,
    prepare: ({ fixture }) => ({
      key: fixture.key,
      requests: fixture.issueIds.map((id, i) =>
        send('PATCH', `/api/v1/issues/${id}`, { priority: PRIORITIES[i % 4], resolution_comment: 'Bench edit {n}' }),
      ),
    }),
  },
  {
    name: 'POST /conversations/{id}/messages',
    writes: true,
    prepare: ({ fixture }) => ({
      key: fixture.key,
      requests: fixture.conversationIds.map((id) => send('POST', `/api/v1/conversations/${id}/messages`, { body: 'Bench reply {n}' })),
    }),
  },
  {
    // Visitors chatting: anonymous widget sessions, each writing into the conversation it started,
    // on a product of the main workspace without proof of work. The sessions and conversations are
    // made through the running server before the measurement (the server's rate limits are off).
    name: 'POST /widget/v1/{key}/conversations/{id}/messages',
    writes: true,
    async prepare({ fixture, baseUrl }) {
      const product = await createWidgetProduct(baseUrl, fixture.key, 'Bench widget');
      const tokens = await startSessions(baseUrl, product, WIDGET_VISITORS, (i) => ({ name: `Visitor ${i}` }));
      const requests = await Promise.all(tokens.map(async (token, i): Promise<RequestSpec> => {
        const id = await startConversation(baseUrl, product, token, `Visitor ${i}: the export times out`);
        return { ...send('POST', `${product.base}/conversations/${id}/messages`, { body: 'Visitor message {n}' }), token };
      }));
      return { key: fixture.key, requests };
    },
  },
  {
    name: 'POST /releases (10 issues)',
    writes: true,
    prepare: ({ fixture }) => ({
      key: fixture.key,
      requests: fixture.releaseBatches.map((issueIds) =>
        send('POST', '/api/v1/releases', { product_id: fixture.products[0].id, title: 'Bench release {n}', issue_ids: issueIds }),
      ),
    }),
  },
  {
    // Open issues in the product = the scale (1k and 10k), in a workspace of its own so the main
    // workspace's reads are unchanged; the server runs the lexical matcher.
    name: 'POST /issues/maybe (lexical)',
    writes: true,
    runsAt: (scale) => scale.issues <= DEDUP_MAX_OPEN_ISSUES,
    seed: (database, scale) => seedDedupWorkspace(database, scale.issues),
    async prepare({ scale, baseUrl, own }) {
      const { key, productId } = own as DedupWorkspace;
      const random = seededRandom(scale.issues + 1);
      const [first, ...requests] = Array.from({ length: 501 }, () =>
        send('POST', '/api/v1/issues/maybe', { product_id: productId, title: issueTitle(random), description: issueDescription(random) }),
      );
      // One call before the measurement builds the product's lexical index (a second or more at
      // 10k on a loaded machine), which a short run would otherwise count as the cost of its few requests.
      const probe = await fetch(`${baseUrl}${first!.path}`, {
        method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: first!.body,
      });
      if (probe.status === 404) return { skipped: 'POST /api/v1/issues/maybe answers 404: the deduplicating create is not built yet' };
      if (!probe.ok) throw new Error(`POST /api/v1/issues/maybe answered ${probe.status}: ${await probe.text()}`);
      return { key, requests };
    },
  },
];
