// GET /widget/v1/{widget_key}/conversations/{id}/events (docs/widget.md): the team's replies and
// status changes reach an open widget as Server-Sent Events, in the visitor's shapes; Last-Event-ID
// resumes; heartbeats; only the visitor's own conversations; the stream ends with the session.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sha256Hex } from '../../src/lib/tokens.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { endedWithin, openStream, type SseEvent } from '../helpers/sse-client.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const DELIVERY_LIMIT_MS = 2_000;
const OPENING = 'Hello';

/**
 * The events a stream carried but the visitor's opening message: a stream opened right after the
 * conversation was created may still get it, when its fan-out (LISTEN/NOTIFY on PostgreSQL) was
 * under way (a fresh stream sends what commits after it opens and may send what just committed;
 * the widget shows messages by id).
 */
const afterOpening = (events: SseEvent[]) =>
  events.filter((event) => !(event.event === 'message' && JSON.parse(event.data).body === OPENING && JSON.parse(event.data).sender_type === 'contact'));

/**
 * Listens for the block's tests (and stops after them); returns a maker of visitor conversations,
 * each with `open(headers?, token?)` to open its event stream on the listening server.
 */
function listeningConversations(ctx: () => TestContext) {
  let base = '';
  before(async () => {
    base = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await ctx().app.server.close();
  });
  return async function conversation(context: TestContext) {
    const product = await widgetProduct(context);
    const session = await startSession(context, product.widget_key, { name: 'Ada' });
    const created = await visitor(context, session.token).post(widgetPath(product.widget_key, '/conversations'), { body: OPENING });
    const id: string = created.body.data.id;
    const open = (headers: Record<string, string> = {}, token = session.token) =>
      openStream(`${base}${widgetPath(product.widget_key, `/conversations/${id}/events`)}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
    return { product, session, id, open };
  };
}

describeEachDialect('the widget\'s conversation stream', (ctx) => {
  const conversation = listeningConversations(ctx);

  it('brings the team\'s reply as event: message in the visitor\'s shape, within 2 s, and status changes as event: status', async () => {
    const { id, open } = await conversation(ctx());
    const stream = await open();
    assert.equal(stream.status, 200);
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    const sent = performance.now();
    await ctx().a.api.post(`/api/v1/conversations/${id}/messages`, { body: 'We are on it' });
    const [reply] = afterOpening(await stream.waitFor((events) => afterOpening(events).length === 1, 'the reply', DELIVERY_LIMIT_MS));
    assert.ok(reply.receivedAt - sent < DELIVERY_LIMIT_MS);
    assert.equal(reply.event, 'message');
    const message = JSON.parse(reply.data);
    assert.deepEqual(Object.keys(message).sort(), ['body', 'created_at', 'id', 'sender_name', 'sender_type']);
    assert.deepEqual([message.sender_type, message.sender_name, message.body], ['agent', 'Alpha Owner', 'We are on it']);

    await ctx().a.api.patch(`/api/v1/conversations/${id}`, { priority: 'high' });
    await ctx().a.api.patch(`/api/v1/conversations/${id}`, { status: 'resolved' });
    const events = afterOpening(await stream.waitFor((all) => afterOpening(all).length === 2, 'the status'));
    assert.deepEqual([events[1].event, JSON.parse(events[1].data)], ['status', { status: 'resolved' }]);
    stream.close();
  });

  it('[ext] never sends the team\'s internal notes, live or replayed after Last-Event-ID', async () => {
    const { id, open } = await conversation(ctx());
    const live = await open();
    await ctx().a.api.post(`/api/v1/conversations/${id}/notes`, { body: 'Internal: refund is not due' });
    await ctx().a.api.post(`/api/v1/conversations/${id}/messages`, { body: 'Seen' });
    const [reply] = afterOpening(await live.waitFor((events) => afterOpening(events).length === 1, 'the reply'));
    assert.equal(JSON.parse(reply.data).body, 'Seen');
    live.close();
    await ctx().a.api.post(`/api/v1/conversations/${id}/notes`, { body: 'Internal: while away' });
    await ctx().a.api.post(`/api/v1/conversations/${id}/messages`, { body: 'Missed' });
    const again = await open({ 'last-event-id': live.lastEventId });
    await ctx().a.api.post(`/api/v1/conversations/${id}/notes`, { body: 'Internal: live again' });
    await ctx().a.api.post(`/api/v1/conversations/${id}/messages`, { body: 'Live' });
    // Waits for the live reply, which comes after every note: whatever else arrived came before it.
    const events = await again.waitFor((all) => all.some((event) => JSON.parse(event.data).body === 'Live'), 'the live reply');
    assert.ok(events.some((event) => JSON.parse(event.data).body === 'Missed'), 'the missed reply');
    assert.ok(![...live.events, ...again.events].some((event) => event.data.includes('Internal')));
    again.close();
  });

  it('replays what was missed after Last-Event-ID, once', async () => {
    const { id, open } = await conversation(ctx());
    const first = await open();
    await ctx().a.api.post(`/api/v1/conversations/${id}/messages`, { body: 'seen' });
    await first.waitFor((events) => afterOpening(events).length === 1, 'the first reply');
    first.close();
    for (const body of ['missed 1', 'missed 2']) await ctx().a.api.post(`/api/v1/conversations/${id}/messages`, { body });
    const again = await open({ 'last-event-id': first.lastEventId });
    await ctx().a.api.post(`/api/v1/conversations/${id}/messages`, { body: 'live' });
    const events = afterOpening(await again.waitFor((all) => afterOpening(all).length === 3, 'the missed replies and the live one'));
    assert.deepEqual(events.map((event) => JSON.parse(event.data).body), ['missed 1', 'missed 2', 'live']);
    again.close();
  });

  it('answers 404 for a conversation the visitor cannot see, 401 without a session, 400 for a malformed Last-Event-ID', async () => {
    const { product, id, open } = await conversation(ctx());
    const stranger = await startSession(ctx(), product.widget_key);
    const foreign = await open({}, stranger.token);
    assert.equal(foreign.status, 404);
    assert.equal(JSON.parse(await foreign.body()).error_code, 'not_found');
    assert.equal((await ctx().client(null).get(widgetPath(product.widget_key, `/conversations/${id}/events`))).status, 401);
    const malformed = await open({ 'last-event-id': 'nope' });
    assert.equal(malformed.status, 400);
  });
});

describeEachDialect('the widget\'s conversation stream, heartbeats', (ctx) => {
  const conversation = listeningConversations(ctx);

  it('sends a heartbeat comment on an idle stream', async () => {
    const stream = await (await conversation(ctx())).open();
    await stream.waitForComments(2);
    assert.deepEqual(stream.comments.slice(0, 2), ['heartbeat', 'heartbeat']);
    stream.close();
  });

  it('ends the stream at the next heartbeat once the visitor session has ended; reconnecting gets 401', async () => {
    const context = ctx();
    const { session, open } = await conversation(context);
    const stream = await open();
    await stream.waitForComments(1);
    // As the housekeeping removes a session unused for 30 days.
    await context.database.db.deleteFrom('widget_sessions').where('token_hash', '=', sha256Hex(session.token)).execute();
    await endedWithin(stream, 2_000);
    assert.equal((await open()).status, 401);
  });
}, { streams: { heartbeatMs: 50 } });
