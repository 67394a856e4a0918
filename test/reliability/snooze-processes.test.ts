// Snooze wakes (docs/inbox.md, "Snooze") by real server processes sharing one PostgreSQL database:
// two processes wake each conversation exactly once (one conversation.updated apiece), and a snooze
// that ends while no server runs wakes when one starts. Snoozes end a couple of seconds ahead on the
// real clock; the test waits for the wake with a generous deadline and reports how late it came.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { freshDatabaseUrl } from '../helpers/databases.js';
import { eventually } from '../helpers/events.js';
import { apiData as api, startServer, type RunningServer } from '../helpers/server-process.js';

const ENV = { LOOPDESK_WEBHOOK_POLL_MS: '100' };
const CONVERSATIONS = 20;

/** Per conversation, the timestamps of the conversation.updated events that woke it. */
async function wakesIn(databaseUrl: string): Promise<Map<string, string[]>> {
  const database = createDatabase(databaseUrl);
  try {
    const rows = await database.db.selectFrom('events').select('payload').where('type', '=', 'conversation.updated').execute();
    const wakes = new Map<string, string[]>();
    for (const { payload } of rows) {
      const { timestamp, data } = JSON.parse(payload);
      if (data.snoozed_until === null && data.previous.snoozed_until) wakes.set(data.id, [...(wakes.get(data.id) ?? []), timestamp]);
    }
    return wakes;
  } finally {
    await database.close();
  }
}

async function stop(server: RunningServer): Promise<void> {
  server.kill('SIGTERM');
  await server.process.exited;
}

function cleanUp(t: TestContext, servers: RunningServer[]): void {
  t.after(() => {
    for (const server of servers) server.kill('SIGKILL');
  });
}

describe('snooze wakes by real processes [postgres]', () => {
  it('wakes each conversation once when two processes share the database', async (t) => {
    const databaseUrl = await freshDatabaseUrl('postgres');
    const first = await startServer({ databaseUrl, firstStart: true, env: ENV });
    const servers = [first];
    cleanUp(t, servers);
    servers.push(await startServer({ databaseUrl, env: ENV }));
    const key = first.bootstrapKey()!;
    const product = await api(first, key, 'POST', '/api/v1/products', { name: 'Acme' });
    // Each snooze ends a moment after its own PATCH, however long the others took on a busy machine.
    const untils = new Map<string, string>();
    for (let i = 0; i < CONVERSATIONS; i++) {
      const { id } = await api(first, key, 'POST', '/api/v1/conversations', { product_id: product.id, title: `Question ${i}` });
      const until = new Date(Date.now() + 2_000).toISOString();
      await api(servers[i % 2], key, 'PATCH', `/api/v1/conversations/${id}`, { snoozed_until: until });
      untils.set(id, until);
    }
    await eventually(async () => (await api(first, key, 'GET', '/api/v1/conversations?snoozed=true')).length, (left) => left === 0, 'every conversation woken', 30_000);
    // Both processes keep polling for a while: a second wake would show by now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const wakes = await wakesIn(databaseUrl);
    for (const id of untils.keys()) assert.equal(wakes.get(id)?.length, 1, `${id} woken once`);
    const lateMs = [...untils].map(([id, until]) => Date.parse(wakes.get(id)![0]) - Date.parse(until));
    t.diagnostic(`woken ${Math.min(...lateMs)}–${Math.max(...lateMs)} ms after the snooze ended`);
  });

  it('wakes on start a snooze that ended while no server ran', async (t) => {
    const databaseUrl = await freshDatabaseUrl('postgres');
    const first = await startServer({ databaseUrl, firstStart: true, env: ENV });
    const servers = [first];
    cleanUp(t, servers);
    const key = first.bootstrapKey()!;
    const product = await api(first, key, 'POST', '/api/v1/products', { name: 'Acme' });
    const { id } = await api(first, key, 'POST', '/api/v1/conversations', { product_id: product.id, title: 'Call me back' });
    const until = new Date(Date.now() + 1_500).toISOString();
    await api(first, key, 'PATCH', `/api/v1/conversations/${id}`, { snoozed_until: until });
    await stop(first);
    await eventually(async () => Date.now(), (now) => now > Date.parse(until) + 500, 'the snooze ended while the server was down');
    assert.equal((await wakesIn(databaseUrl)).size, 0, 'nothing woke it while no server ran');
    const next = await startServer({ databaseUrl, env: ENV });
    servers.push(next);
    await eventually(async () => (await api(next, key, 'GET', `/api/v1/conversations/${id}`)).snoozed_until, (value) => value === null, 'woken after the start', 30_000);
    assert.equal((await wakesIn(databaseUrl)).get(id)?.length, 1);
  });
});
