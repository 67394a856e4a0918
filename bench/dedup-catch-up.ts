// What a deduplicating create costs right after a change made outside it, against a product of N
// open issues: through a real server (the lexical matcher), POST /issues/maybe calls in a row (the
// matcher's index current: each call's own creation is taken in after its commit), then each one
// after a PATCH of another issue's title (the product's dedup version moved: the index catches up
// with the issues stamped since its version, src/dedup/lexical.ts). Wall time per call as the
// client sees it, p50 and p95; the PATCH itself is not counted.
//   node --import ./test/helpers/typescript-hooks.mjs bench/dedup-catch-up.ts [--db sqlite|postgres] [--issues 1000,10000,50000] [--rounds 100]
import { parseArgs } from 'node:util';
import type { BenchDb } from './args.js';
import { withDatabase } from './bench-database.js';
import { databaseFactory } from './databases.js';
import { startLoopdesk } from './processes.js';
import { seedDedupWorkspace } from './seed.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    issues: { type: 'string', default: '1000,10000,50000' },
    rounds: { type: 'string', default: '100' },
  },
});
const db = values.db as BenchDb;
const SCALES = values.issues.split(',').map(Number);
const ROUNDS = Number(values.rounds);

const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);
const percentile = (times: number[], p: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(1);
};

async function measure(url: string, issues: number): Promise<string> {
  const started = performance.now();
  const { key, productId } = await withDatabase(url, (database) => seedDedupWorkspace(database, issues));
  progress(`${issues} open issues seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const server = await startLoopdesk({ databaseUrl: url, logLevel: 'warn', cpuProfileDir: null });
  try {
    const call = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { data: { id: string }[] };
    };
    const { data: edited } = await fetch(`${server.baseUrl}/api/v1/issues?product_id=${productId}&limit=100`, { headers: { authorization: `Bearer ${key}` } })
      .then((response) => response.json() as Promise<{ data: { id: string }[] }>);
    let n = 0;
    const maybe = async () => {
      n++;
      const from = performance.now();
      await call('POST', '/api/v1/issues/maybe', {
        product_id: productId, title: `Checkout page freezes after paying with card ${n}`, description: `Open the cart, press pay, wait ${n * 7} s`,
      });
      return performance.now() - from;
    };
    await maybe(); // Builds the product's index: not what either row measures.
    const inARow: number[] = [];
    const afterAnEdit: number[] = [];
    for (let i = 0; i < ROUNDS; i++) inARow.push(await maybe());
    for (let i = 0; i < ROUNDS; i++) {
      await call('PATCH', `/api/v1/issues/${edited[i % edited.length]!.id}`, { title: `Refund shows the wrong amount, edit ${i}` });
      afterAnEdit.push(await maybe());
    }
    return `| ${db} | ${issues} | ${ROUNDS} | ${percentile(inARow, 50)} | ${percentile(inARow, 95)} | ${percentile(afterAnEdit, 50)} | ${percentile(afterAnEdit, 95)} |`;
  } finally {
    await server.stop();
  }
}

const databases = await databaseFactory(db);
try {
  const rows: string[] = [];
  for (const issues of SCALES) rows.push(await measure(await databases.fresh(`catch_up_${issues}`), issues));
  console.log('| db | open issues | calls | in a row p50 ms | p95 | after an edit p50 ms | p95 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
} finally {
  databases.dispose();
}
