// A visitor's conversations through the widget (docs/widget.md): what visitors see (an exact
// allow-list), whose conversations they see, replies, ratings, and the team's view of them.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { identitySecret, signIdentity, startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const SUMMARY_KEYS = ['created_at', 'id', 'rating', 'status', 'title', 'type', 'updated_at'];
const DETAIL_KEYS = [...SUMMARY_KEYS, 'messages'].sort();
const MESSAGE_KEYS = ['body', 'created_at', 'id', 'sender_name', 'sender_type'];

async function visitorOf(ctx: TestContext, widgetKey: string, body: Record<string, unknown> = {}) {
  const session = await startSession(ctx, widgetKey, body);
  const client = visitor(ctx, session.token);
  return {
    session,
    get: (path: string) => client.get(widgetPath(widgetKey, path)),
    post: (path: string, payload: unknown) => client.post(widgetPath(widgetKey, path), payload),
    put: (path: string, payload: unknown) => client.request('PUT', widgetPath(widgetKey, path), { body: payload }),
  };
}

describeEachDialect('visitor conversations', (ctx) => {
  it('starts a chat whose title is the body\'s first line cut to 80 characters, and shows exactly the allowed fields', async () => {
    const product = await widgetProduct(ctx());
    const ada = await visitorOf(ctx(), product.widget_key, { name: 'Ada', email: 'ada-chat@example.com' });
    const body = `\n  ${'x'.repeat(100)}  \nSecond line`;
    const res = await ada.post('/conversations', { body });
    assert.equal(res.status, 201);
    const conversation = res.body.data;
    assert.deepEqual(Object.keys(conversation).sort(), DETAIL_KEYS);
    assert.equal(conversation.title, 'x'.repeat(80));
    assert.deepEqual([conversation.type, conversation.status, conversation.rating], ['chat', 'open', null]);
    assert.deepEqual(Object.keys(conversation.messages[0]).sort(), MESSAGE_KEYS);
    assert.deepEqual([conversation.messages[0].sender_type, conversation.messages[0].sender_name, conversation.messages[0].body], ['contact', 'Ada', body]);

    const list = await ada.get('/conversations');
    assert.deepEqual(list.body.pagination, { total: 1, limit: 50, offset: 0 });
    assert.deepEqual(Object.keys(list.body.data[0]).sort(), SUMMARY_KEYS);
    const detail = await ada.get(`/conversations/${conversation.id}`);
    assert.deepEqual(detail.body.data, conversation);
  });

  it('takes a type and a title, and validates them as the API does', async () => {
    const product = await widgetProduct(ctx());
    const ada = await visitorOf(ctx(), product.widget_key);
    const idea = await ada.post('/conversations', { type: 'idea', title: '  Dark mode ', body: 'Please' });
    assert.deepEqual([idea.body.data.type, idea.body.data.title], ['idea', 'Dark mode']);
    const bad = await ada.post('/conversations', { type: 'bug', title: ' ', body: '   ', priority: 'high' });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body.fields).sort(), ['body', 'priority', 'title', 'type']);
    assert.equal((await ada.post('/conversations', { body: 'x'.repeat(50_001) })).status, 400);
    assert.equal((await ada.post('/conversations', { body: 'a\u0000' })).status, 400);
  });

  it('shows the team\'s replies, never ai_summary, member ids or other contacts', async () => {
    const product = await widgetProduct(ctx());
    const ada = await visitorOf(ctx(), product.widget_key, { name: 'Ada' });
    const { id } = (await ada.post('/conversations', { body: 'Help' })).body.data;
    const reply = await ctx().a.api.post(`/api/v1/conversations/${id}/messages`, { body: 'On it!' });
    assert.equal(reply.status, 201);
    const detail = (await ada.get(`/conversations/${id}`)).body.data;
    assert.deepEqual(detail.messages.map((m: any) => [m.sender_type, m.sender_name, m.body]), [['contact', 'Ada', 'Help'], ['agent', 'Alpha Owner', 'On it!']]);
    const text = JSON.stringify(detail);
    assert.ok(!text.includes(ctx().a.owner.id) && !text.includes('ai_summary') && !text.includes('sender_id'));
  });

  it('lets an unverified visitor see only the conversations their session started', async () => {
    const product = await widgetProduct(ctx());
    const email = `shared-${Date.now()}@example.com`;
    const first = await visitorOf(ctx(), product.widget_key, { email });
    const second = await visitorOf(ctx(), product.widget_key, { email });
    const mine = (await first.post('/conversations', { body: 'Mine' })).body.data;
    const imported = await importConversation(ctx().a.api, product.id, { contact: { email } });
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${mine.id}`)).body.data.contact_id, imported.contact_id, 'one contact for the email');
    assert.deepEqual((await second.get('/conversations')).body.data, []);
    for (const id of [mine.id, imported.id]) {
      for (const res of [
        await second.get(`/conversations/${id}`), await second.post(`/conversations/${id}/messages`, { body: 'Hi' }),
        await second.put(`/conversations/${id}/rating`, { rating: 5 }), await second.post(`/conversations/${id}/messages`, { nope: 1 }),
      ]) {
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.error_code, 'not_found');
      }
    }
    assert.equal((await first.get('/conversations')).body.pagination.total, 1);
  });

  it('lets a verified visitor see every conversation of their contact in this product, from any device', async () => {
    const product = await widgetProduct(ctx());
    const secret = await identitySecret(ctx(), product.id);
    const token = await signIdentity(secret, { sub: 'dev-1', aud: product.widget_key, email: `dev-${Date.now()}@example.com` });
    const laptop = await visitorOf(ctx(), product.widget_key, { identity_token: token });
    const phone = await visitorOf(ctx(), product.widget_key, { identity_token: token });
    const started = (await laptop.post('/conversations', { body: 'From the laptop' })).body.data;
    const imported = await importConversation(ctx().a.api, product.id, { contact: { email: laptop.session.contact.email } });
    const seen = (await phone.get('/conversations')).body.data.map((c: { id: string }) => c.id);
    assert.deepEqual(seen, [imported.id, started.id]);
    assert.equal((await phone.get(`/conversations/${started.id}`)).status, 200);
    const team = await ctx().a.api.get(`/api/v1/conversations/${started.id}`);
    assert.equal(team.body.data.contact.verified, true);
  });

  it('answers 404 for another product\'s or another workspace\'s conversation, and for malformed ids', async () => {
    const product = await widgetProduct(ctx());
    const other = await widgetProduct(ctx());
    const foreign = await widgetProduct(ctx(), {}, ctx().b.api);
    const elsewhere = await visitorOf(ctx(), other.widget_key);
    const theirs = (await elsewhere.post('/conversations', { body: 'Other product' })).body.data.id;
    const beta = await visitorOf(ctx(), foreign.widget_key);
    const betas = (await beta.post('/conversations', { body: 'Other workspace' })).body.data.id;
    const ada = await visitorOf(ctx(), product.widget_key);
    for (const id of [theirs, betas, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      assert.equal((await ada.get(`/conversations/${id}`)).status, 404, id);
    }
  });

  it('takes ratings from 1 to 5 and refuses 0, 6 and 1.5', async () => {
    const product = await widgetProduct(ctx());
    const ada = await visitorOf(ctx(), product.widget_key);
    const { id } = (await ada.post('/conversations', { body: 'Rate me' })).body.data;
    for (const rating of [0, 6, 1.5, '5', null]) {
      const res = await ada.put(`/conversations/${id}/rating`, { rating });
      assert.equal(res.status, 400, String(rating));
      assert.ok(res.body.fields.rating);
    }
    const rated = await ada.put(`/conversations/${id}/rating`, { rating: 4 });
    assert.equal(rated.status, 200);
    assert.deepEqual(Object.keys(rated.body.data).sort(), DETAIL_KEYS);
    assert.equal(rated.body.data.rating, 4);
    const again = await ada.put(`/conversations/${id}/rating`, { rating: 4 });
    assert.equal(again.body.data.updated_at, rated.body.data.updated_at, 'the same rating changes nothing');
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${id}`)).body.data.rating, 4);
  });

  it('replies as the contact and opens a resolved conversation again', async () => {
    const product = await widgetProduct(ctx());
    const ada = await visitorOf(ctx(), product.widget_key, { name: 'Ada' });
    const { id } = (await ada.post('/conversations', { body: 'Hello' })).body.data;
    await ctx().a.api.patch(`/api/v1/conversations/${id}`, { status: 'resolved' });
    const res = await ada.post(`/conversations/${id}/messages`, { body: 'Still broken' });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body.data).sort(), MESSAGE_KEYS);
    assert.deepEqual([res.body.data.sender_type, res.body.data.sender_name], ['contact', 'Ada']);
    const team = (await ctx().a.api.get(`/api/v1/conversations/${id}`)).body.data;
    assert.equal(team.status, 'open');
    assert.deepEqual([team.source, team.channel, team.messages.length, team.messages[1].sender_id], ['chat', 'chat', 2, team.contact_id]);
  });

  it('records the conversation\'s events through the one write path', async () => {
    const product = await widgetProduct(ctx());
    const ada = await visitorOf(ctx(), product.widget_key);
    const { id } = (await ada.post('/conversations', { body: 'Events' })).body.data;
    await ada.post(`/conversations/${id}/messages`, { body: 'More' });
    await ada.put(`/conversations/${id}/rating`, { rating: 2 });
    const events = await ctx().database.db.selectFrom('events').select(['type', 'payload']).where('workspace_id', '=', ctx().a.id).execute();
    const mine = events.filter((event) => JSON.parse(event.payload).data.id === id || JSON.parse(event.payload).data.conversation_id === id);
    assert.deepEqual(mine.map((event) => event.type), ['conversation.created', 'message.created', 'message.created', 'conversation.updated']);
    assert.equal(JSON.parse(mine[3].payload).data.previous.rating, null);
  });

  it('requires a session', async () => {
    const product = await widgetProduct(ctx());
    for (const [method, path] of [['GET', '/conversations'], ['POST', '/conversations']]) {
      const res = await ctx().client(null).request(method, widgetPath(product.widget_key, path), { body: method === 'POST' ? { body: 'x' } : undefined });
      assert.equal(res.status, 401);
    }
  });
});
