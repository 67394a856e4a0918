// docs/widget.md: agent replies posted through the API reach an open widget within 2 s, also when
// another server process took the reply. Two servers on one PostgreSQL database: the widget's
// stream is open on one, the replies are written on the other.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';
import { openStream } from '../helpers/sse-client.js';

const DELIVERY_LIMIT_MS = 2_000;

async function call(server: RunningServer, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return (await res.json()).data;
}

if (DIALECTS.includes('postgres')) {
  describe('the widget\'s stream across two server processes [postgres]', () => {
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

    it(`brings replies taken by one process to a widget streaming from the other within ${DELIVERY_LIMIT_MS} ms`, async (t) => {
      const key = first.bootstrapKey()!;
      const product = await call(first, key, 'POST', '/api/v1/products', { name: 'Widget live', widget_config: { proof_of_work: false } });
      const widget = `/widget/v1/${product.widget_key}`;
      const session = await call(second, '', 'POST', `${widget}/sessions`, { name: 'Ada' });
      const { id } = await call(second, session.token, 'POST', `${widget}/conversations`, { body: 'Hello from the widget' });
      const stream = await openStream(`${second.baseUrl}${widget}/conversations/${id}/events`, { headers: { authorization: `Bearer ${session.token}` } });
      assert.equal(stream.status, 200);
      const latencies: number[] = [];
      for (let i = 1; i <= 3; i++) {
        const sent = performance.now();
        await call(first, key, 'POST', `/api/v1/conversations/${id}/messages`, { body: `reply ${i}` });
        const [event] = (await stream.waitFor((all) => all.length === i, `reply ${i}`, DELIVERY_LIMIT_MS)).slice(-1);
        latencies.push(event.receivedAt - sent);
      }
      t.diagnostic(`reply on process A → widget stream on process B: ${latencies.map((ms) => ms.toFixed(1)).join(', ')} ms`);
      assert.deepEqual(stream.events.map((event) => [event.event, JSON.parse(event.data).body]), [['message', 'reply 1'], ['message', 'reply 2'], ['message', 'reply 3']]);
      stream.close();
    });
  });
}
