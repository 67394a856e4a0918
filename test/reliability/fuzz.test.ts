// Bad input never hurts: requests generated from the served openapi.json and the widget API's
// /widget/v1/openapi.json (every operation, every parameter and body field) get a 2xx or a 4xx in the contract's envelope, never a 5xx or a
// hang, and afterwards the database holds exactly what the 2xx creates reported. Then every
// operation that takes a body gets bodies of raw bytes that are not UTF-8; no body that is not
// Unicode text (such bytes, or a lone surrogate written as a JSON escape) is ever answered with a 2xx.
// Then every operation gets paths and query strings whose percent-encoding is not UTF-8; every
// request whose path or query does not decode, in any phase, is answered 400.
// FUZZ_SEED=<n> replays a run; FUZZ_REQUESTS=<n> changes how many requests each dialect gets.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { it } from 'node:test';
import fc from 'fast-check';
import { DIALECTS } from '../helpers/databases.js';
import { responseProblems } from '../helpers/envelope.js';
import type { Resource } from '../helpers/id-references.js';
import {
  rawBytesRequestArbitrary, requestArbitrary, undecodableTargetRequestArbitrary, type FuzzRequest, type RequestContext,
} from '../helpers/fuzz-requests.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { idsOf, integrityProblems } from '../helpers/integrity.js';
import { operationsOf, type Operation } from '../helpers/openapi-operations.js';
import { seedWorkspace } from '../helpers/workspace-seed.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
// At least 10,000 requests over the dialects of the run.
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? Math.ceil(10_000 / DIALECTS.length));
const BATCH = 250;
/** Raw-byte bodies each operation that takes a body gets, after the generated requests. */
const RAW_BODIES_PER_OPERATION = 12;
/** Requests whose path or query is not percent-encoded UTF-8 each operation gets, after those. */
const UNDECODABLE_TARGETS_PER_OPERATION = 6;
const IN_FLIGHT = 4;
const REQUEST_TIMEOUT_MS = 10_000;

type Created = [table: string, id: string][];

/** The JSON a body holds as the server reads it (after one leading byte order mark), or undefined. */
function parsedBody(payload: FuzzRequest['payload']): unknown {
  try {
    return JSON.parse(String(payload ?? '').replace(/^\ufeff/, ''));
  } catch {
    return undefined;
  }
}

/** A form whose honeypot is filled is answered like any other, and stores nothing. */
const honeypotFilled = (payload: FuzzRequest['payload']): boolean => {
  const website = (parsedBody(payload) as { website?: unknown } | null | undefined)?.website;
  return typeof website === 'string' && website.trim() !== '';
};

/** Whether a string or key anywhere in `value` holds a surrogate without its pair. */
function holdsLoneSurrogate(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string' && /\p{Cs}/u.test(next)) return true;
    if (typeof next !== 'object' || next === null) continue;
    for (const [key, child] of Object.entries(next)) {
      if (/\p{Cs}/u.test(key)) return true;
      pending.push(child);
    }
  }
  return false;
}

/** Whether the request's path or query string (before a fragment) is not percent-encoded UTF-8, which the server refuses first. */
function undecodableTarget(url: string): boolean {
  try {
    decodeURIComponent(url.split('#')[0]!);
    return false;
  } catch {
    return true;
  }
}

/**
 * Why a 2xx to this request would mean that text which is not Unicode was taken (and stored
 * mangled), or null: a JSON body whose bytes are not UTF-8, or one holding a lone surrogate sent
 * to an operation that validates its JSON body.
 */
function notUnicodeText(request: FuzzRequest, reached: Operation | undefined): string | null {
  const json = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
  if (!reached || !json || request.payload === undefined) return null;
  if (Buffer.isBuffer(request.payload) && !isUtf8(request.payload)) return 'a body that is not UTF-8';
  return reached.body && holdsLoneSurrogate(parsedBody(request.payload)) ? 'a lone surrogate' : null;
}
/**
 * The rows a 2xx answer of each creating operation reports, by table. A form's receipt names its
 * conversation only: its first message is found by its conversation (`messages of`). An accepted
 * suggestion names its issue (made by the accept when it was a draft) only: the provenance row the
 * accept recorded is found by the issue (`triage sources of`).
 */
const CREATES: Record<string, (body: any, status: number, request: FuzzRequest) => Created> = {
  createProduct: (body) => [['products', body.data.id]],
  createIssue: (body) => [['issues', body.data.id]],
  createIssueUnlessDuplicate: (body, status) => [
    ...(status === 201 ? ([['issues', body.data.id]] as Created) : []),
    ['issue_api_sources', body.api_source_id],
  ],
  createConversation: (body) => [['conversations', body.data.id], ...body.data.messages.map((m: { id: string }) => ['messages', m.id])],
  postConversationMessage: (body) => [['messages', body.data.id]],
  addConversationNote: (body) => [['messages', body.data.id]],
  createSavedReply: (body) => [['saved_replies', body.data.id]],
  createCalendar: (body) => [['calendars', body.data.id]],
  createSlaPolicy: (body) => [['sla_policies', body.data.id]],
  createCollection: (body) => [['help_collections', body.data.id]],
  createArticle: (body) => [['articles', body.data.id]],
  createAutomationRule: (body) => [['automation_rules', body.data.id]],
  createMacro: (body) => [['macros', body.data.id]],
  createRelease: (body) => [['releases', body.data.id]],
  createWebhook: (body) => [['webhook_endpoints', body.data.id]],
  createInvitation: (body) => [['invitations', body.data.id]],
  createApiKey: (body) => [['api_keys', body.data.id]],
  // Sessions and their contacts are not among TABLES.
  startWidgetSession: () => [],
  startVisitorConversation: (body) => [['conversations', body.data.id], ...body.data.messages.map((m: { id: string }) => ['messages', m.id])],
  postVisitorMessage: (body) => [['messages', body.data.id]],
  postVisitorScreenshot: (body) => [['messages', body.data.id]],
  acceptSuggestion: (body) => accepted(body.data),
  // A re-run accepts its new suggestion at once when the product's triage is auto.
  triageConversation: (body) => body.data.filter((suggestion: any) => suggestion.status === 'accepted').flatMap(accepted),
  submitWidgetForm: (body, _status, request) =>
    honeypotFilled(request.payload) ? [] : [['conversations', body.data.id], ['messages of', body.data.id]],
};
function accepted(suggestion: { kind: string; issue: { id: string } }): Created {
  return [...(suggestion.kind === 'create' ? ([['issues', suggestion.issue.id]] as Created) : []), ['triage sources of', suggestion.issue.id]];
}
const TABLES = [
  'products', 'issues', 'conversations', 'messages', 'releases', 'issue_api_sources', 'webhook_endpoints', 'invitations', 'api_keys', 'saved_replies',
  'calendars', 'sla_policies', 'help_collections', 'articles', 'automation_rules', 'macros',
];
const isWidget = (op: { path: string }) => op.path.startsWith('/widget/');

const canonical = (operationId: string) => operationId.replace(/ViaDeprecatedAlias$/, '');

/**
 * The operation a request reached, by its method and path: the fuzzer also sends one operation's
 * path with another method (a POST to a list's path is a create).
 */
function reachedOperation(operations: Operation[], request: FuzzRequest): Operation | undefined {
  const path = request.url.split(/[?#]/)[0]!;
  const segments = path.split('/');
  const matching = operations.filter((op) => {
    const template = op.path.split('/');
    return op.method === request.method && template.length === segments.length &&
      template.every((part, i) => part.startsWith('{') || part === segments[i]);
  });
  // A literal segment wins over a parameter (/issues/maybe before /issues/{id}).
  const literal = (op: Operation) => op.path.split('/').filter((part) => !part.startsWith('{')).length;
  return matching.sort((x, y) => literal(y) - literal(x))[0];
}

function assertCreatesKnown(operations: Operation[]): void {
  const unknown = operations.filter((op) => op.statuses.includes(201) && !CREATES[canonical(op.operationId)]);
  assert.deepEqual(unknown.map((op) => op.operationId), [], 'operations that create (201) unknown to the fuzz accounting: add them to CREATES');
}

/** Contexts for the API's operations (API keys) and the widget's (visitor sessions), on the same seeds. */
async function requestContexts(context: TestContext): Promise<{ api: RequestContext; widget: RequestContext }> {
  const { a, b } = context;
  const ours = await seedWorkspace(a, 'F', 2, context);
  const theirs = await seedWorkspace(b, 'G', 1, context);
  const ids = (resource: Resource) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...ours[resource]), weight: 8 },
      { arbitrary: fc.constantFrom(...theirs[resource]), weight: 1 },
      { arbitrary: resource === 'widget' ? fc.constantFrom('wk_unknown', 'wk_', '') : fc.uuid(), weight: 1 },
    );
  const shortcodes = [...ours.shortcode, ...ours.shortcode.map((s) => s.toLowerCase()), theirs.shortcode[0]];
  // Members addressed by path leave out the owner whose key the requests use: removing or demoting
  // them would turn the rest of the run into 401s and 403s.
  const memberPaths = fc.oneof(
    { arbitrary: fc.constantFrom(...ours.member.slice(1)), weight: 8 },
    { arbitrary: fc.constantFrom(...theirs.member), weight: 1 },
    { arbitrary: fc.uuid(), weight: 1 },
  );
  const visitorConversations = [...ours.visitorConversation, ...ours.siblingConversation];
  const api: RequestContext = {
    ids,
    pathIds: (resource) => (resource === 'issue' ? fc.oneof(ids(resource), fc.constantFrom(...shortcodes)) : resource === 'member' ? memberPaths : ids(resource)),
    authorization: fc.oneof(
      { arbitrary: fc.constant(`Bearer ${a.key}`), weight: 40 },
      { arbitrary: fc.constantFrom(a.readOnlyKey, a.memberlessKey, b.key).map((key) => `Bearer ${key}`), weight: 4 },
      { arbitrary: fc.constant(null), weight: 1 },
      {
        arbitrary: fc.constantFrom(
          `Bearer ${a.revokedKey}`, `bearer   ${a.key}`, `Bearer ${a.key} extra`, `Basic ${a.key}`, 'Bearer ', 'Bearer ldk_',
          `Bearer ${a.key.slice(0, -1)}`, `Bearer ${a.key}\t`, `Bearer ${a.key.toUpperCase()}`, 'Bearer '.repeat(200),
        ),
        weight: 2,
      },
    ),
  };
  const [token] = ours.visitorToken;
  const widget: RequestContext = {
    ids,
    pathIds: (resource) => (resource === 'visitorConversation' ? fc.oneof(ids(resource), fc.constantFrom(...visitorConversations)) : ids(resource)),
    authorization: fc.oneof(
      { arbitrary: fc.constant(`Bearer ${token}`), weight: 30 },
      { arbitrary: fc.constantFrom(...ours.visitorToken.slice(1), ...theirs.visitorToken, a.key).map((t) => `Bearer ${t}`), weight: 4 },
      { arbitrary: fc.constant(null), weight: 4 },
      { arbitrary: fc.constantFrom(`bearer ${token}`, `Bearer ${token.slice(0, -1)}`, 'Bearer wst_', `Basic ${token}`, `Bearer ${token.toUpperCase()}`), weight: 2 },
    ),
  };
  return { api, widget };
}

/** The first messages of the conversations forms filed (their receipts name the conversation only). */
async function messagesOf(context: TestContext, conversationIds: string[]): Promise<string[]> {
  if (conversationIds.length === 0) return [];
  const rows = await context.database.db.selectFrom('messages').select('id').where('conversation_id', 'in', conversationIds).execute();
  return rows.map((row) => row.id);
}

/** The provenance rows accepted suggestions recorded for these issues. */
async function triageSourcesOf(context: TestContext, issueIds: string[]): Promise<string[]> {
  if (issueIds.length === 0) return [];
  const rows = await context.database.db.selectFrom('issue_api_sources').select('id')
    .where('issue_id', 'in', issueIds).where('origin', 'in', ['triage', 'triage_auto']).execute();
  return rows.map((row) => row.id);
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${what}`)), REQUEST_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const describePayload = (payload: FuzzRequest['payload']) =>
  (Buffer.isBuffer(payload) ? `bytes ${payload.subarray(0, 150).toString('hex')}` : (payload ?? '').slice(0, 300));

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.url.slice(0, 300)} ${JSON.stringify(r.headers).slice(0, 300)} ${describePayload(r.payload)}`;

describeEachDialect('fuzzing every operation of openapi.json', (ctx) => {
  it(`answers ${REQUESTS} generated requests with a 2xx or an enveloped 4xx, and stores only what they created`, async (t) => {
    const context = ctx();
    const operations = [
      ...operationsOf((await context.a.api.get('/api/v1/openapi.json')).body),
      ...operationsOf((await context.a.api.get('/widget/v1/openapi.json')).body),
    ];
    assertCreatesKnown(operations);
    const generation = await requestContexts(context);
    const requests = fc.oneof(...operations.map((op) => requestArbitrary(op, isWidget(op) ? generation.widget : generation.api)));
    const before = Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await idsOf(context.database.db, table)])));
    const created = new Map<string, Set<string>>([...TABLES, 'messages of', 'triage sources of'].map((table) => [table, new Set()]));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const api = context.client(null);

    const send = async (request: FuzzRequest, index: number) => {
      try {
        const res = await withTimeout(api.request(request.method, request.url, { headers: request.headers, payload: request.payload }), describeRequest(request));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const problems = responseProblems(res.status, res.headers, res.text);
        if (problems.length) failures.push(`#${index} ${describeRequest(request)}\n  → ${res.status}: ${problems.join('; ')}`);
        const reached = reachedOperation(operations, request);
        const taken = res.status < 300 && notUnicodeText(request, reached);
        if (taken) failures.push(`#${index} ${describeRequest(request)}\n  → ${res.status}: ${taken} was accepted`);
        if (res.status !== 400 && undecodableTarget(request.url)) {
          failures.push(`#${index} ${describeRequest(request)}\n  → ${res.status}: a path or query that is not percent-encoded UTF-8 was not refused`);
        }
        const creates = reached && CREATES[canonical(reached.operationId)];
        if (creates && res.status >= 200 && res.status < 300) {
          for (const [table, id] of creates(res.body, res.status, request)) created.get(table)!.add(id);
        }
      } catch (error) {
        failures.push(`#${index} ${describeRequest(request)}\n  → ${(error as Error).message.slice(0, 1000)}`);
      }
    };

    for (let start = 0; start < REQUESTS && failures.length < 20; start += BATCH) {
      const batch = fc.sample(requests, { seed: SEED + start, numRuns: Math.min(BATCH, REQUESTS - start) });
      for (let i = 0; i < batch.length; i += IN_FLIGHT) {
        await Promise.all(batch.slice(i, i + IN_FLIGHT).map((request, j) => send(request, start + i + j)));
      }
    }

    const summary = () => [...statuses.entries()].sort(([x], [y]) => x - y).map(([status, n]) => `${status}×${n}`).join(' ');
    t.diagnostic(`fuzz [${context.dialect}]: ${REQUESTS} requests, seed ${SEED}; statuses ${summary()}`);

    // Raw bytes, a fixed number to each operation that takes a body, so that none is left to chance.
    statuses.clear();
    const withBodies = operations.filter((op) => op.body !== null || op.rawBody !== null);
    let notUtf8 = 0;
    for (const [n, op] of withBodies.entries()) {
      const arbitrary = rawBytesRequestArbitrary(op, isWidget(op) ? generation.widget : generation.api);
      const batch = fc.sample(arbitrary, { seed: SEED + n, numRuns: RAW_BODIES_PER_OPERATION });
      notUtf8 += batch.filter((request) => !isUtf8(request.payload as Buffer)).length;
      for (let i = 0; i < batch.length; i += IN_FLIGHT) {
        await Promise.all(batch.slice(i, i + IN_FLIGHT).map((request, j) => send(request, REQUESTS + n * RAW_BODIES_PER_OPERATION + i + j)));
      }
    }
    t.diagnostic(`fuzz [${context.dialect}]: ${withBodies.length * RAW_BODIES_PER_OPERATION} raw-byte bodies to ${withBodies.length} operations, ${notUtf8} not UTF-8; statuses ${summary()}`);

    // Paths and query strings that do not decode, a fixed number to every operation.
    statuses.clear();
    let undecodable = 0;
    const sent = REQUESTS + withBodies.length * RAW_BODIES_PER_OPERATION;
    for (const [n, op] of operations.entries()) {
      const arbitrary = undecodableTargetRequestArbitrary(op, isWidget(op) ? generation.widget : generation.api);
      const batch = fc.sample(arbitrary, { seed: SEED + sent + n, numRuns: UNDECODABLE_TARGETS_PER_OPERATION });
      undecodable += batch.filter((request) => undecodableTarget(request.url)).length;
      for (let i = 0; i < batch.length; i += IN_FLIGHT) {
        await Promise.all(batch.slice(i, i + IN_FLIGHT).map((request, j) => send(request, sent + n * UNDECODABLE_TARGETS_PER_OPERATION + i + j)));
      }
    }
    t.diagnostic(`fuzz [${context.dialect}]: ${operations.length * UNDECODABLE_TARGETS_PER_OPERATION} paths and query strings to ${operations.length} operations, ${undecodable} not percent-encoded UTF-8; statuses ${summary()}`);
    assert.deepEqual(failures, [], `replay with FUZZ_SEED=${SEED}`);

    for (const id of await messagesOf(context, [...created.get('messages of')!])) created.get('messages')!.add(id);
    for (const id of await triageSourcesOf(context, [...created.get('triage sources of')!])) created.get('issue_api_sources')!.add(id);
    for (const table of TABLES) {
      const after = await idsOf(context.database.db, table);
      const added = [...after].filter((id) => !before[table].has(id)).sort();
      assert.deepEqual(added, [...created.get(table)!].sort(), `${table}: rows added must be exactly those the 2xx creates reported`);
    }
    assert.deepEqual(await integrityProblems(context.database.db), []);
  });
  // Event streams end after 50 ms here, so that each stream request the fuzzer sends is answered whole.
}, { streams: { maxStreamMs: 50 } });
