// POST /api/v1/conversations/{id}/presence [ext] (docs/automation.md, "Collision"): a presence
// reaches every stream of the workspace as a `presence` event without an id, is never stored (so no
// webhook and no replay), and is validated, scoped to the workspace and limited per credential.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { newPerson } from '../helpers/sessions.js';
import { openStream } from '../helpers/sse-client.js';

async function listen(context: TestContext): Promise<string> {
  if (!context.app.server.listening) await context.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
}

const stream = (base: string, key: string, query = '') =>
  openStream(`${base}/api/v1/events/stream${query}`, { headers: { authorization: `Bearer ${key}` } });

const storedEvents = async (context: TestContext) =>
  (await context.database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()).count;

const presencePath = (id: string) => `/api/v1/conversations/${id}/presence`;

describeEachDialect('POST /api/v1/conversations/{id}/presence', (ctx) => {
  let base = '';
  let conversationId = '';
  before(async () => {
    base = await listen(ctx());
    conversationId = (await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id)).id;
  });

  it('tells every stream of the workspace who is viewing, for 30 s, without storing anything', async () => {
    const context = ctx();
    const ana = await newPerson(context, context.a);
    const watching = await stream(base, context.a.key, '?types=presence,message.created');
    await watching.waitFor(() => watching.lastEventId !== '', 'the starting position');
    const position = watching.lastEventId;
    const stored = await storedEvents(context);

    const res = await ana.app.post(presencePath(conversationId), { state: 'viewing' });
    assert.equal(res.status, 200);
    const presence = res.body.data;
    assert.deepEqual(presence.member, { id: ana.member.id, display_name: ana.member.display_name });
    assert.equal(presence.conversation_id, conversationId);
    assert.equal(presence.state, 'viewing');
    const held = Date.parse(presence.expires_at) - Date.now();
    assert.ok(held > 20_000 && held <= 30_000, `holds for ${held} ms`);

    const [event] = await watching.waitFor((all) => all.length === 1, 'the presence event');
    assert.equal(event.event, 'presence');
    const payload = JSON.parse(event.data);
    assert.equal(payload.type, 'presence');
    assert.deepEqual(payload.data, presence);
    // No id: the stream's resume position stays where it was, and nothing was recorded (no webhook, no replay).
    assert.equal(watching.lastEventId, position);
    assert.equal(await storedEvents(context), stored);
    watching.close();
  });

  it('sends typing, and gone that expires at once', async () => {
    const context = ctx();
    const watching = await stream(base, context.a.key, '?types=presence');
    for (const state of ['typing', 'gone']) {
      assert.equal((await context.a.api.post(presencePath(conversationId.toUpperCase()), { state })).status, 200);
    }
    const events = await watching.waitFor((all) => all.length === 2, 'typing, then gone');
    const [typing, gone] = events.map((event) => JSON.parse(event.data).data);
    assert.deepEqual([typing.state, gone.state], ['typing', 'gone']);
    assert.equal(gone.conversation_id, conversationId);
    assert.ok(Date.parse(gone.expires_at) <= Date.now());
    watching.close();
  });

  it('is left out of a stream filtered to other types', async () => {
    const context = ctx();
    const messages = await stream(base, context.a.key, '?types=message.created');
    assert.equal((await context.a.api.post(presencePath(conversationId), { state: 'viewing' })).status, 200);
    assert.equal((await context.a.api.post(`/api/v1/conversations/${conversationId}/messages`, { body: 'After the presence' })).status, 201);
    const [event] = await messages.waitFor((all) => all.length === 1, 'the message');
    assert.equal(event.event, 'message.created');
    messages.close();
  });

  it('rejects a missing or unknown state and other fields (400)', async () => {
    const api = ctx().a.api;
    for (const body of [{}, { state: 'reading' }, { state: null }]) {
      const res = await api.post(presencePath(conversationId), body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields?.state, JSON.stringify(res.body));
    }
    const extra = await api.post(presencePath(conversationId), { state: 'viewing', note: 'x' });
    assert.equal(extra.status, 400);
  });

  it('answers 404 for an unknown or malformed conversation id', async () => {
    const api = ctx().a.api;
    for (const id of ['0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', 'not-a-uuid']) {
      const res = await api.post(presencePath(id), { state: 'viewing' });
      assert.equal(res.status, 404);
      assert.equal(res.body.error_code, 'not_found');
    }
  });

  it('keeps workspaces apart: another workspace\'s conversation is 404 and its streams hear nothing', async () => {
    const context = ctx();
    const theirs = await stream(base, context.b.key, '?types=presence');
    const ours = await stream(base, context.a.key, '?types=presence');
    const res = await context.b.api.post(presencePath(conversationId), { state: 'viewing' });
    assert.equal(res.status, 404);
    assert.equal((await context.a.api.post(presencePath(conversationId), { state: 'typing' })).status, 200);
    await ours.waitFor((all) => all.length === 1, 'our own presence');
    // Our stream heard the later presence, so theirs would have heard the earlier one by now.
    assert.equal(theirs.events.length, 0);
    for (const s of [theirs, ours]) s.close();
  });

  it('refuses read-only keys and keys without a member (403)', async () => {
    const context = ctx();
    for (const key of [context.a.readOnlyKey, context.a.memberlessKey]) {
      const res = await context.client(key).post(presencePath(conversationId), { state: 'viewing' });
      assert.equal(res.status, 403);
      assert.equal(res.body.error_code, 'forbidden');
    }
  });
});

const clock = manualClock();

describeEachDialect('presence announcements per minute [ext]', (ctx) => {
  it('allows 120 a minute per credential, then answers 429 with Retry-After', async () => {
    const api = ctx().a.api;
    const conversationId = (await importConversation(api, (await createProduct(api)).id)).id;
    for (let i = 0; i < 120; i++) assert.equal((await api.post(presencePath(conversationId), { state: 'viewing' })).status, 200, `announcement ${i + 1}`);
    const refused = await api.post(presencePath(conversationId), { state: 'viewing' });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    clock.advance(1_000);
    assert.equal((await api.post(presencePath(conversationId), { state: 'viewing' })).status, 200);
  });
}, { rateLimitPerMinute: 100_000, clock });
