// /api/v1/saved-replies and POST /conversations/{id}/messages with saved_reply_id (docs/inbox.md):
// every member reads and posts saved replies, the settings role writes them; posting one fills
// its placeholders for the conversation and the sender.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, unique, type Client, type TestContext } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';

const BASE = '/api/v1/saved-replies';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';

async function createSavedReply(api: Client, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post(BASE, { title: unique('Reply'), body: 'Thanks for writing in!', ...overrides });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

describeEachDialect('saved replies CRUD [ext]', (ctx) => {
  it('creates one (title trimmed, body as sent) and reads it back by id and in the list, oldest first', async () => {
    const res = await ctx().a.api.post(BASE, { title: '  Fix shipped ', body: ' Hi {{contact.first_name}},\n' });
    assert.equal(res.status, 201, res.text);
    const { id, created_at, ...rest } = res.body.data;
    assert.deepEqual(rest, { title: 'Fix shipped', body: ' Hi {{contact.first_name}},\n', updated_at: created_at });
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${id}`)).body.data, res.body.data);
    const second = await createSavedReply(ctx().a.api);
    const list = await ctx().a.api.get(`${BASE}?limit=200`);
    const listed = list.body.data.map((reply: any) => reply.id);
    assert.ok(listed.indexOf(id) < listed.indexOf(second.id));
    assert.equal(list.body.pagination.total, listed.length);
  });

  it('PATCH changes title and body; updated_at moves only on an effective change', async () => {
    const reply = await createSavedReply(ctx().a.api, { title: 'Old' });
    await sleep(5);
    const same = await ctx().a.api.patch(`${BASE}/${reply.id}`, { title: 'Old' });
    assert.equal(same.body.data.updated_at, reply.updated_at);
    const changed = await ctx().a.api.patch(`${BASE}/${reply.id}`, { title: ' New ', body: 'New body' });
    assert.equal(changed.status, 200);
    assert.deepEqual([changed.body.data.title, changed.body.data.body], ['New', 'New body']);
    assert.ok(changed.body.data.updated_at > reply.updated_at);
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${reply.id}`)).body.data, changed.body.data);
  });

  it('DELETE answers 204, then the saved reply is gone', async () => {
    const reply = await createSavedReply(ctx().a.api);
    const res = await ctx().a.api.delete(`${BASE}/${reply.id}`);
    assert.equal(res.status, 204);
    assertNotFound(await ctx().a.api.get(`${BASE}/${reply.id}`));
    assertNotFound(await ctx().a.api.delete(`${BASE}/${reply.id}`));
  });

  for (const [what, body, field] of [
    ['a missing title', { body: 'x' }, 'title'],
    ['a blank title', { title: '   ', body: 'x' }, 'title'],
    ['a title over 200 characters', { title: 't'.repeat(201), body: 'x' }, 'title'],
    ['a missing body', { title: 'x' }, 'body'],
    ['a blank body', { title: 'x', body: ' \n ' }, 'body'],
    ['a body over 50,000 characters', { title: 'x', body: 'b'.repeat(50_001) }, 'body'],
    ['an unknown field', { title: 'x', body: 'x', shared: true }, 'shared'],
  ] as const) {
    it(`POST rejects ${what}`, async () => assertInvalid(await ctx().a.api.post(BASE, body), field));
  }

  for (const [what, body, field] of [
    ['a blank title', { title: ' ' }, 'title'],
    ['a null body', { body: null }, 'body'],
    ['an unknown field', { id: UNKNOWN_ID }, 'id'],
  ] as const) {
    it(`PATCH rejects ${what}`, async () => {
      const reply = await createSavedReply(ctx().a.api);
      assertInvalid(await ctx().a.api.patch(`${BASE}/${reply.id}`, body), field);
    });
  }

  it('answers 404 for a malformed or unknown id (before the body), on every method', async () => {
    for (const id of ['nope', UNKNOWN_ID]) {
      assertNotFound(await ctx().a.api.get(`${BASE}/${id}`));
      assertNotFound(await ctx().a.api.patch(`${BASE}/${id}`, { title: '' }));
      assertNotFound(await ctx().a.api.delete(`${BASE}/${id}`));
    }
  });

  it('keeps each workspace\'s saved replies its own', async () => {
    const reply = await createSavedReply(ctx().a.api);
    assertNotFound(await ctx().b.api.get(`${BASE}/${reply.id}`));
    assertNotFound(await ctx().b.api.patch(`${BASE}/${reply.id}`, { title: 'Taken' }));
    assertNotFound(await ctx().b.api.delete(`${BASE}/${reply.id}`));
    assert.ok(!(await ctx().b.api.get(`${BASE}?limit=200`)).body.data.some((r: any) => r.id === reply.id));
    assert.equal((await ctx().a.api.get(`${BASE}/${reply.id}`)).body.data.title, reply.title);
  });

  it('lets read-only keys read, and nothing else', async () => {
    const reply = await createSavedReply(ctx().a.api);
    const readOnly = ctx().client(ctx().a.readOnlyKey);
    assert.equal((await readOnly.get(BASE)).status, 200);
    assert.equal((await readOnly.get(`${BASE}/${reply.id}`)).status, 200);
    assertForbidden(await readOnly.post(BASE, { title: 'x', body: 'x' }));
    assertForbidden(await readOnly.patch(`${BASE}/${reply.id}`, { title: 'x' }));
    assertForbidden(await readOnly.delete(`${BASE}/${reply.id}`));
  });

  it('lets agents read, and refuses them every change (403 before lookup or validation)', async () => {
    const reply = await createSavedReply(ctx().a.api);
    const agent = await newPerson(ctx(), ctx().a);
    const agentKey = ctx().client((await ctx().services.admin.createKey({ workspaceId: ctx().a.id, memberId: agent.member.id })).key);
    for (const api of [agent.app, agentKey]) {
      assert.equal((await api.get(BASE)).status, 200);
      assert.equal((await api.get(`${BASE}/${reply.id}`)).status, 200);
      assertForbidden(await api.post(BASE, { title: 'x', body: 'x' }));
      assertForbidden(await api.post(BASE, {}));
      assertForbidden(await api.patch(`${BASE}/${reply.id}`, { title: 'x' }));
      assertForbidden(await api.patch(`${BASE}/${UNKNOWN_ID}`, { title: 'x' }));
      assertForbidden(await api.delete(`${BASE}/${reply.id}`));
    }
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    assert.equal((await admin.app.patch(`${BASE}/${reply.id}`, { title: 'By admin' })).status, 200);
    const integration = ctx().client(ctx().a.memberlessKey);
    assert.equal((await integration.post(BASE, { title: 'By integration', body: 'x' })).status, 201);
  });
});

describeEachDialect('POST /api/v1/conversations/{id}/messages with saved_reply_id [ext]', (ctx) => {
  const TEMPLATE = 'Hi {{contact.first_name}} ({{ contact.name }}), {{agent.name}} from {{product.name}} here. {{unknown.thing}} stays.';

  async function conversation(context: TestContext, contact: Record<string, unknown> | null) {
    const product = await createProduct(context.a.api, { name: 'Acme Mobile' });
    return importConversation(context.a.api, product.id, { contact, body: 'Help' });
  }

  it('posts the saved reply with its placeholders filled, as an agent reply that answers the contact', async () => {
    const reply = await createSavedReply(ctx().a.api, { body: TEMPLATE });
    const data = await conversation(ctx(), { name: '  Ada  King Lovelace', email: `${unique('ada').replace(/\W/g, '')}@example.com` });
    const res = await ctx().a.api.post(`/api/v1/conversations/${data.id}/messages`, { saved_reply_id: reply.id });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.body, 'Hi Ada (Ada  King Lovelace), Alpha Owner from Acme Mobile here. {{unknown.thing}} stays.');
    assert.deepEqual([res.body.data.sender_type, res.body.data.internal], ['agent', false]);
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${data.id}`)).body.data.waiting_since, null);
  });

  it('fills missing values with nothing: no contact, and a key without a member has no agent name', async () => {
    const reply = await createSavedReply(ctx().a.api, { body: TEMPLATE });
    const data = await conversation(ctx(), null);
    const res = await ctx().client(ctx().a.memberlessKey).post(`/api/v1/conversations/${data.id}/messages`, { saved_reply_id: reply.id });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.body, 'Hi  (),  from Acme Mobile here. {{unknown.thing}} stays.');
  });

  it('leaves names of object internals in braces as written ({{constructor}}, {{__proto__}})', async () => {
    const reply = await createSavedReply(ctx().a.api, { body: '{{constructor}} {{ __proto__ }} {{constructor.name}} {{contact.name}}' });
    const data = await conversation(ctx(), { name: 'Bo' });
    const res = await ctx().a.api.post(`/api/v1/conversations/${data.id}/messages`, { saved_reply_id: reply.id });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.body, '{{constructor}} {{ __proto__ }} {{constructor.name}} Bo');
  });

  it('lets an agent post it (posting needs no settings role)', async () => {
    const reply = await createSavedReply(ctx().a.api, { body: 'Hello from {{agent.name}}' });
    const agent = await newPerson(ctx(), ctx().a);
    const data = await conversation(ctx(), { name: 'Bo' });
    const res = await agent.app.post(`/api/v1/conversations/${data.id}/messages`, { saved_reply_id: reply.id });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.body, `Hello from ${agent.member.display_name}`);
  });

  it('refuses a saved reply that fills to a blank message', async () => {
    const reply = await createSavedReply(ctx().a.api, { body: '{{contact.name}}' });
    const data = await conversation(ctx(), null);
    assertInvalid(await ctx().a.api.post(`/api/v1/conversations/${data.id}/messages`, { saved_reply_id: reply.id }), 'saved_reply_id', 'empty');
  });

  for (const [what, body, fields] of [
    ['both body and saved_reply_id', { body: 'x', saved_reply_id: UNKNOWN_ID }, ['body', 'saved_reply_id']],
    ['neither body nor saved_reply_id', {}, ['body', 'saved_reply_id']],
    ['an unknown saved_reply_id', { saved_reply_id: UNKNOWN_ID }, ['saved_reply_id']],
    ['a malformed saved_reply_id', { saved_reply_id: 'first' }, ['saved_reply_id']],
  ] as const) {
    it(`rejects ${what}, posting nothing`, async () => {
      const data = await conversation(ctx(), null);
      const res = await ctx().a.api.post(`/api/v1/conversations/${data.id}/messages`, body);
      for (const field of fields) assertInvalid(res, field);
      assert.equal((await ctx().a.api.get(`/api/v1/conversations/${data.id}`)).body.data.messages.length, 1);
    });
  }

  it('refuses another workspace\'s saved reply (400, not 404)', async () => {
    const theirs = await createSavedReply(ctx().b.api);
    const data = await conversation(ctx(), null);
    assertInvalid(await ctx().a.api.post(`/api/v1/conversations/${data.id}/messages`, { saved_reply_id: theirs.id }), 'saved_reply_id', 'not a saved reply');
  });
});
