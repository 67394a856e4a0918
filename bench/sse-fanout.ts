// SSE fan-out: `streams` open event streams (GET /api/v1/events/stream?types=message.created) on
// one server process, then `replies` agent replies to one conversation, one after the other; each
// reply's latency to each stream is from the moment its POST is sent to the moment the stream has
// the event. Reports the latency over every (reply, stream) pair against the 200 ms p99 target and
// the server's RSS with the streams open against the 300 MB target. With `--processes 2`
// (PostgreSQL) the replies are posted to a second process: LISTEN/NOTIFY carries them over.
//   npm run build && node --import tsx bench/sse-fanout.ts [--db sqlite|postgres] [--streams N] [--replies N] [--processes 1|2] [--cpu-prof DIR]
import { parseArgs } from 'node:util';
import { createDatabase } from '../src/db/database.js';
import { createServices } from '../src/services.js';
import { openStream, type SseStream } from '../test/helpers/sse-client.js';
import { databaseFactory } from './databases.js';
import { sampleRss, startLoopdesk, type ServerProcess } from './processes.js';

const P99_TARGET_MS = 200;
const RSS_TARGET_MB = 300;
/** Streams opened at once while connecting them all. */
const OPEN_BATCH = 50;
const DELIVERY_TIMEOUT_MS = 30_000;

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    streams: { type: 'string', default: '1000' },
    replies: { type: 'string', default: '20' },
    processes: { type: 'string', default: '1' },
    'cpu-prof': { type: 'string' },
  },
});
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

async function post(server: ServerProcess, key: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

async function openAll(server: ServerProcess, key: string): Promise<SseStream[]> {
  const streams: SseStream[] = [];
  for (let i = 0; i < streamCount; i += OPEN_BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(OPEN_BATCH, streamCount - i) }, () =>
        openStream(`${server.baseUrl}/api/v1/events/stream?types=message.created`, { headers: { authorization: `Bearer ${key}` } })),
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
  const product = await post(writeServer, key, '/products', { name: 'SSE bench' });
  const conversation = await post(writeServer, key, '/conversations', { product_id: product.id, title: 'Fan-out', body: 'Hello' });

  const baseline = sampleRss(streamServer.pid).stop();
  const openStarted = performance.now();
  streams = await openAll(streamServer, key);
  const openSeconds = (performance.now() - openStarted) / 1000;
  const idleRss = sampleRss(streamServer.pid);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const rssWithStreams = idleRss.stop();

  const rss = sampleRss(streamServer.pid);
  const latencies: number[] = [];
  for (let r = 1; r <= replies; r++) {
    const sent = performance.now();
    await post(writeServer, key, `/conversations/${conversation.id}/messages`, { body: `Reply ${r}` });
    await Promise.all(streams.map((s) => s.waitFor((events) => events.length >= r, `reply ${r}`, DELIVERY_TIMEOUT_MS)));
    for (const s of streams) latencies.push(s.events[r - 1].receivedAt - sent);
  }
  const peakRss = rss.stop();
  const wrongCounts = streams.filter((s) => s.events.length !== replies).length;

  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  const rssShown = Math.max(rssWithStreams, peakRss);
  const where = processes === 2 ? 'replies posted to a second process' : 'one process';
  process.stdout.write(
    [
      `${db}, ${where}: ${streams.length} streams opened in ${openSeconds.toFixed(1)} s; server RSS ${baseline} MB before, ` +
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
