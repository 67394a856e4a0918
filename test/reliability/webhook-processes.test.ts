// Webhook delivery by real server processes: at least once through a kill -9 (every committed
// event arrives after the restart; duplicates are counted and reported), and three processes
// sharing the queue (on SQLite, one file) deliver each event exactly once in the normal case.
// Events are recorded through the outbox by the test; once every API write records its own,
// these tests can make them through the API instead.
import assert from 'node:assert/strict';
import { after, describe, it, type TestContext } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { createServices } from '../../src/services.js';
import { DIALECTS, freshDatabaseUrl, type DialectName } from '../helpers/databases.js';
import { eventually, numberedEvents, recordEvents } from '../helpers/events.js';
import { apiData as api, startServer, type RunningServer } from '../helpers/server-process.js';
import { after as answerAfter, byWebhookId, startReceiver, verified, type Receiver } from '../helpers/webhook-receiver.js';

const WEBHOOK_ENV = { LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: '1', LOOPDESK_WEBHOOK_POLL_MS: '50' };

/** A first server on a fresh database, a receiver, and an endpoint of the default workspace at it. */
async function setUp(dialect: DialectName, env: Record<string, string>) {
  const databaseUrl = await freshDatabaseUrl(dialect);
  const first = await startServer({ databaseUrl, firstStart: true, env: { ...WEBHOOK_ENV, ...env } });
  const key = first.bootstrapKey()!;
  const receiver = await startReceiver();
  const workspaceId = (await api(first, key, 'GET', '/api/v1/me')).workspace_id;
  const endpoint = await api(first, key, 'POST', '/api/v1/webhooks', { url: `${receiver.url}/hook`, events: ['*'] });
  return { databaseUrl, first, key, receiver, workspaceId, endpoint };
}

/** Records `count` events of the workspace through the outbox of a handle of the test's own. */
async function recordInDatabase(databaseUrl: string, workspaceId: string, count: number): Promise<string[]> {
  const database = createDatabase(databaseUrl);
  try {
    const services = createServices(database);
    await recordEvents({ database, services }, numberedEvents(workspaceId, count));
    const rows = await database.db.selectFrom('events').select('id').where('workspace_id', '=', workspaceId).execute();
    return rows.map((row) => row.id);
  } finally {
    await database.close();
  }
}

async function deliveryStatuses(databaseUrl: string): Promise<Record<string, number>> {
  const database = createDatabase(databaseUrl);
  try {
    const rows = await database.db.selectFrom('webhook_deliveries').select('status').execute();
    return rows.reduce<Record<string, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
  } finally {
    await database.close();
  }
}

/** Every request verified with the endpoint's secret; the numbers of the events that arrived, once each. */
function arrivedNumbers(receiver: Receiver, secret: string): number[] {
  const firsts = [...byWebhookId(receiver.received).values()].map(([request]) => verified(secret, request));
  return firsts.map((payload) => payload.data.number).sort((x, y) => x - y);
}

const range = (count: number) => Array.from({ length: count }, (_, i) => i);

function cleanUp(t: TestContext, receiver: Receiver, ...servers: (RunningServer | undefined)[]): void {
  t.after(async () => {
    for (const server of servers) server?.kill('SIGKILL');
    await receiver.close();
  });
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery through a kill -9 [${dialect}]`, () => {
    it('delivers all 100 committed events after the restart, at least once each', async (t) => {
      const EVENTS = 100;
      const setup = await setUp(dialect, { LOOPDESK_WEBHOOK_TIMEOUT_MS: '1000', LOOPDESK_WEBHOOK_CONCURRENCY: '8' });
      const { databaseUrl, first, receiver, workspaceId, endpoint } = setup;
      let second: RunningServer | undefined;
      cleanUp(t, receiver, first, second);
      receiver.answer(() => answerAfter(50));
      await recordInDatabase(databaseUrl, workspaceId, EVENTS);
      await receiver.waitUntil((received) => received.length >= 30, 'receiving');

      first.kill('SIGKILL');
      assert.equal((await first.process.exited).signal, 'SIGKILL');
      const atKill = { received: receiver.received.length, statuses: await deliveryStatuses(databaseUrl) };
      assert.ok((atKill.statuses.pending ?? 0) > 0, `deliveries were still pending at the kill: ${JSON.stringify(atKill.statuses)}`);

      // Attempts in flight at the kill are made again once their lease (timeout + 5 s) runs out.
      second = await startServer({ databaseUrl, env: WEBHOOK_ENV });
      await eventually(() => deliveryStatuses(databaseUrl), (statuses) => statuses.succeeded === EVENTS, 'all delivered', 60_000);
      await second.process.stop();
      assert.deepEqual(arrivedNumbers(receiver, endpoint.secret), range(EVENTS), 'every event arrived, each verified');
      const duplicates = receiver.received.length - EVENTS;
      t.diagnostic(
        `webhooks kill -9 [${dialect}]: ${atKill.received} requests before the kill (deliveries then: ${JSON.stringify(atKill.statuses)}); ` +
          `all ${EVENTS} events arrived after the restart; ${duplicates} duplicates (the same webhook-id twice)`,
      );
    });
  });
}

for (const dialect of DIALECTS) describe(`webhook delivery by three processes on one database [${dialect}]`, () => {
  let servers: RunningServer[] = [];
  after(() => servers.forEach((server) => server.kill('SIGKILL')));

  it('delivers each event once: every attempt made by exactly one process', async (t) => {
    const EVENTS = 300;
    const PER_PROCESS = 4;
    const env = { LOOPDESK_WEBHOOK_CONCURRENCY: String(PER_PROCESS) };
    const setup = await setUp(dialect, env);
    const { databaseUrl, receiver, workspaceId, endpoint } = setup;
    cleanUp(t, receiver);
    servers = [setup.first, ...(await Promise.all([1, 2].map(() => startServer({ databaseUrl, env: { ...WEBHOOK_ENV, ...env } }))))];
    receiver.answer(() => answerAfter(20));
    await recordInDatabase(databaseUrl, workspaceId, EVENTS);
    await receiver.waitUntil((received) => byWebhookId(received).size === EVENTS, `all ${EVENTS} events received`, 60_000);
    await Promise.all(servers.map((server) => server.process.stop()));

    assert.deepEqual(arrivedNumbers(receiver, endpoint.secret), range(EVENTS));
    assert.equal(receiver.received.length, EVENTS, 'no event arrived twice');
    assert.deepEqual(await deliveryStatuses(databaseUrl), { succeeded: EVENTS });
    assert.ok(receiver.peakInFlight > PER_PROCESS, `more than one process delivered at once (peak ${receiver.peakInFlight} in flight)`);
    t.diagnostic(
      `webhooks 3 processes [${dialect}]: ${EVENTS} events, ${receiver.received.length} requests, 0 duplicates; ` +
        `up to ${receiver.peakInFlight} attempts in flight at once (${PER_PROCESS} per process)`,
    );
  });
});
