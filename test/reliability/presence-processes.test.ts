// Presence across real server processes [postgres] (docs/automation.md, "Collision"): a presence
// announced to one process reaches a team stream open on the other, though nothing is stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';
import { openStream } from '../helpers/sse-client.js';

async function call(server: RunningServer, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.equal(res.status, method === 'POST' && !path.endsWith('/presence') ? 201 : 200, `${method} ${path}`);
  return (await res.json()).data;
}

if (DIALECTS.includes('postgres')) {
  describe('presence across two server processes [postgres]', () => {
    let first: RunningServer;
    let second: RunningServer;
    before(async () => {
      const databaseUrl = await freshDatabaseUrl('postgres');
      first = await startServer({ databaseUrl, firstStart: true });
      second = await startServer({ databaseUrl });
    });
    after(async () => {
      await Promise.all([first?.process.stop(), second?.process.stop()]);
    });

    it('hands a presence sent to one process to a team stream open on the other', async () => {
      const key = first.bootstrapKey()!;
      const product = await call(first, key, 'POST', '/products', { name: 'Presence' });
      const conversation = await call(first, key, 'POST', '/conversations', { product_id: product.id, title: 'Who is here' });
      const onSecond = await openStream(`${second.baseUrl}/api/v1/events/stream?types=presence`, { headers: { authorization: `Bearer ${key}` } });
      await onSecond.waitFor(() => onSecond.lastEventId !== '', 'the starting position');
      for (const state of ['viewing', 'typing', 'gone']) {
        const sent = await call(first, key, 'POST', `/conversations/${conversation.id}/presence`, { state });
        const events = await onSecond.waitFor((all) => all.some((event) => JSON.parse(event.data).data.state === state), `${state} on the other process`);
        assert.deepEqual(JSON.parse(events.at(-1)!.data).data, sent);
      }
      assert.deepEqual(onSecond.events.map((event) => event.event), ['presence', 'presence', 'presence']);
      onSecond.close();
    });
  });
}
