// Conversation summaries (docs/triage.md): the time from a contact's message to its committed
// summary, with the default settings (2 s debounce, 250 ms poll) and the extractive summarizer.
// N conversations are imported with a first message, one every 20 ms, while the dispatcher runs;
// the summaries' observation hook records each latency. Prints p50, p95 and the largest.
//   node --import ./test/helpers/typescript-hooks.mjs bench/summary-latency.ts [--db sqlite|postgres] [conversations]
import { SUMMARY_DEFAULTS } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import type { Actor } from '../src/domain/accounts/actor.js';
import { createServices } from '../src/services.js';
import type { BenchDb } from './args.js';
import { databaseFactory } from './databases.js';

const args = process.argv.slice(2);
const dbFlag = args.indexOf('--db');
const db = (dbFlag >= 0 ? args.splice(dbFlag, 2)[1] : 'sqlite') as BenchDb;
const CONVERSATIONS = Number(args[0] ?? 100);
const REPORT = 'Hello! Since the update to 4.2 the export to PDF fails with an error 500. I tried Chrome and Firefox and the PDF export fails ' +
  'in both. Exporting to CSV still works. Thanks, Ana';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const factory = await databaseFactory(db);
  try {
    const database = createDatabase(await factory.fresh('summaries'));
    await database.migrate();
    const latencies: number[] = [];
    const services = createServices(database, { summaries: { ...SUMMARY_DEFAULTS, observe: ({ latencyMs }) => latencies.push(latencyMs) } });
    const workspace = await services.admin.createWorkspace('Summaries bench');
    const owner = await services.admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
    const actor: Actor = { workspaceId: workspace.id, apiKeyId: null, credentialId: owner.id, readOnly: false, member: owner };
    const product = await services.products.create(actor, { name: 'Acme' }, 'http://127.0.0.1');
    services.webhookDispatcher.start();
    for (let i = 0; i < CONVERSATIONS; i++) {
      await services.conversations.create(actor, { product_id: product.id, title: `Export ${i}`, body: `${REPORT} (${i})` });
      await pause(20);
    }
    while (latencies.length < CONVERSATIONS) await pause(50);
    await services.webhookDispatcher.stop(1000);
    await database.close();

    latencies.sort((a, b) => a - b);
    const at = (quantile: number) => latencies[Math.ceil(quantile * latencies.length) - 1];
    console.log('| database | conversations | debounce | p50 | p95 | largest |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| ${db} | ${CONVERSATIONS} | ${SUMMARY_DEFAULTS.debounceMs} ms | ${at(0.5)} ms | ${at(0.95)} ms | ${latencies.at(-1)} ms |`);
  } finally {
    factory.dispose();
  }
}

await main();
