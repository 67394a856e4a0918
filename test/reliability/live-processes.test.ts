// The live channel across real server processes. On PostgreSQL two servers share the database: a
// reply taken by one reaches a stream open on the other within 2 s (LISTEN/NOTIFY), and a client
// that reconnects to the other server with Last-Event-ID gets what it missed exactly once. On both
// databases SIGTERM ends the open streams at once, so they never hold the shutdown. A presence
// (never stored) crosses the processes too (docs/automation.md, "Collision").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';
import { openStream, type SseStream } from '../helpers/sse-client.js';

const DELIVERY_LIMIT_MS = 2_000;

function api(server: RunningServer, key: string) {
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    assert.ok(res.ok, `${method} ${path}: ${res.status}`);
    return (await res.json()).data;
  };
}

const stream = (server: RunningServer, key: string, headers: Record<string, string> = {}) =>
  openStream(`${server.baseUrl}/api/v1/events/stream?types=message.created`, { headers: { authorization: `Bearer ${key}`, ...headers } });

const bodies = (s: SseStream) => s.events.map((event) => JSON.parse(event.data).data.body);

if (DIALECTS.includes('postgres')) {
  describe('event streams across two server processes [postgres]', () => {
    let first: RunningServer;
    let second: RunningServer;
    let key: string;
    let conversationId: string;
    before(async () => {
      const databaseUrl = await freshDatabaseUrl('postgres');
      first = await startServer({ databaseUrl, firstStart: true });
      second = await startServer({ databaseUrl });
      key = first.bootstrapKey()!;
      const product = await api(first, key)('POST', '/products', { name: 'Live' });
      conversationId = (await api(first, key)('POST', '/conversations', { product_id: product.id, title: 'Across processes' })).id;
    });
    after(async () => {
      await Promise.all([first?.process.stop(), second?.process.stop()]);
    });

    it(`hands a reply taken by one process to a stream on the other within ${DELIVERY_LIMIT_MS} ms`, async (t) => {
      const onSecond = await stream(second, key);
      const latencies: number[] = [];
      for (let i = 1; i <= 5; i++) {
        const sent = performance.now();
        await api(first, key)('POST', `/conversations/${conversationId}/messages`, { body: `reply ${i}` });
        const [event] = (await onSecond.waitFor((all) => all.length === i, `reply ${i} on the other process`, DELIVERY_LIMIT_MS)).slice(-1);
        latencies.push(event.receivedAt - sent);
      }
      t.diagnostic(`write on process A → event on process B: ${latencies.map((ms) => ms.toFixed(1)).join(', ')} ms`);
      assert.deepEqual(bodies(onSecond), ['reply 1', 'reply 2', 'reply 3', 'reply 4', 'reply 5']);
      assert.ok(Math.max(...latencies) < DELIVERY_LIMIT_MS);
      onSecond.close();
    });

    it('replays exactly what was missed when the client reconnects to the other process with Last-Event-ID', async () => {
      const onSecond = await stream(second, key);
      await api(first, key)('POST', `/conversations/${conversationId}/messages`, { body: 'seen' });
      await onSecond.waitFor((all) => all.length === 1, 'the first message');
      onSecond.close();
      for (const body of ['missed 1', 'missed 2', 'missed 3']) {
        await api(second, key)('POST', `/conversations/${conversationId}/messages`, { body });
      }
      const onFirst = await stream(first, key, { 'last-event-id': onSecond.lastEventId });
      await onFirst.waitFor((all) => all.length === 3, 'the missed messages');
      await api(second, key)('POST', `/conversations/${conversationId}/messages`, { body: 'live again' });
      await onFirst.waitFor((all) => all.length === 4, 'the next one, live');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(bodies(onFirst), ['missed 1', 'missed 2', 'missed 3', 'live again']);
      onFirst.close();
    });

    it('hands a presence sent to one process to a team stream on the other, though it is never stored', async () => {
      const onSecond = await openStream(`${second.baseUrl}/api/v1/events/stream?types=presence`, { headers: { authorization: `Bearer ${key}` } });
      await onSecond.waitFor(() => onSecond.lastEventId !== '', 'the starting position');
      for (const state of ['viewing', 'typing', 'gone']) {
        const sent = await api(first, key)('POST', `/conversations/${conversationId}/presence`, { state });
        const events = await onSecond.waitFor((all) => all.some((event) => JSON.parse(event.data).data.state === state), `${state} on the other process`, DELIVERY_LIMIT_MS);
        assert.deepEqual(JSON.parse(events.at(-1)!.data).data, sent);
      }
      assert.deepEqual(onSecond.events.map((event) => event.event), ['presence', 'presence', 'presence']);
      onSecond.close();
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`event streams at SIGTERM [${dialect}]`, () => {
    it('ends the open streams and exits without waiting for the grace period', async () => {
      const server = await startServer({ databaseUrl: await freshDatabaseUrl(dialect), firstStart: true, env: { LOOPDESK_SHUTDOWN_GRACE_MS: '20000' } });
      const key = server.bootstrapKey()!;
      const streams = await Promise.all([stream(server, key), stream(server, key), stream(server, key)]);
      await Promise.all(streams.map((s) => s.waitFor(() => s.lastEventId !== '', 'the starting position')));
      const started = Date.now();
      const exited = server.process.stop('SIGTERM');
      await Promise.all(streams.map((s) => s.ended));
      const { code } = await exited;
      const elapsed = Date.now() - started;
      assert.equal(code, 0);
      assert.ok(elapsed < 5_000, `exited after ${elapsed} ms`);
    });
  });
}
