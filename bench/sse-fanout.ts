// SSE fan-out: `streams` open event streams on one server process, then `replies` agent replies
// (POST /api/v1/conversations/{id}/messages) to one conversation, one after the other; each reply's
// latency to each stream is from the moment its POST is sent to the moment the stream has the
// event. Reports the latency over every (reply, stream) pair against the 200 ms p99 target and the
// server's RSS with the streams open against the 300 MB target. The streams are
//   --stream team:   GET /api/v1/events/stream?types=message.created, all on one API key;
//   --stream widget: GET /widget/v1/{key}/conversations/{id}/events, each on its own widget session,
//                    all sessions of one verified contact (one identity token's user), all watching
//                    that contact's one conversation: every stream is a subscriber of the replies.
// With `--processes 2` (PostgreSQL) the replies are posted to a second process: LISTEN/NOTIFY
// carries them over.
//   npm run build && node --import ./test/helpers/typescript-hooks.mjs bench/sse-fanout.ts [--stream team|widget] [--db sqlite|postgres] [--streams N] [--replies N] [--processes 1|2] [--cpu-prof DIR]
import { parseArgs } from 'node:util';
import { createDatabase } from '../src/db/database.js';
import { createServices } from '../src/services.js';
import { openStream, type SseEvent, type SseStream } from '../test/helpers/sse-client.js';
import { databaseFactory } from './databases.js';
import { sampleRss, startLoopdesk, type ServerProcess } from './processes.js';
import { createWidgetProduct, identityToken, postJson, startConversation, startSessions } from './widget.js';

const P99_TARGET_MS = 200;
const RSS_TARGET_MB = 300;
/** Streams opened at once while connecting them all. */
const OPEN_BATCH = 50;
const DELIVERY_TIMEOUT_MS = 30_000;

const { values } = parseArgs({
  options: {
    stream: { type: 'string', default: 'team' },
    db: { type: 'string', default: 'sqlite' },
    streams: { type: 'string', default: '1000' },
    replies: { type: 'string', default: '20' },
    processes: { type: 'string', default: '1' },
    'cpu-prof': { type: 'string' },
  },
});
const kind = values.stream === 'widget' ? 'widget' : 'team';
const db = values.db === 'postgres' ? 'postgres' : 'sqlite';
const streamCount = Number(values.streams);
const replies = Number(values.replies);
const processes = Number(values.processes);
if (processes === 2 && db !== 'postgres') throw new Error('--processes 2 needs --db postgres (one process owns a SQLite file)');

/** A workspace with an owner's key, written before any server starts. */
async function seedKey(url: string): Promise<string> {
  const database = createDatabase(url);
  try {
    await database.migrate();
    const { admin } = createServices(database);
    const workspace = await admin.createWorkspace('SSE bench');
    const owner = await admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
    return (await admin.createKey({ workspaceId: workspace.id, memberId: owner.id })).key;
  } finally {
    await database.close();
  }
}

/** What the streams watch: where each one connects, and which of its events are the replies. */
interface FanoutTarget {
  conversationId: string;
  /** The path and headers of stream i, on the stream server. */
  stream(index: number): { path: string; headers: Record<string, string> };
  isReply(event: SseEvent): boolean;
}

async function teamTarget(server: ServerProcess, key: string): Promise<FanoutTarget> {
  const product = await postJson(server.baseUrl, key, '/api/v1/products', { name: 'SSE bench' });
  const conversation = await postJson(server.baseUrl, key, '/api/v1/conversations', { product_id: product.id, title: 'Fan-out', body: 'Hello' });
  return {
    conversationId: conversation.id,
    stream: () => ({ path: '/api/v1/events/stream?types=message.created', headers: { authorization: `Bearer ${key}` } }),
    isReply: () => true,
  };
}

/** `streamCount` sessions of one verified contact, the first of which started the conversation. */
async function widgetTarget(server: ServerProcess, key: string): Promise<FanoutTarget> {
  const product = await createWidgetProduct(server.baseUrl, key, 'SSE bench');
  const identity_token = await identityToken(server.baseUrl, key, product, 'fan-out-user');
  const sessions = await startSessions(server.baseUrl, product, streamCount, () => ({ identity_token }));
  const conversationId = await startConversation(server.baseUrl, product, sessions[0], 'Hello from the widget');
  return {
    conversationId,
    stream: (i) => ({ path: `${product.base}/conversations/${conversationId}/events`, headers: { authorization: `Bearer ${sessions[i]}` } }),
    isReply: (event) => event.event === 'message',
  };
}

async function openAll(server: ServerProcess, target: FanoutTarget): Promise<SseStream[]> {
  const streams: SseStream[] = [];
  for (let i = 0; i < streamCount; i += OPEN_BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(OPEN_BATCH, streamCount - i) }, (_, j) => {
        const { path, headers } = target.stream(i + j);
        return openStream(`${server.baseUrl}${path}`, { headers });
      }),
    );
    await Promise.all(batch.map((s) => s.waitFor(() => s.lastEventId !== '', 'the starting position', DELIVERY_TIMEOUT_MS)));
    streams.push(...batch);
  }
  const refused = streams.filter((s) => s.status !== 200).length;
  if (refused) throw new Error(`${refused} streams were refused`);
  return streams;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (value: number) => `${value.toFixed(1)} ms`;

const factory = await databaseFactory(db);
const servers: ServerProcess[] = [];
let streams: SseStream[] = [];
try {
  const url = await factory.fresh('sse_fanout');
  const key = await seedKey(url);
  const env = { LOOPDESK_MAX_CONNECTIONS: '0' };
  for (let i = 0; i < processes; i++) servers.push(await startLoopdesk({ databaseUrl: url, logLevel: 'warn', cpuProfileDir: values['cpu-prof'] ?? null, env }));
  const [streamServer, writeServer = streamServer] = servers;
  const target = await (kind === 'widget' ? widgetTarget : teamTarget)(writeServer, key);
  const replyEvents = (s: SseStream) => s.events.filter(target.isReply);

  const baseline = sampleRss(streamServer.pid).stop();
  const openStarted = performance.now();
  streams = await openAll(streamServer, target);
  const openSeconds = (performance.now() - openStarted) / 1000;
  const idleRss = sampleRss(streamServer.pid);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const rssWithStreams = idleRss.stop();

  const rss = sampleRss(streamServer.pid);
  const latencies: number[] = [];
  for (let r = 1; r <= replies; r++) {
    const sent = performance.now();
    await postJson(writeServer.baseUrl, key, `/api/v1/conversations/${target.conversationId}/messages`, { body: `Reply ${r}` });
    await Promise.all(streams.map((s) => s.waitFor(() => replyEvents(s).length >= r, `reply ${r}`, DELIVERY_TIMEOUT_MS)));
    for (const s of streams) latencies.push(replyEvents(s)[r - 1].receivedAt - sent);
  }
  const peakRss = rss.stop();
  const wrongCounts = streams.filter((s) => replyEvents(s).length !== replies).length;

  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  const rssShown = Math.max(rssWithStreams, peakRss);
  const where = processes === 2 ? 'replies posted to a second process' : 'one process';
  const what = kind === 'widget' ? 'widget streams (sessions of one verified contact, one conversation)' : 'team streams';
  process.stdout.write(
    [
      `${db}, ${where}: ${streams.length} ${what} opened in ${openSeconds.toFixed(1)} s; server RSS ${baseline} MB before, ` +
        `${rssWithStreams} MB with the streams open, ${peakRss} MB peak during the replies`,
      `${replies} replies × ${streams.length} streams = ${latencies.length} deliveries (${wrongCounts} streams with a wrong count): ` +
        `p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, p99 ${ms(p99)}, max ${ms(latencies[latencies.length - 1])}`,
      `p99 target ${P99_TARGET_MS} ms: ${p99 <= P99_TARGET_MS ? 'met' : 'MISSED'}; RSS with ${streams.length} streams ${rssShown} MB, ` +
        `target ${RSS_TARGET_MB} MB: ${rssShown <= RSS_TARGET_MB ? 'met' : 'MISSED'}`,
      '',
    ].join('\n'),
  );
} finally {
  for (const s of streams) s.close();
  await Promise.all(servers.map((server) => server.stop()));
  factory.dispose();
}
