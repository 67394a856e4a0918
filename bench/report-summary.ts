// Reports (docs/reports.md) at scale: `GET /api/v1/reports/summary` over a year of N conversations
// (default 100,000), and the SLA breach watcher's CPU at idle with 10,000 running clocks.
//
// The year is seeded in bulk, as rows shaped the way the conversations' write path leaves them (a
// contact message, an agent's reply after a log-normal first response with a median of 40 min, a
// follow-up and its answer for a third, a resolution after a log-normal time with a median of 20 h
// for 85 %, a rating for 30 %, and the stopped clocks with their values); writing 100k
// conversations through the services would take most of an hour. Then the summary of the whole
// year, of the last 30 days, of one product and in business hours, and what else the app's Reports
// screen asks for a year (a chart by week, one by day, the agents' table), each asked R times
// through the app (inject, no socket), p50/p95/largest printed. Then 10,000 running clocks due next week, and the watcher run
// as the dispatcher runs it (every 250 ms) for 10 s: its CPU per second of wall time.
//   npm run bench:reports -- [--db sqlite|postgres] [conversations] [requests]
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { createDatabase } from '../src/db/database.js';
import { countAllReportDays } from '../src/db/repositories/reports/report-days.js';
import { newId } from '../src/lib/ids.js';
import { createServices } from '../src/services.js';
import type { BenchDb } from './args.js';
import { databaseFactory } from './databases.js';

const args = process.argv.slice(2);
const dbFlag = args.indexOf('--db');
const dbName = (dbFlag >= 0 ? args.splice(dbFlag, 2)[1] : 'sqlite') as BenchDb;
const CONVERSATIONS = Number(args[0] ?? 100_000);
const REQUESTS = Number(args[1] ?? 40);
const RUNNING_CLOCKS = Math.min(10_000, CONVERSATIONS);
const BATCH = 500;
const YEAR_MS = 365 * 86_400_000;
const NOW = Date.parse('2026-11-21T12:00:00.000Z');

/**
 * A deterministic uniform in [0, 1): an LCG modulo 2^32 in 32-bit integer arithmetic (full period;
 * computed in doubles, the product lost bits and the sequence repeated every 10,466 draws).
 */
let state = 20_261_121;
const random = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
/** Log-normal seconds with this median (σ = 1.2: a long tail, as support times have). */
const logNormal = (medianSeconds: number) => {
  const gaussian = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.max(1, Math.round(medianSeconds * Math.exp(1.2 * gaussian)));
};
const iso = (ms: number) => new Date(ms).toISOString();

const percentile = (sorted: number[], p: number) => sorted[Math.ceil((p / 100) * sorted.length) - 1]!;

async function main(): Promise<void> {
  const factory = await databaseFactory(dbName);
  try {
    const database = createDatabase(await factory.fresh('reports'));
    await database.migrate();
    const services = createServices(database);
    const { db } = database;
    const workspace = await services.admin.createWorkspace('Reports bench');
    const owner = await services.admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
    const key = await services.admin.createKey({ workspaceId: workspace.id, memberId: owner.id });
    const actor = { workspaceId: workspace.id, apiKeyId: null, credentialId: owner.id, readOnly: false, member: owner };
    const products = await Promise.all(['Web', 'Mobile', 'API'].map((name) => services.products.create(actor, { name }, 'http://127.0.0.1')));

    const seedStarted = Date.now();
    for (let offset = 0; offset < CONVERSATIONS; offset += BATCH) {
      const conversations = [];
      const messages = [];
      const clocks = [];
      for (let i = offset; i < Math.min(CONVERSATIONS, offset + BATCH); i++) {
        const id = newId();
        const dimensions = { product_id: products[i % 3]!.id, type: 'ticket', source: 'chat', assignee_id: owner.id };
        const created = NOW - YEAR_MS + Math.floor(random() * YEAR_MS);
        const clock = (target: string, start: number, stop: number | null, answered: boolean) => ({
          id: newId(), workspace_id: workspace.id, conversation_id: id, target, policy_id: null, started_at: iso(start), due_at: null,
          stopped_at: stop === null ? null : iso(stop), outcome: null, breached_at: null,
          value_seconds: answered && stop !== null ? Math.round((stop - start) / 1000) : null, ...dimensions,
          business_seconds: answered && stop !== null ? Math.round((stop - start) / 1000) : null, answered_by: answered ? owner.id : null,
        });
        const message = (sender: 'contact' | 'agent', at: number) => ({
          id: newId(), workspace_id: workspace.id, conversation_id: id, sender_type: sender, sender_id: sender === 'agent' ? owner.id : id,
          sender_name: null, body: sender === 'agent' ? 'Here is how' : 'It fails', created_at: iso(at), internal: 0, ...dimensions,
        });
        messages.push(message('contact', created));
        let last = created;
        const replied = created + logNormal(40 * 60) * 1000;
        if (replied < NOW) {
          messages.push(message('agent', replied));
          clocks.push(clock('first_response', created, replied, true));
          last = replied;
          if (random() < 0.33) {
            const again = replied + logNormal(3600) * 1000;
            const answered = again + logNormal(25 * 60) * 1000;
            if (answered < NOW) {
              messages.push(message('contact', again), message('agent', answered));
              clocks.push(clock('next_response', again, answered, true));
              last = answered;
            }
          }
        } else clocks.push(clock('first_response', created, null, false));
        const resolved = last + logNormal(20 * 3600) * 1000;
        const closes = random() < 0.85 && resolved < NOW;
        clocks.push(clock('resolution', created, closes ? resolved : null, closes));
        const rated = closes && random() < 0.3;
        conversations.push({
          id, workspace_id: workspace.id, ...dimensions, contact_id: null, channel: 'chat',
          status: closes ? 'resolved' : 'open', priority: 'normal', title: `Conversation ${i}`, ai_summary: null,
          rating: rated ? 1 + Math.floor(random() * 5) : null, rated_at: rated ? iso(resolved + 60_000) : null, upvotes: 0,
          widget_session_id: null, form_fields: null, tags: '[]', created_at: iso(created), updated_at: iso(closes ? resolved : last),
          last_message_sender_type: null, last_message_excerpt: null, last_message_at: iso(last), waiting_since: null,
          snoozed_until: null, sla_breaches: '[]',
        });
      }
      await db.insertInto('conversations').values(conversations).execute();
      await db.insertInto('messages').values(messages).execute();
      await db.insertInto('sla_clocks').values(clocks).execute();
    }
    // The day counts the write path keeps as it goes, counted once for the seeded rows (as `loopdesk reports rebuild` does).
    await countAllReportDays(db, database.dialect.name);
    // Statistics as a running database has them (bench/bench-database.ts, asDeployed): PostgreSQL's
    // autovacuum analyzes a fresh load and sets the visibility map its index-only scans need.
    if (database.dialect.name === 'postgres') await sql`vacuum (analyze)`.execute(db);
    else await database.dialect.refreshStatistics(db);
    const seedSeconds = ((Date.now() - seedStarted) / 1000).toFixed(0);

    const app = await buildApp({ database, services });
    const reportTimes = async (report: string, query: string) => {
      const times: number[] = [];
      let cpuBefore = process.cpuUsage();
      for (let i = 0; i < REQUESTS + 3; i++) {
        if (i === 3) cpuBefore = process.cpuUsage(); // the first three warm the caches
        const started = performance.now();
        const res = await app.inject({ method: 'GET', url: `/api/v1/reports/${report}?${query}`, headers: { authorization: `Bearer ${key.key}` } });
        if (res.statusCode !== 200) throw new Error(`${report} answered ${res.statusCode}: ${res.body}`);
        if (i >= 3) times.push(performance.now() - started);
      }
      const cpu = process.cpuUsage(cpuBefore);
      return { times: times.sort((x, y) => x - y), cpuMs: (cpu.user + cpu.system) / 1000 / REQUESTS };
    };
    console.log(`seeded ${CONVERSATIONS} conversations on ${dbName} in ${seedSeconds} s`);
    // The bench's own CPU per request: all the work on SQLite (in this process), the client's side on PostgreSQL.
    console.log('| database | conversations | report | p50 | p95 | largest | CPU here per request |');
    console.log('|---|---:|---|---:|---:|---:|---:|');
    const year = `from=${iso(NOW - YEAR_MS)}&to=${iso(NOW)}`;
    for (const [report, label, query] of [
      ['summary', 'the year', year],
      ['summary', 'the last 30 days', `from=${iso(NOW - 30 * 86_400_000)}&to=${iso(NOW)}`],
      ['summary', 'the year, one product', `${year}&product_id=${products[0]!.id}`],
      ['summary', 'the year, business hours', `${year}&business_hours=true`],
      // What the app's Reports screen asks besides the summary, for a year: its charts and the agents' table.
      ['timeseries', 'the year, first response median per week', `${year}&metric=first_response_median&interval=week&timezone=Europe/Berlin`],
      ['timeseries', 'the year, conversations created per day', `${year}&metric=conversations_created&interval=day&timezone=Europe/Berlin`],
      ['agents', 'the year', year],
    ] as const) {
      const { times, cpuMs } = await reportTimes(report, query);
      console.log(`| ${dbName} | ${CONVERSATIONS} | ${report} of ${label} | ${percentile(times, 50).toFixed(0)} ms | ${percentile(times, 95).toFixed(0)} ms | ${times.at(-1)!.toFixed(0)} ms | ${cpuMs.toFixed(0)} ms |`);
    }

    // The watcher at idle: RUNNING_CLOCKS clocks running, due in a week (none due).
    const dueLater = iso(Date.now() + 7 * 86_400_000);
    const conversationIds = (await db.selectFrom('conversations').select('id').where('workspace_id', '=', workspace.id).limit(RUNNING_CLOCKS).execute()).map((row) => row.id);
    for (let offset = 0; offset < conversationIds.length; offset += BATCH) {
      await db.insertInto('sla_clocks').values(conversationIds.slice(offset, offset + BATCH).map((conversationId) => ({
        id: newId(), workspace_id: workspace.id, conversation_id: conversationId, target: 'first_response', policy_id: null,
        started_at: iso(Date.now()), due_at: dueLater, stopped_at: null, outcome: null, breached_at: null, value_seconds: null, business_seconds: null, answered_by: null,
        product_id: products[0]!.id, type: 'ticket', source: 'chat', assignee_id: owner.id,
      }))).execute();
    }
    const WATCH_MS = 10_000;
    const cpuBefore = process.cpuUsage();
    const watchStarted = performance.now();
    let runs = 0;
    while (performance.now() - watchStarted < WATCH_MS) {
      await services.slaBreaches.run();
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMsPerSecond = (cpu.user + cpu.system) / 1000 / (WATCH_MS / 1000);
    console.log(`\nbreach watcher, ${RUNNING_CLOCKS} running clocks none due, ${runs} runs in ${WATCH_MS / 1000} s: ${cpuMsPerSecond.toFixed(2)} ms of CPU per second (${((cpuMsPerSecond / 1000) * 100).toFixed(2)} % of a core)`);
    await app.close();
    await database.close();
  } finally {
    factory.dispose();
  }
}

await main();
