import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDialect } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';

const NO_SETTINGS = { signature: null, time_zone: null, notify_email: false };
/** A member as /me shows it: without created_at. */
const asKeyMember = ({ created_at: _, ...member }: any) => member;

describeEachDialect('GET /api/v1/me', (ctx) => {
  it('returns the workspace, the key id and the key\'s member', async () => {
    const { a } = ctx();
    const res = await a.api.get('/api/v1/me');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.workspace_id, a.id);
    assert.match(res.body.data.api_key_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(res.body.data.member, {
      id: a.owner.id, user_id: a.owner.user_id, role: 'owner', display_name: a.owner.display_name, avatar_url: null, availability: 'online', ...NO_SETTINGS,
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

describeEachDialect('PATCH /api/v1/me', (ctx) => {
  const badRequest = (res: { status: number; body: any }, field: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'validation_error');
    assert.match(res.body.detail, new RegExp(field));
  };

  it('sets the member\'s own signature, time zone and email notifications, and GET /me returns them', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    const res = await agent.app.patch('/api/v1/me', { signature: 'Ada\nSupport, Acme', time_zone: 'Europe/Berlin', notify_email: true });
    assert.equal(res.status, 200, res.text);
    const settings = { signature: 'Ada\nSupport, Acme', time_zone: 'Europe/Berlin', notify_email: true };
    assert.deepEqual(res.body.data.member, { ...asKeyMember(agent.member), ...settings });
    assert.deepEqual((await agent.app.get('/api/v1/me')).body.data.member, { ...asKeyMember(agent.member), ...settings });

    const partial = await agent.app.patch('/api/v1/me', { notify_email: false });
    assert.deepEqual(partial.body.data.member, { ...asKeyMember(agent.member), ...settings, notify_email: false }, 'fields left out keep their values');
    const cleared = await agent.app.patch('/api/v1/me', { signature: null, time_zone: null });
    assert.deepEqual(cleared.body.data.member, { ...asKeyMember(agent.member), ...NO_SETTINGS });
    assert.deepEqual((await agent.app.patch('/api/v1/me', {})).body.data.member, { ...asKeyMember(agent.member), ...NO_SETTINGS }, 'an empty change changes nothing');
  });

  it('keeps a signature\'s line breaks and drops other control characters, trailing spaces, blank edges and its own "--" line', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    const sent = '\r\n-- \r\nAda\u0007 Lovelace  \r\n\u202eSupport\tteam\u2028Acme\n\n\n';
    const res = await agent.app.patch('/api/v1/me', { signature: sent });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.member.signature, 'Ada Lovelace\nSupport team\nAcme');
    assert.equal((await agent.app.patch('/api/v1/me', { signature: ' \n\t\n' })).body.data.member.signature, null, 'nothing left: no signature');
  });

  it('takes a signature of 2,000 characters and refuses a longer one', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    assert.equal((await agent.app.patch('/api/v1/me', { signature: 'é'.repeat(2_000) })).status, 200);
    badRequest(await agent.app.patch('/api/v1/me', { signature: 'x'.repeat(2_001) }), 'signature');
    assert.equal((await agent.app.get('/api/v1/me')).body.data.member.signature, 'é'.repeat(2_000), 'a refused change writes nothing');
  });

  it('takes IANA time zone names as written and refuses offsets and unknown names', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    for (const zone of ['UTC', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Etc/GMT+1']) {
      const res = await agent.app.patch('/api/v1/me', { time_zone: zone });
      assert.equal(res.status, 200, `${zone}: ${res.text}`);
      assert.equal(res.body.data.member.time_zone, zone);
    }
    for (const zone of ['Europe/Nowhere', '+01:00', 'Z', '', 'Europe/Berlin\n', 'x'.repeat(65)]) {
      badRequest(await agent.app.patch('/api/v1/me', { time_zone: zone }), 'time_zone');
    }
    assert.equal((await agent.app.get('/api/v1/me')).body.data.member.time_zone, 'Etc/GMT+1');
  });

  it('refuses a wrong type, an unknown field, and a key without a member (400, saying why)', async () => {
    const { a } = ctx();
    badRequest(await a.api.patch('/api/v1/me', { notify_email: 'yes' }), 'notify_email');
    badRequest(await a.api.patch('/api/v1/me', { signature: 42 }), 'signature');
    badRequest(await a.api.patch('/api/v1/me', { nickname: 'Ada' }), 'nickname');
    const memberless = await ctx().client(a.memberlessKey).patch('/api/v1/me', { signature: 'Bot' });
    assert.equal(memberless.status, 400);
    assert.equal(memberless.body.error_code, 'validation_error');
    assert.match(memberless.body.detail, /no member/);
    assert.equal((await ctx().client(a.readOnlyKey).patch('/api/v1/me', { signature: 'Ada' })).status, 403);
  });

  it('changes only the calling member\'s settings', async () => {
    const { a } = ctx();
    const [first, second] = [await newPerson(ctx(), a), await newPerson(ctx(), a)];
    assert.equal((await first.app.patch('/api/v1/me', { signature: 'First', time_zone: 'Asia/Tokyo', notify_email: true })).status, 200);
    assert.deepEqual((await second.app.get('/api/v1/me')).body.data.member, { ...asKeyMember(second.member), ...NO_SETTINGS });
    const owner = (await a.api.get('/api/v1/me')).body.data.member;
    assert.equal(owner.id, a.owner.id);
    assert.notEqual(owner.signature, 'First');
    assert.equal((await ctx().b.api.get('/api/v1/me')).body.data.member.signature, null);
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
