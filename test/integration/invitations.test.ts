// Invitations (docs/accounts.md): [ext] /api/v1/members/invitations (settings role), and the
// one-time link's page: GET and POST /auth/invitations/{token}.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { invite, sessionCookieOf } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { newPerson, signIn, withSession } from '../helpers/sessions.js';

const DAY = 24 * 3600_000;
const clock = manualClock();
const PASSWORD = 'correct horse battery';

describeEachDialect('POST /api/v1/members/invitations', (ctx) => {
  it('answers 201 with the one-time link, valid 7 days', async () => {
    const res = await ctx().a.api.post('/api/v1/members/invitations', { email: ' Grace@Example.COM ', role: 'admin' });
    assert.equal(res.status, 201, res.text);
    const { id, email, role, url, expires_at } = res.body.data;
    assert.deepEqual({ email, role }, { email: 'grace@example.com', role: 'admin' });
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(url, /^http:\/\/localhost:80\/app\/invite\/ldi_[0-9A-Za-z]{40}$/);
    assert.equal(Date.parse(expires_at) - Date.parse(clock.now()), 7 * DAY);
  });

  it('refuses an email that is already a member (400 on email)', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const res = await ctx().a.api.post('/api/v1/members/invitations', { email: person.email, role: 'agent' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.fields, { email: 'is already a member of this workspace' });
  });

  it('replaces an earlier invitation of the same email: only the newest link works', async () => {
    const first = await invite(ctx().a.api, { email: 'twice@example.com' });
    const second = await invite(ctx().a.api, { email: 'TWICE@example.com' });
    assert.equal((await ctx().client(null).get(`/auth/invitations/${first.token}`)).status, 404);
    assert.equal((await ctx().client(null).get(`/auth/invitations/${second.token}`)).status, 200);
    const pending = (await ctx().a.api.get('/api/v1/members/invitations?limit=200')).body.data.map((i: { id: string }) => i.id);
    assert.ok(!pending.includes(first.id) && pending.includes(second.id));
  });

  it('lets only an owner (or a key without a member) invite an owner', async () => {
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    const res = await admin.app.post('/api/v1/members/invitations', { email: 'boss@example.com', role: 'owner' });
    assert.equal(res.status, 403);
    assert.equal((await admin.app.post('/api/v1/members/invitations', { email: 'helper@example.com', role: 'admin' })).status, 201);
    assert.equal((await ctx().client(ctx().a.memberlessKey).post('/api/v1/members/invitations', { email: 'boss@example.com', role: 'owner' })).status, 201);
  });

  for (const [body, fields] of [
    [{ role: 'agent' }, ['email']],
    [{ email: 'not-an-email', role: 'agent' }, ['email']],
    [{ email: 'x@example.com', role: 'king' }, ['role']],
    [{}, ['email', 'role']],
    [{ email: 'x@example.com', role: 'agent', name: 'X' }, ['name']],
  ] as const) {
    it(`rejects ${JSON.stringify(body)} naming ${fields.join(', ')}`, async () => {
      const res = await ctx().a.api.post('/api/v1/members/invitations', body);
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.body.fields).sort(), [...fields].sort());
    });
  }
}, { clock });

describeEachDialect('GET and DELETE /api/v1/members/invitations', (ctx) => {
  it('lists pending invitations oldest first, never their links, and withdraws them', async () => {
    const first = await invite(ctx().a.api);
    const second = await invite(ctx().a.api, { role: 'admin' });
    const list = await ctx().a.api.get('/api/v1/members/invitations?limit=200');
    assert.equal(list.status, 200);
    const shown = list.body.data.filter((i: { id: string }) => [first.id, second.id].includes(i.id));
    assert.deepEqual(shown.map((i: { id: string }) => i.id), [first.id, second.id]);
    assert.deepEqual(Object.keys(shown[0]).sort(), ['created_at', 'email', 'expires_at', 'id', 'invited_by', 'role']);
    assert.equal(shown[0].invited_by, ctx().a.owner.id);
    assert.equal(list.body.pagination.total, list.body.data.length);

    assert.equal((await ctx().a.api.delete(`/api/v1/members/invitations/${first.id}`)).status, 204);
    assert.equal((await ctx().client(null).get(`/auth/invitations/${first.token}`)).status, 404);
    assert.equal((await ctx().a.api.delete(`/api/v1/members/invitations/${first.id}`)).status, 404);
  });

  it('leaves out taken and expired invitations', async () => {
    const taken = await invite(ctx().a.api);
    await ctx().client(null).post(`/auth/invitations/${taken.token}`, { name: 'Taken', password: PASSWORD });
    const expired = await invite(ctx().a.api);
    clock.advance(7 * DAY);
    const ids = (await ctx().a.api.get('/api/v1/members/invitations?limit=200')).body.data.map((i: { id: string }) => i.id);
    assert.ok(!ids.includes(taken.id) && !ids.includes(expired.id));
    assert.equal((await ctx().a.api.delete(`/api/v1/members/invitations/${expired.id}`)).status, 404);
  });

  it('keeps each workspace\'s invitations to itself', async () => {
    const theirs = await invite(ctx().b.api);
    assert.equal((await ctx().a.api.delete(`/api/v1/members/invitations/${theirs.id}`)).status, 404);
    const ids = (await ctx().a.api.get('/api/v1/members/invitations?limit=200')).body.data.map((i: { id: string }) => i.id);
    assert.ok(!ids.includes(theirs.id));
    assert.equal((await ctx().a.api.delete('/api/v1/members/invitations/not-a-uuid')).status, 404);
  });

  it('lets only an owner withdraw an owner\'s invitation', async () => {
    const owners = await invite(ctx().a.api, { role: 'owner' });
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    assert.equal((await admin.app.delete(`/api/v1/members/invitations/${owners.id}`)).status, 403);
    assert.equal((await ctx().a.api.delete(`/api/v1/members/invitations/${owners.id}`)).status, 204);
  });
}, { clock });

describeEachDialect('GET and POST /auth/invitations/{token}', (ctx) => {
  it('shows the email, the workspace\'s name and the role', async () => {
    const invitation = await invite(ctx().a.api, { email: 'shown@example.com', role: 'admin' });
    const res = await ctx().client(null).get(`/auth/invitations/${invitation.token}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: { email: 'shown@example.com', workspace_name: 'Alpha', role: 'admin' } });
  });

  it('joins with a name and a password, signed in, and works only once', async () => {
    const invitation = await invite(ctx().a.api, { role: 'admin' });
    const res = await ctx().client(null).post(`/auth/invitations/${invitation.token}`, { name: '  Ada Lovelace ', password: PASSWORD });
    assert.equal(res.status, 200, res.text);
    const { workspace_id, member } = res.body.data;
    assert.equal(workspace_id, ctx().a.id);
    assert.equal(member.role, 'admin');
    assert.equal(member.display_name, 'Ada Lovelace');
    assert.equal((await withSession(ctx(), sessionCookieOf(res)).get('/api/v1/me')).body.data.member.id, member.id);
    assert.ok((await ctx().a.api.get('/api/v1/members?limit=200')).body.data.some((m: { id: string }) => m.id === member.id));
    assert.equal((await signIn(ctx(), { email: invitation.email, password: PASSWORD })).status, 200);

    assert.equal((await ctx().client(null).get(`/auth/invitations/${invitation.token}`)).status, 404);
    assert.equal((await ctx().client(null).post(`/auth/invitations/${invitation.token}`, { name: 'Again', password: PASSWORD })).status, 404);
  });

  it('is 404 once expired, and for unknown or malformed tokens', async () => {
    const invitation = await invite(ctx().a.api);
    clock.advance(7 * DAY);
    for (const token of [invitation.token, `ldi_${'x'.repeat(40)}`, 'nope']) {
      const res = await ctx().client(null).get(`/auth/invitations/${token}`);
      assert.equal(res.status, 404, token);
      assert.equal(res.body.error_code, 'not_found');
      assert.equal((await ctx().client(null).post(`/auth/invitations/${token}`, { name: 'Late', password: PASSWORD })).status, 404);
    }
  });

  it('asks a person who already has an account for that account\'s password', async () => {
    const person = await newPerson(ctx(), ctx().b);
    const invitation = await invite(ctx().a.api, { email: person.email });
    const wrong = await ctx().client(null).post(`/auth/invitations/${invitation.token}`, { name: 'Me', password: 'another password' });
    assert.equal(wrong.status, 400);
    assert.ok(wrong.body.fields.password);
    const right = await ctx().client(null).post(`/auth/invitations/${invitation.token}`, { name: 'Me', password: person.password });
    assert.equal(right.status, 200, right.text);
    assert.equal(right.body.data.member.user_id, person.member.user_id);
  });

  it('checks no more than 10 passwords of a burst taking an invitation as an existing account, the sign-in lockout\'s count', async () => {
    const person = await newPerson(ctx(), ctx().b);
    const invitation = await invite(ctx().a.api, { email: person.email });
    const answers = await Promise.all(Array.from({ length: 30 }, () =>
      ctx().client(null).post(`/auth/invitations/${invitation.token}`, { name: 'Me', password: 'another password' })));
    const statuses = answers.map((res) => res.status);
    assert.equal(statuses.filter((status) => status === 400).length, 10, statuses.join());
    assert.equal(statuses.filter((status) => status === 429).length, 20);
    assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 429, 'the same lock as sign-in');
    clock.advance(15 * 60_000);
  });

  it('never lets a link from the API set the password of an account that has none and belongs elsewhere', async () => {
    const { services, a, b } = ctx();
    await services.admin.createMember({ workspaceId: b.id, name: 'CLI made', role: 'agent', email: 'cli-made@example.com' });
    const invitation = await invite(a.api, { email: 'cli-made@example.com' });
    const res = await ctx().client(null).post(`/auth/invitations/${invitation.token}`, { name: 'Taken over?', password: PASSWORD });
    assert.equal(res.status, 400);
    assert.match(res.body.fields.email, /account without a password/);
    assert.equal((await signIn(ctx(), { email: 'cli-made@example.com', password: PASSWORD })).status, 401);
  });

  it('gives a member the admin CLI made without a password its password, through the CLI\'s link', async () => {
    const { services, b } = ctx();
    const made = await services.admin.createMember({ workspaceId: b.id, name: 'CLI made', role: 'agent', email: 'cli-made-2@example.com' });
    const invitation = await services.invitations.createAsAdministrator({ workspaceId: b.id, email: 'cli-made-2@example.com', role: 'admin' }, 'http://x');
    const res = await ctx().client(null).post(`/auth/invitations/${invitation.url.split('/').pop()}`, { name: 'Now a person', password: PASSWORD });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.data.member.id, res.body.data.member.role], [made.id, 'admin']);
    assert.equal((await signIn(ctx(), { email: 'cli-made-2@example.com', password: PASSWORD })).status, 200);
  });

  it('hands the first start\'s owner over: the link names no email, the taker gives one', async () => {
    const { services, client } = ctx();
    const workspace = await services.admin.createWorkspace('Fresh');
    const owner = await services.admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
    const link = await ctx().database.db.transaction().execute((tx) => services.invitations.createOwnerLink(workspace.id, owner.id, tx));
    assert.deepEqual((await client(null).get(`/auth/invitations/${link.token}`)).body.data, { email: null, workspace_name: 'Fresh', role: 'owner' });
    const withoutEmail = await client(null).post(`/auth/invitations/${link.token}`, { name: 'Grace', password: PASSWORD });
    assert.equal(withoutEmail.status, 400);
    assert.ok(withoutEmail.body.fields.email);
    const res = await client(null).post(`/auth/invitations/${link.token}`, { name: 'Grace', password: PASSWORD, email: 'grace-owner@example.com' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.member.id, owner.id, 'the same owner member, now a person');
    assert.equal(res.body.data.member.display_name, 'Grace');
    assert.equal(res.body.data.member.role, 'owner');
  });

  it('refuses an email other than the invitation\'s', async () => {
    const invitation = await invite(ctx().a.api);
    const res = await ctx().client(null).post(`/auth/invitations/${invitation.token}`, { name: 'X', password: PASSWORD, email: 'other@example.com' });
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.email);
  });

  it('refuses a page of another site (foreign Origin)', async () => {
    const invitation = await invite(ctx().a.api);
    const res = await ctx().client(null, { origin: 'https://evil.example' }).post(`/auth/invitations/${invitation.token}`, { name: 'X', password: PASSWORD });
    assert.equal(res.status, 403);
  });

  for (const [body, fields] of [
    [{ name: '   ', password: PASSWORD }, ['name']],
    [{ name: 'x'.repeat(101), password: PASSWORD }, ['name']],
    [{ name: 'Short', password: 'x'.repeat(9) }, ['password']],
    [{ name: 'Long', password: 'x'.repeat(201) }, ['password']],
    [{}, ['name', 'password']],
    [{ name: 'X', password: PASSWORD, email: 'nope' }, ['email']],
    [{ name: 'X', password: PASSWORD, role: 'owner' }, ['role']],
  ] as const) {
    it(`rejects ${JSON.stringify(body).slice(0, 70)} naming ${fields.join(', ')}`, async () => {
      const invitation = await invite(ctx().a.api);
      const res = await ctx().client(null).post(`/auth/invitations/${invitation.token}`, body);
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.body.fields).sort(), [...fields].sort());
    });
  }
}, { clock });
