import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDialect } from '../helpers/harness.js';

describeEachDialect('GET /api/v1/me', (ctx) => {
  it('returns the workspace, the key id and the key\'s member', async () => {
    const { a } = ctx();
    const res = await a.api.get('/api/v1/me');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.workspace_id, a.id);
    assert.match(res.body.data.api_key_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(res.body.data.member, {
      id: a.owner.id, user_id: a.owner.user_id, role: 'owner', display_name: a.owner.display_name, avatar_url: null,
    });
  });

  it('reports member null for a key without a member', async () => {
    const res = await ctx().client(ctx().a.memberlessKey).get('/api/v1/me');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.member, null);
  });

  it('works with a read-only key', async () => {
    const res = await ctx().client(ctx().a.readOnlyKey).get('/api/v1/me');
    assert.equal(res.status, 200);
  });
});

describeEachDialect('authentication', (ctx) => {
  const unauthorized = async (headers: Record<string, string>, path = '/api/v1/me') => {
    const res = await ctx().client(null, headers).get(path);
    assert.equal(res.status, 401);
    assert.equal(res.body.error_code, 'unauthorized');
    assert.equal(res.headers['www-authenticate'], 'Bearer');
  };

  it('rejects a missing Authorization header', () => unauthorized({}));
  it('rejects a wrong scheme', () => unauthorized({ authorization: `Basic ${ctx().a.key}` }));
  it('rejects a malformed key', () => unauthorized({ authorization: 'Bearer ldk_short' }));
  it('rejects an unknown key', () => unauthorized({ authorization: `Bearer ldk_${'x'.repeat(40)}` }));
  it('rejects a revoked key', () => unauthorized({ authorization: `Bearer ${ctx().a.revokedKey}` }));
  it('requires a key on unknown /api/v1 paths (401 before 404)', () => unauthorized({}, '/api/v1/nothing-here'));
  it('requires a key on discovery', () => unauthorized({}, '/api/v1/openapi.json'));

  it('accepts the scheme word in any case', async () => {
    const res = await ctx().client(null, { authorization: `bEaReR ${ctx().a.key}` }).get('/api/v1/me');
    assert.equal(res.status, 200);
  });

  it('gives 404 for an unknown /api/v1 path with a valid key', async () => {
    const res = await ctx().a.api.get('/api/v1/nothing-here');
    assert.equal(res.status, 404);
    assert.equal(res.body.error_code, 'not_found');
  });

  it('forbids non-GET methods to read-only keys, before routing', async () => {
    const client = ctx().client(ctx().a.readOnlyKey);
    for (const [method, path] of [['POST', '/api/v1/products'], ['PATCH', '/api/v1/products/x'], ['POST', '/api/v1/nothing']]) {
      const res = await client.request(method, path, { body: {} });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error_code, 'forbidden');
    }
  });

  it('records last_used_at on first use', async () => {
    const { services, a } = ctx();
    const key = await services.admin.createKey({ workspaceId: a.id });
    assert.equal(key.read_only, false);
    await ctx().client(key.key).get('/api/v1/me');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const listed = (await services.admin.listKeys(a.id)).find((k) => k.id === key.id)!;
    assert.match(listed.last_used_at ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describeEachDialect('GET /api/v1/members', (ctx) => {
  it('lists the workspace\'s members, oldest first, with pagination', async () => {
    const { services, a } = ctx();
    const second = await services.admin.createMember({ workspaceId: a.id, name: 'Second', role: 'agent' });
    const res = await a.api.get('/api/v1/members');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.map((m: { id: string }) => m.id).slice(0, 2), [a.owner.id, second.id]);
    assert.equal(res.body.data[1].user_id, null);
    assert.deepEqual(res.body.pagination, { total: res.body.data.length, limit: 50, offset: 0 });

    const page = await a.api.get('/api/v1/members?limit=1&offset=1');
    assert.deepEqual(page.body.data.map((m: { id: string }) => m.id), [second.id]);
    assert.deepEqual(page.body.pagination, { total: res.body.data.length, limit: 1, offset: 1 });
  });

  it('never shows another workspace\'s members', async () => {
    const res = await ctx().b.api.get('/api/v1/members?limit=200');
    assert.ok(res.body.data.every((m: { id: string }) => m.id !== ctx().a.owner.id));
  });

  for (const [query, field] of [['limit=0', 'limit'], ['limit=201', 'limit'], ['limit=abc', 'limit'], ['offset=-1', 'offset'], ['limit=1.5', 'limit']]) {
    it(`rejects ${query}`, async () => {
      const res = await ctx().a.api.get(`/api/v1/members?${query}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields[field]);
    });
  }
});
