// Search latency as an agent typing into the search box sees it (issue 22): `GET /api/v1/search`
// with the bench's two-word queries, sent one at a time (then a few at a time) to
// `bin/loopdesk.js serve` on the bench's seed, after the server has worked through what seeding
// left it. Prints p50, p95, p99 and the largest latency per concurrency, the server's CPU per
// request (the Node process's: PostgreSQL's own is not in it), and each query's median and result
// count. Unlike `npm run bench`, no queue of 50 connections stands in front of each request.
//   npm run build && node --import ./test/helpers/typescript-hooks.mjs bench/search-latency.ts [--db sqlite|postgres] [--scale 100k]
//     [--rounds 20] [--concurrency 1,4] [--database URL]
// `--database URL` measures that database, seeding it first only if it has no bench workspace yet,
// so that a 100k seed (minutes) serves several builds; without it, a fresh one is seeded and dropped.
import { parseArgs } from 'node:util';
import { percentile } from '../src/dedup/eval/metrics.js';
import { createServices } from '../src/services.js';
import { assertDistIsCurrent } from '../test/helpers/dist-freshness.js';
import { parseScale, type BenchDb } from './args.js';
import { asDeployed, backlogDone, withDatabase } from './bench-database.js';
import { databaseFactory } from './databases.js';
import { cpuMs, startLoopdesk, type ServerProcess } from './processes.js';
import { SEARCH_QUERIES } from './scenarios.js';
import { seedMain } from './seed.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    scale: { type: 'string', default: '100k' },
    rounds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '1,4' },
    database: { type: 'string' },
  },
});
const db = values.db as BenchDb;
const scale = parseScale(values.scale);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = values.concurrency.split(',').map(Number);
const PAGE = 20;
const BENCH_WORKSPACE = 'Bench';
const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);

/** A key of the seeded workspace (seeded now if there is none yet), and what it holds. */
async function seededKey(url: string): Promise<{ key: string; counts: string; dialect: string }> {
  return withDatabase(url, async (database) => {
    const services = createServices(database);
    let workspace = (await services.admin.listWorkspaces()).find((w) => w.name === BENCH_WORKSPACE);
    if (!workspace) {
      progress(`seeding ${scale.label} on ${database.dialect.name}`);
      const { summary } = await seedMain(database, scale.issues);
      progress(`seeded in ${summary.seconds.toFixed(0)} s`);
      await asDeployed(database);
      workspace = (await services.admin.listWorkspaces()).find((w) => w.name === BENCH_WORKSPACE)!;
    }
    const count = async (table: 'issues' | 'conversations' | 'messages') =>
      Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', workspace.id).executeTakeFirstOrThrow()).n);
    const counts = `${await count('issues')} issues, ${await count('conversations')} conversations, ${await count('messages')} messages`;
    const { key } = await services.admin.createKey({ workspaceId: workspace.id, readOnly: true, label: 'search latency' });
    return { key, counts, dialect: database.dialect.name };
  });
}

interface Timed {
  q: string;
  ms: number;
  total: number;
}

/** Every query `rounds` times, by `concurrency` clients each waiting for its answer before the next. */
async function measure(server: ServerProcess, key: string, rounds: number, concurrency: number): Promise<Timed[]> {
  const queue = Array.from({ length: rounds }, () => SEARCH_QUERIES).flat();
  const timed: Timed[] = [];
  const client = async () => {
    for (let q = queue.shift(); q !== undefined; q = queue.shift()) {
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/api/v1/search?q=${encodeURIComponent(q)}&limit=${PAGE}`, { headers: { authorization: `Bearer ${key}` } });
      const body = await res.json() as { pagination: { total: number } };
      if (!res.ok) throw new Error(`search ${q}: ${res.status} ${JSON.stringify(body)}`);
      timed.push({ q, ms: performance.now() - started, total: body.pagination.total });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return timed;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main(): Promise<void> {
  assertDistIsCurrent();
  const factory = values.database ? null : await databaseFactory(db);
  try {
    const url = values.database ?? await factory!.fresh('search_latency');
    const { key, counts, dialect } = await seededKey(url);
    const server = await startLoopdesk({ databaseUrl: url, logLevel: 'warn', cpuProfileDir: null });
    try {
      await backlogDone(url);
      progress('the server worked through the backlog seeding left; measuring');
      await measure(server, key, 1, 1); // warm-up: the server's code and the database's caches
      console.log(`${dialect}, ${counts}, page of ${PAGE}, ${ROUNDS} rounds of ${SEARCH_QUERIES.length} queries\n`);
      console.log('| concurrency | requests | p50 | p95 | p99 | largest | server CPU per request |');
      console.log('|---:|---:|---:|---:|---:|---:|---:|');
      let sequential: Timed[] = [];
      for (const concurrency of CONCURRENCY) {
        const cpuBefore = cpuMs(server.pid);
        const timed = await measure(server, key, ROUNDS, concurrency);
        const cpu = (cpuMs(server.pid) - cpuBefore) / timed.length;
        const all = timed.map((t) => t.ms);
        console.log(`| ${concurrency} | ${timed.length} | ${ms(percentile(all, 50))} | ${ms(percentile(all, 95))} | ${ms(percentile(all, 99))} | ` +
          `${ms(Math.max(...all))} | ${ms(cpu)} |`);
        if (concurrency === 1) sequential = timed;
      }
      if (sequential.length === 0) return;
      console.log('\n| query (one at a time) | results | p50 |\n|---|---:|---:|');
      for (const q of SEARCH_QUERIES) {
        const mine = sequential.filter((t) => t.q === q);
        console.log(`| ${q} | ${mine[0].total} | ${ms(percentile(mine.map((t) => t.ms), 50))} |`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    factory?.dispose();
  }
}

await main();
