// [ext] PATCH and DELETE /api/v1/members/{id} (docs/accounts.md): roles, the last owner, owner rank.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createIssue, createProduct } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';
import { newPerson, signIn } from '../helpers/sessions.js';

describeEachDialect('PATCH /api/v1/members/{id}', (ctx) => {
  it('changes a role, in effect at once for the member\'s session', async () => {
    const agent = await newPerson(ctx(), ctx().a);
    assert.equal((await agent.app.get('/api/v1/webhooks')).status, 403);
    const res = await ctx().a.api.patch(`/api/v1/members/${agent.member.id}`, { role: 'admin' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { ...agent.member, role: 'admin' });
    assert.equal((await agent.app.get('/api/v1/webhooks')).status, 200);
  });

  it('keeps the last owner an owner (403, the rule removal answers with too), and lets one of two owners step down', async () => {
    const { a } = ctx();
    const res = await a.api.patch(`/api/v1/members/${a.owner.id}`, { role: 'admin' });
    assert.equal(res.status, 403);
    assert.equal(res.body.error_code, 'forbidden');
    assert.match(res.body.detail, /keeps at least one owner/);
    const removal = await a.api.delete(`/api/v1/members/${a.owner.id}`);
    assert.deepEqual([removal.status, removal.body.detail], [403, res.body.detail], 'one rule, one answer');
    const second = await newPerson(ctx(), a, 'owner');
    assert.equal((await a.api.patch(`/api/v1/members/${second.member.id}`, { role: 'agent' })).status, 200);
  });

  it('lets only an owner make an owner or change an owner\'s role', async () => {
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    const agent = await newPerson(ctx(), ctx().a);
    assert.equal((await admin.app.patch(`/api/v1/members/${agent.member.id}`, { role: 'owner' })).status, 403);
    assert.equal((await admin.app.patch(`/api/v1/members/${admin.member.id}`, { role: 'owner' })).status, 403, 'not even themselves');
    assert.equal((await admin.app.patch(`/api/v1/members/${ctx().a.owner.id}`, { role: 'agent' })).status, 403);
    assert.equal((await admin.app.patch(`/api/v1/members/${agent.member.id}`, { role: 'admin' })).status, 200);
  });

  it('is 404 for unknown, malformed and other workspaces\' members, before validating the body', async () => {
    for (const id of ['0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', 'nope', ctx().b.owner.id]) {
      const res = await ctx().a.api.patch(`/api/v1/members/${id}`, { role: 'king' });
      assert.equal(res.status, 404, id);
    }
  });

  for (const [body, field] of [[{ role: 'king' }, 'role'], [{}, 'role'], [{ role: 'agent', name: 'X' }, 'name']] as const) {
    it(`rejects ${JSON.stringify(body)} naming ${field}`, async () => {
      const agent = await newPerson(ctx(), ctx().a);
      const res = await ctx().a.api.patch(`/api/v1/members/${agent.member.id}`, body);
      assert.equal(res.status, 400);
      assert.ok(res.body.fields[field], res.text);
    });
  }
});

describeEachDialect('DELETE /api/v1/members/{id}', (ctx) => {
  it('removes the member: their issues unassigned, keys revoked, sessions ended; the account stays', async () => {
    const { a, client } = ctx();
    const agent = await newPerson(ctx(), a);
    const key = await a.api.post('/api/v1/api-keys', { member_id: agent.member.id });
    assert.equal(key.status, 201, key.text);
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id, { assignee_id: agent.member.id });

    assert.equal((await a.api.delete(`/api/v1/members/${agent.member.id}`)).status, 204);
    assert.equal((await agent.app.get('/api/v1/me')).status, 401);
    assert.equal((await client(key.body.data.key).get('/api/v1/me')).status, 401);
    assert.equal((await a.api.get(`/api/v1/issues/${issue.id}`)).body.data.assignee_id, null);
    assert.ok(!(await a.api.get('/api/v1/members?limit=200')).body.data.some((m: { id: string }) => m.id === agent.member.id));
    assert.equal((await a.api.get(`/api/v1/issues?assignee_id=none&product_id=${product.id}`)).body.pagination.total, 1, 'tallies follow');
    assert.equal((await signIn(ctx(), { email: agent.email, password: agent.password })).status, 401, 'no workspace left to sign in to');
    assert.equal((await a.api.delete(`/api/v1/members/${agent.member.id}`)).status, 404);
  });

  it('never removes the last owner (403), and lets only an owner remove an owner', async () => {
    const { a } = ctx();
    assert.equal((await a.api.delete(`/api/v1/members/${a.owner.id}`)).status, 403);
    const second = await newPerson(ctx(), a, 'owner');
    const admin = await newPerson(ctx(), a, 'admin');
    assert.equal((await admin.app.delete(`/api/v1/members/${second.member.id}`)).status, 403);
    assert.equal((await second.app.delete(`/api/v1/members/${second.member.id}`)).status, 204, 'an owner may leave while another stays');
  });

  it('is 404 for another workspace\'s member', async () => {
    assert.equal((await ctx().a.api.delete(`/api/v1/members/${ctx().b.owner.id}`)).status, 404);
  });
});
