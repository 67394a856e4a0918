// SLA breaches recorded by real server processes sharing one PostgreSQL database
// (docs/service-levels.md, "Breaches"): three processes record each breach once, with one event,
// and a breach that fell due while no server ran is recorded by the next one to start.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { eventually } from '../helpers/events.js';
import { apiData as api, startServer, type RunningServer } from '../helpers/server-process.js';

const ENV = { LOOPDESK_WEBHOOK_POLL_MS: '50' };
/** Every conversation's first response is due a second after the contact wrote. */
const TARGET_SECONDS = 1;

/** The breach events recorded per conversation id. */
async function breachEvents(databaseUrl: string): Promise<Map<string, string[]>> {
  const database = createDatabase(databaseUrl);
  try {
    const rows = await database.db.selectFrom('events').select('payload').where('type', '=', 'conversation.sla_breached').execute();
    const events = new Map<string, string[]>();
    for (const { payload } of rows) {
      const { data } = JSON.parse(payload);
      events.set(data.conversation.id, [...(events.get(data.conversation.id) ?? []), data.target]);
    }
    return events;
  } finally {
    await database.close();
  }
}

/** A first server on a fresh database with a policy that applies to every conversation; its key and a product. */
async function setUp(t: TestContext) {
  const databaseUrl = await freshDatabaseUrl('postgres');
  const first = await startServer({ databaseUrl, firstStart: true, env: ENV });
  t.after(() => first.kill('SIGKILL'));
  const key = first.bootstrapKey()!;
  await api(first, key, 'POST', '/api/v1/sla-policies', { name: 'Fast', first_response_seconds: TARGET_SECONDS });
  const product = await api(first, key, 'POST', '/api/v1/products', { name: 'Acme' });
  return { databaseUrl, first, key, product };
}

describe('SLA breaches by several processes on PostgreSQL', { skip: !DIALECTS.includes('postgres') && 'PostgreSQL is not part of this run' }, () => {
  it('three processes record each breach once, with one event', async (t) => {
    const CONVERSATIONS = 12;
    const { databaseUrl, first, key, product } = await setUp(t);
    const others = await Promise.all([1, 2].map(() => startServer({ databaseUrl, env: ENV })));
    t.after(() => others.forEach((server) => server.kill('SIGKILL')));
    const servers = [first, ...others];
    const ids: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      ids.push((await api(servers[i % 3], key, 'POST', '/api/v1/conversations', { product_id: product.id, title: `Help ${i}`, body: 'Anyone there?' })).id);
    }
    const events = await eventually(() => breachEvents(databaseUrl), (found) => ids.every((id) => found.has(id)), 'every breach recorded');
    for (const id of ids) {
      assert.deepEqual(events.get(id), ['first_response'], `one event for ${id}`);
      assert.deepEqual((await api(servers[0], key, 'GET', `/api/v1/conversations/${id}`)).sla.breaches, ['first_response']);
    }
    // A marker's breach, recorded after every process has had many cycles since those: still one event each.
    const marker = (await api(servers[1], key, 'POST', '/api/v1/conversations', { product_id: product.id, title: 'Marker', body: 'Later' })).id;
    const again = await eventually(() => breachEvents(databaseUrl), (found) => found.has(marker), 'the marker\'s breach');
    assert.deepEqual([...ids, marker].map((id) => again.get(id)), [...ids, marker].map(() => ['first_response']));
  });

  it('records a breach that fell due while no server ran when the next one starts', async (t) => {
    const { databaseUrl, first, key, product } = await setUp(t);
    const conversation = await api(first, key, 'POST', '/api/v1/conversations', { product_id: product.id, title: 'Down', body: 'Hello?' });
    first.kill('SIGKILL');
    await first.process.exited;
    const due = Date.parse(conversation.sla.first_response_due_at);
    await eventually(async () => Date.now(), (now) => now > due, 'the due time passed');
    assert.equal((await breachEvents(databaseUrl)).has(conversation.id), false, 'nobody ran to record it');
    const second = await startServer({ databaseUrl, env: ENV });
    t.after(() => second.kill('SIGKILL'));
    const events = await eventually(() => breachEvents(databaseUrl), (found) => found.has(conversation.id), 'the breach recorded after the start');
    assert.deepEqual(events.get(conversation.id), ['first_response']);
  });
});
