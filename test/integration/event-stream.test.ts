// GET /api/v1/events/stream [ext] on a listening server: the workspace's events as Server-Sent
// Events (event/id/data with the webhook payload), the types filter, resuming with Last-Event-ID
// (each missed event once), heartbeats, read-only keys, other workspaces, validation, and streams
// ended when the live channel closes or their credential stops working.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { newPerson, withSession } from '../helpers/sessions.js';
import { endedWithin, openStream, type SseEvent, type SseStream } from '../helpers/sse-client.js';

const HEARTBEAT_MS = 150;
const PATH = '/api/v1/events/stream';

async function listen(context: TestContext): Promise<string> {
  if (!context.app.server.listening) await context.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
}

const open = (base: string, key: string, query = '', headers: Record<string, string> = {}) =>
  openStream(`${base}${PATH}${query}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

/** The stored payloads of the workspace's events, by id. */
async function storedPayloads(context: TestContext, workspaceId: string): Promise<Map<string, unknown>> {
  const rows = await context.database.db.selectFrom('events').select(['id', 'payload']).where('workspace_id', '=', workspaceId).execute();
  return new Map(rows.map((row) => [row.id, JSON.parse(row.payload)]));
}

const postMessage = async (context: TestContext, conversationId: string, body: string) => {
  const res = await context.a.api.post(`/api/v1/conversations/${conversationId}/messages`, { body });
  assert.equal(res.status, 201);
  return res.body.data;
};

const bodiesOf = (events: SseEvent[]) => events.filter((e) => e.event === 'message.created').map((e) => JSON.parse(e.data).data.body);

describeEachDialect('GET /api/v1/events/stream', (ctx) => {
  let base = '';
  let conversationId = '';
  before(async () => {
    base = await listen(ctx());
    conversationId = (await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id)).id;
  });
  const streams: SseStream[] = [];
  const track = (stream: SseStream) => (streams.push(stream), stream);

  it('streams each committed change as event, id and the webhook payload', async () => {
    const context = ctx();
    const stream = track(await open(base, context.a.key, '', { 'x-request-id': 'stream-1' }));
    assert.equal(stream.status, 200);
    assert.equal(stream.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(stream.headers['cache-control'], 'no-cache');
    assert.equal(stream.headers['x-accel-buffering'], 'no');
    assert.equal(stream.headers['x-request-id'], 'stream-1');
    await stream.waitFor(() => stream.lastEventId !== '', 'the starting position');
    assert.equal(stream.retryMs, 1000);
    const conversation = await importConversation(context.a.api, (await createProduct(context.a.api)).id, { body: 'First words' });
    const events = await stream.waitFor((all) => all.length >= 3, 'three events');
    assert.deepEqual(events.map((e) => e.event), ['product.created', 'conversation.created', 'message.created']);
    const stored = await storedPayloads(context, context.a.id);
    for (const event of events) assert.deepEqual(JSON.parse(event.data), stored.get(event.id), `${event.event} is the stored payload`);
    assert.deepEqual(JSON.parse(events[1].data).data, conversation);
    stream.close();
  });

  it('sends only the types asked for', async () => {
    const context = ctx();
    const stream = track(await open(base, context.a.key, '?types=message.created, conversation.updated'));
    await postMessage(context, conversationId, 'Typed');
    assert.equal((await context.a.api.patch(`/api/v1/conversations/${conversationId}`, { priority: 'high' })).status, 200);
    await createProduct(context.a.api);
    const events = await stream.waitFor((all) => all.length >= 2, 'two events');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(stream.events.map((e) => e.event), ['message.created', 'conversation.updated']);
    assert.equal(JSON.parse(events[1].data).data.previous.priority, 'normal');
    stream.close();
  });

  it('never shows another workspace\'s events', async () => {
    const context = ctx();
    const theirs = track(await open(base, context.b.key));
    const ours = track(await open(base, context.a.key));
    await postMessage(context, conversationId, 'Private to A');
    await createProduct(context.b.api, { name: 'Beta marker' });
    await ours.waitFor((all) => all.length >= 1, 'A\'s event');
    const [event] = await theirs.waitFor((all) => all.length >= 1, 'B\'s own event');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(theirs.events.map((e) => e.event), ['product.created']);
    assert.equal(JSON.parse(event.data).data.name, 'Beta marker');
    assert.ok(!theirs.events.some((e) => e.data.includes('Private to A')));
    theirs.close();
    ours.close();
  });

  it('lets read-only and member-less keys stream', async () => {
    const context = ctx();
    for (const key of [context.a.readOnlyKey, context.a.memberlessKey]) {
      const stream = track(await open(base, key));
      assert.equal(stream.status, 200);
      await postMessage(context, conversationId, `For ${key.slice(0, 8)}`);
      await stream.waitFor((all) => all.length >= 1, 'the event');
      stream.close();
    }
  });

  it('streams to a person signed in to the app: EventSource sends the session cookie, and no Origin', async () => {
    const context = ctx();
    const person = await newPerson(context, context.a);
    const stream = track(await openStream(`${base}${PATH}?types=message.created`, { headers: { cookie: person.cookie } }));
    assert.equal(stream.status, 200);
    await postMessage(context, conversationId, 'For the app');
    await stream.waitFor((all) => all.length >= 1, 'the event');
    assert.deepEqual(bodiesOf(stream.events), ['For the app']);
    stream.close();
  });

  it('ends a stream at the next heartbeat once its key is revoked or its session signed out; reconnecting gets 401', async () => {
    const context = ctx();
    const key = await context.services.admin.createKey({ workspaceId: context.a.id, memberId: context.a.owner.id });
    const byKey = track(await open(base, key.key));
    const person = await newPerson(context, context.a);
    const bySession = track(await openStream(`${base}${PATH}`, { headers: { cookie: person.cookie } }));
    await Promise.all([byKey.waitForComments(1), bySession.waitForComments(1)]);

    await context.services.admin.revokeKey(key.id);
    await endedWithin(byKey, 2_000);
    assert.equal((await open(base, key.key)).status, 401);
    await bySession.waitForComments(bySession.comments.length + 2);
    assert.equal((await withSession(context, person.cookie).post('/auth/sign-out')).status, 204);
    await endedWithin(bySession, 2_000);
    assert.equal((await openStream(`${base}${PATH}`, { headers: { cookie: person.cookie } })).status, 401);
  });

  it('replays exactly what was missed after Last-Event-ID, then goes on live', async () => {
    const context = ctx();
    const first = track(await open(base, context.a.key, '?types=message.created'));
    await postMessage(context, conversationId, 'm1');
    await postMessage(context, conversationId, 'm2');
    await first.waitFor((all) => all.length === 2, 'two messages');
    first.close();
    await first.ended;
    for (const body of ['m3', 'm4', 'm5']) await postMessage(context, conversationId, body);

    const second = track(await open(base, context.a.key, '?types=message.created', { 'last-event-id': first.lastEventId }));
    await second.waitFor((all) => all.length === 3, 'the three missed messages');
    await postMessage(context, conversationId, 'm6');
    await second.waitFor((all) => all.length === 4, 'the live one after them');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(bodiesOf(second.events), ['m3', 'm4', 'm5', 'm6']);
    assert.equal(new Set(second.events.map((e) => e.id)).size, 4);
    second.close();
  });

  it('resumes from where a stream started when it saw no event before the client reconnected', async () => {
    const context = ctx();
    const first = track(await open(base, context.a.key, '?types=message.created'));
    await first.waitFor(() => first.lastEventId !== '', 'the starting position');
    first.close();
    await postMessage(context, conversationId, 'while away');
    const second = track(await open(base, context.a.key, '?types=message.created', { 'last-event-id': first.lastEventId }));
    await second.waitFor((all) => all.length === 1, 'the message sent while away');
    assert.deepEqual(bodiesOf(second.events), ['while away']);
    second.close();
  });

  it(`sends a heartbeat comment every ${HEARTBEAT_MS} ms (LOOPDESK_SSE_HEARTBEAT_MS)`, async () => {
    const context = ctx();
    const stream = track(await open(base, context.a.key));
    const started = Date.now();
    await stream.waitForComments(3, 5_000);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 2 * HEARTBEAT_MS, `3 heartbeats after ${elapsed} ms`);
    assert.deepEqual([...new Set(stream.comments)], ['heartbeat']);
    stream.close();
  });

  it('answers 401 without a valid key and 400 for a bad filter or Last-Event-ID', async () => {
    const context = ctx();
    for (const [key, status] of [[null, 401], [context.a.revokedKey, 401]] as const) {
      const res = await context.client(key).get(PATH);
      assert.equal(res.status, status);
      assert.equal(res.body.error_code, 'unauthorized');
    }
    const badType = await context.a.api.get(`${PATH}?types=message.created,message.deleted`);
    assert.equal(badType.status, 400);
    assert.match(badType.body.fields.types, /message\.deleted/);
    const badId = await context.a.api.get(PATH, { headers: { 'last-event-id': 'not-an-id' } });
    assert.equal(badId.status, 400);
    assert.ok(badId.body.fields['last-event-id']);
  });

  it('leaves no subscriber behind once its clients are gone', async () => {
    const context = ctx();
    for (const stream of streams) stream.close();
    const deadline = Date.now() + 5_000;
    while (context.services.live.subscriberCount() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(context.services.live.subscriberCount(), 0);
  });
}, { streams: { heartbeatMs: HEARTBEAT_MS } });

describeEachDialect('event streams at shutdown', (ctx) => {
  it('ends every open stream when the live channel closes', async () => {
    const context = ctx();
    const base = await listen(context);
    const stream = await open(base, context.a.key);
    await stream.waitFor(() => stream.lastEventId !== '', 'the starting position');
    await context.services.live.close();
    await stream.ended;
    const late = await open(base, context.a.key);
    assert.equal(late.status, 200);
    await late.ended;
  });
});

describeEachDialect('event streams at their maximum age', (ctx) => {
  it('ends a stream after LOOPDESK_SSE_MAX_MS', async () => {
    const context = ctx();
    const stream = await open(await listen(context), context.a.key);
    const started = Date.now();
    await stream.ended;
    assert.ok(Date.now() - started < 5_000);
  });
}, { streams: { maxStreamMs: 200 } });
