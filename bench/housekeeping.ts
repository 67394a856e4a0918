// Housekeeping (src/domain/housekeeping/housekeeping.ts) on a backlog: N events past the retention, each with a
// succeeded delivery to one endpoint, and N/10 recent ones that stay. Reports how long the run
// took, rows deleted per second, the longest single statement, and the event loop's longest delay
// during the run: on SQLite (synchronous) a statement holds the loop, so that is what a request
// arriving meanwhile waits at most.
//   node --import ./test/helpers/typescript-hooks.mjs bench/housekeeping.ts [--db sqlite|postgres] [events]
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { WEBHOOK_DEFAULTS } from '../src/config.js';
import { createDatabase, type DatabaseHandle } from '../src/db/database.js';
import { retentionRepository, type RetentionRepository } from '../src/db/repositories/retention.repository.js';
import type { Actor } from '../src/domain/accounts/actor.js';
import { createHousekeeping } from '../src/domain/housekeeping/housekeeping.js';
import { inTransaction } from '../src/domain/shared/unit-of-work.js';
import type { Clock } from '../src/lib/clock.js';
import { createServices, type Services } from '../src/services.js';
import type { BenchDb } from './args.js';
import { databaseFactory } from './databases.js';

const args = process.argv.slice(2);
const dbFlag = args.indexOf('--db');
const db = (dbFlag >= 0 ? args.splice(dbFlag, 2)[1] : 'sqlite') as BenchDb;
const OLD = Number(args[0] ?? 100_000);
const RECENT = Math.round(OLD / 10);
const DAY_MS = 24 * 3600_000;
const RETENTION_DAYS = 30;

const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);
const clockAhead = (days: number): Clock => ({ now: () => new Date(Date.now() + days * DAY_MS).toISOString() });

/** `count` events of the workspace, fanned out to its endpoint, each delivery then marked succeeded. */
async function delivered(database: DatabaseHandle, services: Services, workspaceId: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 1000) {
    await inTransaction(database.db, async (work) => {
      for (let number = start; number < Math.min(count, start + 1000); number++) {
        await services.outbox.record(work, { type: 'issue.updated', workspaceId, data: { number }, previous: { title: null } });
      }
    });
  }
  while ((await services.webhookDispatcher.fanOut()) > 0);
  await database.db.updateTable('webhook_deliveries').set({ status: 'succeeded', attempts: 1, next_attempt_at: null }).where('status', '=', 'pending').execute();
}

/** The repository with each call's duration recorded. */
function timed(retention: RetentionRepository, durations: number[]): RetentionRepository {
  return Object.fromEntries(
    Object.entries(retention).map(([name, method]) => [name, async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await (method as (...a: unknown[]) => Promise<number>)(...args);
      } finally {
        durations.push(performance.now() - started);
      }
    }]),
  ) as RetentionRepository;
}

async function main(): Promise<void> {
  const factory = await databaseFactory(db);
  try {
    const database = createDatabase(await factory.fresh('housekeeping'));
    await database.migrate();
    const webhooks = { ...WEBHOOK_DEFAULTS, allowPrivate: true };
    const services = createServices(database, { webhooks });
    const workspace = await services.admin.createWorkspace('Housekeeping bench');
    const owner = await services.admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
    const actor: Actor = { workspaceId: workspace.id, apiKeyId: null, credentialId: owner.id, readOnly: false, member: owner };
    await services.webhooks.create(actor, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    await delivered(database, services, workspace.id, OLD);
    // Recorded "two days later": within the retention when the run comes 31 days after the first.
    await delivered(database, createServices(database, { webhooks, clock: clockAhead(2) }), workspace.id, RECENT);
    progress(`${OLD} old and ${RECENT} recent events with a delivery each on ${db}; running the housekeeping`);

    const durations: number[] = [];
    const housekeeping = createHousekeeping({
      clock: clockAhead(RETENTION_DAYS + 1), retention: timed(retentionRepository(database.db), durations),
      signInFailures: { purgeBefore: async () => {} }, auditEntries: { deleteBefore: async () => 0 }, auditRetentionDays: 0, eventRetentionDays: RETENTION_DAYS, onError: (error) => { throw error; },
      refreshStatistics: () => database.dialect.refreshStatistics(database.db),
    });
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const started = performance.now();
    const report = await housekeeping.runOnce();
    const seconds = (performance.now() - started) / 1000;
    loop.disable();

    const left = async (table: 'events' | 'webhook_deliveries') =>
      Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const [eventsLeft, deliveriesLeft] = [await left('events'), await left('webhook_deliveries')];
    if (report.events !== OLD || report.webhook_deliveries !== OLD || eventsLeft !== RECENT || deliveriesLeft !== RECENT) {
      throw new Error(`unexpected: ${JSON.stringify({ report, eventsLeft, deliveriesLeft })}`);
    }
    const deleted = report.events + report.webhook_deliveries;
    console.log('| database | rows deleted (events + deliveries) | kept | run | rows/s | statements | longest statement | longest event-loop delay |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${db} | ${deleted} | ${eventsLeft + deliveriesLeft} | ${seconds.toFixed(1)} s | ${Math.round(deleted / seconds)} | ${durations.length} | ` +
        `${Math.max(...durations).toFixed(1)} ms | ${(loop.max / 1e6).toFixed(1)} ms |`,
    );
    await database.close();
  } finally {
    factory.dispose();
  }
}

await main();
