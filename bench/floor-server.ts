// The floor: the bench's scenarios answered by hand, with node:http, prepared statements (bench/floor/
// store.ts) and hand-built JSON (bench/floor/shapes.ts), and none of Loopdesk's layers. It does the
// work a request of the scenario needs — the API key's hash lookup with its member, the read-only
// rule, the key's last_used_at kept within a minute, the reads, and for writes the same rows in one
// transaction — and nothing a framework adds around it. The bench checks that it answers as
// Loopdesk does before it measures either (bench/floor-check.ts); docs/benchmarks.md, "The floor".
// Started like the ceiling server: DATABASE_URL, PORT, HOST.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createIssueUnlessDuplicate } from './floor/maybe.js';
import { failure, getConversation, getIssue, listConversations, listIssues, me, type Actor, type Answer } from './floor/reads.js';
import { search } from './floor/search.js';
import { openStore, type Row } from './floor/store.js';
import { createIssue, createRelease, postMessage, updateIssue } from './floor/writes.js';
import { postVisitorMessage } from './floor/widget.js';

const store = openStore(process.env.DATABASE_URL!);
const KEY_FORMAT = /^ldk_[0-9A-Za-z]{40}$/;
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;
const LAST_USED_REFRESH_MS = 60_000;
const lastTouched = new Map<string, number>();

const KEY_BY_HASH =
  'select k.id, k.workspace_id, k.read_only, k.integration, k.revoked_at, k.last_used_at, ' +
  'm.id as m_id, m.user_id as m_user_id, m.role as m_role, m.display_name as m_display_name, m.avatar_url as m_avatar_url, ' +
  'm.availability as m_availability, m.signature as m_signature, m.time_zone as m_time_zone, m.notify_email as m_notify_email ' +
  'from api_keys k left join members m on m.id = k.member_id and m.workspace_id = k.workspace_id where k.key_hash = ?';

/** The actor of a bearer key, as the server finds it: by the SHA-256 of a well-formed key, not revoked, acting as someone. */
async function authenticate(header: string | undefined): Promise<Actor | null> {
  const key = header && BEARER.exec(header)?.[1];
  if (!key || !KEY_FORMAT.test(key)) return null;
  const row = await store.one(KEY_BY_HASH, [createHash('sha256').update(key).digest('hex')]);
  if (!row || row.revoked_at !== null || (row.m_id === null && row.integration !== 1)) return null;
  touch(row);
  const member: Row | null = row.m_id === null
    ? null
    : {
      id: row.m_id, user_id: row.m_user_id, role: row.m_role, display_name: row.m_display_name, avatar_url: row.m_avatar_url, availability: row.m_availability,
      signature: row.m_signature, time_zone: row.m_time_zone, notify_email: Number(row.m_notify_email),
    };
  return { workspaceId: row.workspace_id as string, keyId: row.id as string, readOnly: row.read_only === 1, member };
}

/** last_used_at, written at most once a minute per key, in the background. */
function touch(key: Row): void {
  const id = key.id as string;
  const now = Date.now();
  if (now - (lastTouched.get(id) ?? (key.last_used_at ? Date.parse(key.last_used_at as string) : 0)) < LAST_USED_REFRESH_MS) return;
  lastTouched.set(id, now);
  store.run('update api_keys set last_used_at = ? where id = ?', [new Date(now).toISOString(), id]).catch(() => {});
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? body : null;
  } catch {
    return null;
  }
}

type Handler = (actor: Actor, id: string, query: URLSearchParams, request: IncomingMessage) => Promise<Answer> | Answer;
const withBody = (handle: (actor: Actor, id: string, body: Record<string, unknown>) => Promise<Answer>): Handler =>
  async (actor, id, _query, request) => {
    const body = await readJson(request);
    return body ? handle(actor, id, body) : failure(400, 'validation_error', 'body: must be a JSON object');
  };

/** The scenarios' routes: `METHOD /path`, `{id}` standing for one path segment. */
const ROUTES: Record<string, Handler> = {
  'GET /api/v1/me': (actor) => me(actor),
  'GET /api/v1/issues': (actor, _id, query) => listIssues(store, actor, query),
  'GET /api/v1/issues/{id}': (actor, id) => getIssue(store, actor, id),
  'POST /api/v1/issues': withBody((actor, _id, body) => createIssue(store, actor, body)),
  'POST /api/v1/issues/{id}': withBody(async (actor, id, body) => (id === 'maybe' ? createIssueUnlessDuplicate(store, actor, body) : failure(501, 'not_implemented', 'the floor answers only POST /issues/maybe here'))),
  'PATCH /api/v1/issues/{id}': withBody((actor, id, body) => updateIssue(store, actor, id, body)),
  'GET /api/v1/conversations': (actor, _id, query) => listConversations(store, actor, query),
  'POST /api/v1/releases': withBody((actor, _id, body) => createRelease(store, actor, body)),
  'GET /api/v1/conversations/{id}': (actor, id) => getConversation(store, actor, id),
  'GET /api/v1/search': (actor, _id, query) => search(store, actor, query),
  'POST /api/v1/conversations/{id}/messages': withBody((actor, id, body) => postMessage(store, actor, id, body)),
};

/** The route of a path: its one id-like segment (the third under /api/v1) replaced by `{id}`. */
function route(method: string, path: string): [Handler | undefined, string] {
  const parts = path.split('/');
  const id = parts[4] ?? '';
  if (parts.length > 4) parts[4] = '{id}';
  return [ROUTES[`${method} ${parts.join('/')}`], decodeURIComponent(id)];
}

function send(response: ServerResponse, { status, body }: Answer): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

const VISITOR_MESSAGE = /^\/widget\/v1\/([^/]+)\/conversations\/([^/]+)\/messages$/;

/** The widget's routes, authenticated by a visitor's session token (of the path's widget key) instead of an API key. */
async function answerVisitor(request: IncomingMessage, path: string): Promise<Answer> {
  const message = request.method === 'POST' ? VISITOR_MESSAGE.exec(path) : null;
  if (!message) return failure(501, 'not_implemented', 'the floor does not answer this route yet');
  const token = request.headers.authorization && BEARER.exec(request.headers.authorization)?.[1];
  return postVisitorMessage(store, decodeURIComponent(message[1]!), token, decodeURIComponent(message[2]!), await readJson(request));
}

async function answer(request: IncomingMessage): Promise<Answer> {
  const url = request.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (path === '/healthz') return { status: 200, body: '{"status":"ok"}' };
  if (path.startsWith('/widget/v1/')) return answerVisitor(request, path);
  const [handler, id] = route(request.method ?? 'GET', path);
  // Scenarios the floor does not answer yet: the bench reports them without a floor, giving this reason.
  if (!handler) return failure(501, 'not_implemented', 'the floor does not answer this route yet');
  const actor = await authenticate(request.headers.authorization);
  if (!actor) return failure(401, 'unauthorized', 'invalid or revoked API key');
  if (actor.readOnly && request.method !== 'GET') return failure(403, 'forbidden', 'this API key is read-only');
  return handler(actor, id, new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1)), request);
}

const server = createServer((request, response) => {
  answer(request).then(
    (result) => send(response, result),
    (error: Error) => send(response, failure(500, 'internal_error', error.message)),
  );
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void store.close().then(() => process.exit(0))));
