// [ext] /api/v1/api-keys (docs/accounts.md): create (the key shown once), list (never the key), revoke.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDialect } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';

describeEachDialect('POST /api/v1/api-keys', (ctx) => {
  it('answers 201 with the key, once; it acts as the caller\'s member by default', async () => {
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    const res = await admin.app.post('/api/v1/api-keys', { label: 'CI', read_only: true });
    assert.equal(res.status, 201, res.text);
    const { id, key, label, read_only, member_id, created_at } = res.body.data;
    assert.deepEqual(Object.keys(res.body.data).sort(), ['created_at', 'id', 'key', 'label', 'member_id', 'read_only']);
    assert.match(key, /^ldk_[0-9A-Za-z]{40}$/);
    assert.deepEqual({ label, read_only, member_id }, { label: 'CI', read_only: true, member_id: admin.member.id });
    assert.ok(id && created_at);
    const me = await ctx().client(key).get('/api/v1/me');
    assert.deepEqual([me.body.data.api_key_id, me.body.data.member.id], [id, admin.member.id]);
    assert.equal((await ctx().client(key).post('/api/v1/products', { name: 'No' })).status, 403, 'read-only: GET only');
  });

  it('makes a key of another member, or (owner rank only) of an owner or of no member', async () => {
    const { a } = ctx();
    const admin = await newPerson(ctx(), a, 'admin');
    const agent = await newPerson(ctx(), a);
    assert.equal((await admin.app.post('/api/v1/api-keys', { member_id: agent.member.id })).body.data.member_id, agent.member.id);
    assert.equal((await admin.app.post('/api/v1/api-keys', { member_id: a.owner.id })).status, 403);
    assert.equal((await admin.app.post('/api/v1/api-keys', { member_id: null })).status, 403);
    const integration = await a.api.post('/api/v1/api-keys', { member_id: null, label: 'Zapier' });
    assert.equal(integration.status, 201);
    assert.equal(integration.body.data.member_id, null);
    assert.equal((await ctx().client(integration.body.data.key).get('/api/v1/me')).body.data.member, null);
  });

  for (const [body, field] of [
    [{ member_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091' }, 'member_id'],
    [{ member_id: 'nope' }, 'member_id'],
    [{ label: 'x'.repeat(201) }, 'label'],
    [{ read_only: 'yes' }, 'read_only'],
    [{ key: 'ldk_mine' }, 'key'],
  ] as const) {
    it(`rejects ${JSON.stringify(body).slice(0, 70)} naming ${field}`, async () => {
      const res = await ctx().a.api.post('/api/v1/api-keys', body);
      assert.equal(res.status, 400);
      assert.ok(res.body.fields[field], res.text);
    });
  }

  it('refuses another workspace\'s member (400 on member_id)', async () => {
    const res = await ctx().a.api.post('/api/v1/api-keys', { member_id: ctx().b.owner.id });
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.member_id);
  });
});

describeEachDialect('GET and DELETE /api/v1/api-keys', (ctx) => {
  it('lists the keys that work, oldest first, never the keys; a revoked key leaves the list and stops working', async () => {
    const { a, client } = ctx();
    const made = (await a.api.post('/api/v1/api-keys', { label: 'to revoke' })).body.data;
    const list = await a.api.get('/api/v1/api-keys?limit=200');
    assert.equal(list.status, 200);
    const listed = list.body.data.find((k: { id: string }) => k.id === made.id);
    assert.deepEqual(listed, { id: made.id, label: 'to revoke', read_only: false, member_id: a.owner.id, created_at: made.created_at, last_used_at: null });
    assert.ok(!list.text.includes(made.key));
    assert.ok(list.body.data.every((k: { member_id: string | null }) => 'member_id' in k));

    assert.equal((await a.api.delete(`/api/v1/api-keys/${made.id}`)).status, 204);
    assert.equal((await client(made.key).get('/api/v1/me')).status, 401);
    assert.ok(!(await a.api.get('/api/v1/api-keys?limit=200')).body.data.some((k: { id: string }) => k.id === made.id));
    assert.equal((await a.api.delete(`/api/v1/api-keys/${made.id}`)).status, 404);
  });

  it('lets only owner rank revoke an owner\'s key or an integration key', async () => {
    const { a } = ctx();
    const admin = await newPerson(ctx(), a, 'admin');
    const owners = (await a.api.post('/api/v1/api-keys', {})).body.data;
    const integration = (await a.api.post('/api/v1/api-keys', { member_id: null })).body.data;
    assert.equal((await admin.app.delete(`/api/v1/api-keys/${owners.id}`)).status, 403);
    assert.equal((await admin.app.delete(`/api/v1/api-keys/${integration.id}`)).status, 403);
    const own = (await admin.app.post('/api/v1/api-keys', {})).body.data;
    assert.equal((await admin.app.delete(`/api/v1/api-keys/${own.id}`)).status, 204);
  });

  it('is 404 for another workspace\'s key', async () => {
    const theirs = (await ctx().b.api.post('/api/v1/api-keys', {})).body.data;
    assert.equal((await ctx().a.api.delete(`/api/v1/api-keys/${theirs.id}`)).status, 404);
    assert.ok(!(await ctx().a.api.get('/api/v1/api-keys?limit=200')).body.data.some((k: { id: string }) => k.id === theirs.id));
  });
});
