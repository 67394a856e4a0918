// docs/inbox.md: who owns a conversation (assignee_id, set by PATCH, filtered by member, `me` or
// `none`), and what a list row shows to triage by (last_message, waiting_since, sort=waiting),
// kept by the conversations' write path with every message, from the API and the widget alike.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { recorded } from '../helpers/events.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const BASE = '/api/v1/conversations';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';

/** Lets the clock move on, so successive messages have distinct times. */
const tick = () => sleep(5);

const ids = (res: { body: any }) => res.body.data.map((c: { id: string }) => c.id);

async function fresh(ctx: TestContext, overrides: Record<string, unknown> = {}) {
  return importConversation(ctx.a.api, (await createProduct(ctx.a.api)).id, overrides);
}

describeEachDialect('PATCH /api/v1/conversations/{id} assignee_id [ext]', (ctx) => {
  it('assigns a member of the workspace, shown in the answer, the detail and the list; updated_at moves', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    const data = await fresh(ctx());
    assert.equal(data.assignee_id, null);
    await tick();
    const res = await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: agent.member.id });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.assignee_id, agent.member.id);
    assert.ok(res.body.data.updated_at > data.updated_at);
    assert.equal((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.assignee_id, agent.member.id);
    const listed = await ctx().a.api.get(`${BASE}?product_id=${data.product_id}`);
    assert.equal(listed.body.data[0].assignee_id, agent.member.id);
  });

  it('resolves `me` to the caller\'s member, by key and by an agent\'s session, and null unassigns', async () => {
    const data = await fresh(ctx());
    const mine = await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: 'me' });
    assert.equal(mine.body.data.assignee_id, ctx().a.owner.id);
    const agent = await newPerson(ctx(), ctx().a);
    const theirs = await agent.app.patch(`${BASE}/${data.id}`, { assignee_id: 'me' });
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.body.data.assignee_id, agent.member.id);
    const none = await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: null });
    assert.equal(none.body.data.assignee_id, null);
  });

  it('leaves updated_at alone when the assignee is already the one given', async () => {
    const data = await fresh(ctx());
    const assigned = (await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: 'me' })).body.data;
    await tick();
    const again = await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: ctx().a.owner.id });
    assert.equal(again.body.data.updated_at, assigned.updated_at);
  });

  it('records conversation.updated with the previous assignee', async () => {
    const data = await fresh(ctx());
    const [event] = await recorded(ctx(), () => ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: 'me' }));
    assert.equal(event.type, 'conversation.updated');
    const { previous, ...resource } = event.payload.data;
    assert.deepEqual(previous, { assignee_id: null, updated_at: data.updated_at });
    assert.equal(resource.assignee_id, ctx().a.owner.id);
  });

  for (const [what, assignee, mentions] of [
    ['a uuid that names no member', UNKNOWN_ID, 'not a member'],
    ['a malformed id', 'nobody', ''],
  ] as const) {
    it(`rejects ${what} (400 fields.assignee_id), changing nothing`, async () => {
      const data = await fresh(ctx());
      assertInvalid(await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: assignee }), 'assignee_id', mentions || undefined);
      assert.equal((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.assignee_id, null);
    });
  }

  it('rejects a member of another workspace (400, not 404)', async () => {
    const data = await fresh(ctx());
    assertInvalid(await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: ctx().b.owner.id }), 'assignee_id', 'not a member');
  });

  it('rejects `me` from a key without a member', async () => {
    const data = await fresh(ctx());
    assertInvalid(await ctx().client(ctx().a.memberlessKey).patch(`${BASE}/${data.id}`, { assignee_id: 'me' }), 'assignee_id', '"me"');
  });

  it('answers 404 for another workspace\'s conversation and 403 to a read-only key', async () => {
    const data = await fresh(ctx());
    assertNotFound(await ctx().b.api.patch(`${BASE}/${data.id}`, { assignee_id: 'me' }));
    assertForbidden(await ctx().client(ctx().a.readOnlyKey).patch(`${BASE}/${data.id}`, { assignee_id: 'me' }));
    assert.equal((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.assignee_id, null);
  });

  it('unassigns the conversations of a member who is removed, each with a conversation.updated', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    const data = await fresh(ctx());
    await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: agent.member.id });
    const events = await recorded(ctx(), async () => assert.equal((await ctx().a.api.delete(`/api/v1/members/${agent.member.id}`)).status, 204));
    assert.equal((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.assignee_id, null);
    const updated = events.filter((event) => event.type === 'conversation.updated' && event.payload.data.id === data.id);
    assert.equal(updated.length, 1);
    assert.equal(updated[0].payload.data.previous.assignee_id, agent.member.id);
  });
});

describeEachDialect('GET /api/v1/conversations?assignee_id [ext]', (ctx) => {
  let productId: string;
  let agentId: string;
  /** [mine, the agent's, unassigned] */
  const created: any[] = [];
  const list = (query: string, api = ctx().a.api) => api.get(`${BASE}?product_id=${productId}&${query}`);

  it('filters by a member id, `me` and `none`, and by several at once', async () => {
    productId = (await createProduct(ctx().a.api)).id;
    agentId = (await newPerson(ctx(), ctx().a)).member.id;
    for (const assignee of ['me', agentId, null]) {
      const data = await importConversation(ctx().a.api, productId);
      await ctx().a.api.patch(`${BASE}/${data.id}`, { assignee_id: assignee });
      created.push(data);
    }
    const [mine, theirs, unassigned] = created.map((c) => c.id);
    assert.deepEqual(ids(await list(`assignee_id=${agentId}`)), [theirs]);
    assert.deepEqual(ids(await list('assignee_id=me')), [mine]);
    assert.deepEqual(ids(await list('assignee_id=none')), [unassigned]);
    assert.deepEqual(ids(await list(`assignee_id=none,%20${agentId.toUpperCase()}`)), [unassigned, theirs]);
    const both = await list('assignee_id=me,none&limit=1');
    assert.deepEqual(both.body.pagination, { total: 2, limit: 1, offset: 0 });
  });

  it('gives an empty list for a member id that names nothing, or another workspace\'s member', async () => {
    assert.deepEqual(ids(await list(`assignee_id=${UNKNOWN_ID}`)), []);
    assert.deepEqual(ids(await list(`assignee_id=${ctx().b.owner.id}`)), []);
  });

  it('rejects a malformed value, and `me` from a key without a member', async () => {
    assertInvalid(await list('assignee_id=nobody'), 'assignee_id', 'nobody');
    assertInvalid(await list('assignee_id=me', ctx().client(ctx().a.memberlessKey)), 'assignee_id', '"me"');
  });

  it('never lists another workspace\'s conversations, and works with a read-only key', async () => {
    assert.deepEqual(ids(await ctx().b.api.get(`${BASE}?assignee_id=${ctx().a.owner.id}`)), []);
    assert.deepEqual(ids(await list('assignee_id=me', ctx().client(ctx().a.readOnlyKey))), [created[0].id]);
  });
});

describeEachDialect('conversation list fields: last_message and waiting_since [ext]', (ctx) => {
  const read = async (id: string) => (await ctx().a.api.get(`${BASE}/${id}`)).body.data;

  it('starts with no last message and nobody waiting', async () => {
    const data = await fresh(ctx());
    assert.deepEqual([data.last_message, data.waiting_since], [null, null]);
  });

  it('waits from the contact\'s first unanswered message until an agent replies, and again from the next', async () => {
    const data = await fresh(ctx(), { body: 'Help' });
    assert.equal(data.waiting_since, data.created_at);
    await tick();
    await ctx().a.api.post(`${BASE}/${data.id}/messages`, { body: 'Hi' });
    const answered = await read(data.id);
    assert.equal(answered.waiting_since, null);
    assert.deepEqual(answered.last_message, { sender_type: 'agent', excerpt: 'Hi', created_at: answered.updated_at });
  });

  it('keeps the first unanswered time through later contact messages and answers of the widget visitor', async () => {
    const product = await widgetProduct(ctx());
    const session = await startSession(ctx(), product.widget_key, { name: 'Ada' });
    const path = (suffix = '') => widgetPath(product.widget_key, `/conversations${suffix}`);
    const started = (await visitor(ctx(), session.token).post(path(), { body: 'First' })).body.data;
    const first = await read(started.id);
    assert.equal(first.waiting_since, first.messages[0].created_at);
    await tick();
    await visitor(ctx(), session.token).post(path(`/${started.id}/messages`), { body: 'Still there?' });
    const second = await read(started.id);
    assert.equal(second.waiting_since, first.waiting_since);
    assert.deepEqual(second.last_message, { sender_type: 'contact', excerpt: 'Still there?', created_at: second.messages[1].created_at });
    await ctx().a.api.post(`${BASE}/${started.id}/messages`, { body: 'Yes' });
    await tick();
    await visitor(ctx(), session.token).post(path(`/${started.id}/messages`), { body: 'Thanks, one more thing' });
    const again = await read(started.id);
    assert.equal(again.waiting_since, again.messages[3].created_at);
  });

  it('shows the body on one line, at most 140 characters, an ellipsis ending a cut one', async () => {
    const data = await fresh(ctx(), { body: `  Line one\n\n\tline two ${'x'.repeat(200)}` });
    const { excerpt } = data.last_message;
    assert.equal([...excerpt].length, 140);
    assert.ok(excerpt.startsWith('Line one line two xxx'));
    assert.ok(excerpt.endsWith('…'));
    const emoji = await fresh(ctx(), { body: '😀'.repeat(140) });
    assert.equal(emoji.last_message.excerpt, '😀'.repeat(140), '140 code points fit whole');
  });

  it('sort=waiting lists the longest waiting first, those nobody waits on last', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const noMessage = await importConversation(ctx().a.api, productId);
    const older = await importConversation(ctx().a.api, productId, { body: 'older' });
    await tick();
    const newer = await importConversation(ctx().a.api, productId, { body: 'newer' });
    const answered = await importConversation(ctx().a.api, productId, { body: 'answered' });
    await ctx().a.api.post(`${BASE}/${answered.id}/messages`, { body: 'Done' });
    await tick();
    const newest = await importConversation(ctx().a.api, productId, { body: 'newest' });
    const waiting = await ctx().a.api.get(`${BASE}?product_id=${productId}&sort=waiting`);
    assert.deepEqual(ids(waiting).slice(0, 3), [older.id, newer.id, newest.id]);
    assert.deepEqual(new Set(ids(waiting).slice(3)), new Set([noMessage.id, answered.id]));
    assert.deepEqual(ids(await ctx().a.api.get(`${BASE}?product_id=${productId}&sort=newest`)), [newest, answered, newer, older, noMessage].map((c) => c.id));
    const paged = await ctx().a.api.get(`${BASE}?product_id=${productId}&sort=waiting&limit=2&offset=1`);
    assert.deepEqual(ids(paged), [newer.id, newest.id]);
    assert.equal(paged.body.pagination.total, 5);
  });

  it('rejects an unknown sort', async () => {
    assertInvalid(await ctx().a.api.get(`${BASE}?sort=oldest`), 'sort');
  });
});
