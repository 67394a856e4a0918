// Signing in to the team app (docs/accounts.md): POST /auth/sign-in and sign-out, the cookie, the
// session on /api/v1 with its CSRF rule, sliding expiry on the injected clock.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sessionCookieOf } from '../helpers/factories.js';
import { describeEachDialect, type ApiResponse } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { OWN_ORIGIN, newPerson, signIn, signedInCookie, withSession } from '../helpers/sessions.js';

const DAY = 24 * 3600_000;
const setCookie = (res: ApiResponse) => String([res.headers['set-cookie']].flat()[0]);

describeEachDialect('POST /auth/sign-in', (ctx) => {
  it('signs in with email and password: the workspace, the member and an HttpOnly, SameSite=Lax cookie', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const res = await signIn(ctx(), { email: person.email, password: person.password });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { data: { workspace_id: ctx().a.id, member: person.member } });
    assert.match(String(res.headers['x-request-id']), /./);
    assert.match(setCookie(res), /^loopdesk_session=lds_[0-9A-Za-z]{40}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
  });

  it('finds the account whatever the case and surrounding spaces of the email', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const res = await signIn(ctx(), { email: ` ${person.email.toUpperCase()} `, password: person.password });
    assert.equal(res.status, 200, res.text);
  });

  it('answers a wrong password, an unknown email and an account without a password with the same 401', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const answers = await Promise.all([
      signIn(ctx(), { email: person.email, password: 'not the password' }),
      signIn(ctx(), { email: 'nobody@example.com', password: person.password }),
      // The fixture's owner was made by the admin CLI with an email and no password.
      signIn(ctx(), { email: 'owner@alpha.test', password: person.password }),
    ]);
    for (const res of answers) {
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error_code: 'unauthorized', detail: 'wrong email or password' });
      assert.equal(res.headers['set-cookie'], undefined);
    }
  });

  it('opens the oldest membership without workspace_id, and the asked one with it', async () => {
    const { a, b, client } = ctx();
    const person = await newPerson(ctx(), a);
    const invitation = await b.api.post('/api/v1/members/invitations', { email: person.email, role: 'admin' });
    const token = invitation.body.data.url.split('/').pop();
    const joined = await client(null).post(`/auth/invitations/${token}`, { name: 'Same Person', password: person.password });
    assert.equal(joined.status, 200, joined.text);

    const oldest = await signIn(ctx(), { email: person.email, password: person.password });
    assert.equal(oldest.body.data.workspace_id, a.id);
    const asked = await signIn(ctx(), { email: person.email, password: person.password, workspace_id: b.id.toUpperCase() });
    assert.equal(asked.body.data.workspace_id, b.id);
    assert.equal(asked.body.data.member.role, 'admin');
    const elsewhere = await signIn(ctx(), { email: person.email, password: person.password, workspace_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091' });
    assert.equal(elsewhere.status, 401);
  });

  it('refuses a page of another site (foreign Origin), not one of its own', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const body = { email: person.email, password: person.password };
    const foreign = await ctx().client(null, { origin: 'https://evil.example' }).post('/auth/sign-in', body);
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error_code, 'forbidden');
    assert.equal((await ctx().client(null, { origin: OWN_ORIGIN }).post('/auth/sign-in', body)).status, 200);
  });

  for (const [body, field] of [
    [{ password: 'correct horse battery' }, 'email'],
    [{ email: 'not an email', password: 'correct horse battery' }, 'email'],
    [{ email: 'a@example.com' }, 'password'],
    [{ email: 'a@example.com', password: '' }, 'password'],
    [{ email: 'a@example.com', password: 'x'.repeat(201) }, 'password'],
    [{ email: 'a@example.com', password: 'correct horse battery', workspace_id: 'nope' }, 'workspace_id'],
    [{ email: 'a@example.com', password: 'correct horse battery', remember: true }, 'remember'],
  ] as const) {
    it(`rejects ${JSON.stringify(body).slice(0, 80)} with fields.${field}`, async () => {
      const res = await signIn(ctx(), body);
      assert.equal(res.status, 400);
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields[field], res.text);
    });
  }
});

const clock = manualClock();

describeEachDialect('the session cookie on /api/v1', (ctx) => {
  it('authenticates GET /api/v1/me, with api_key_id null', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const res = await withSession(ctx(), person.cookie, null).get('/api/v1/me');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.api_key_id, null);
    assert.equal(res.body.data.workspace_id, ctx().a.id);
    assert.equal(res.body.data.member.id, person.member.id);
  });

  it('writes with the Origin of this server, and refuses writes without it or from another site (CSRF)', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const product = { name: 'From the app' };
    assert.equal((await person.app.post('/api/v1/products', product)).status, 201);
    for (const origin of [null, 'https://evil.example', 'null', 'http://localhost.evil.example', 'not a url']) {
      const res = await withSession(ctx(), person.cookie, origin).post('/api/v1/products', product);
      assert.equal(res.status, 403, `Origin ${origin}`);
      assert.equal(res.body.error_code, 'forbidden');
    }
    assert.equal((await withSession(ctx(), person.cookie, 'https://evil.example').get('/api/v1/products')).status, 200, 'reads need no Origin');
  });

  it('needs no Origin with an API key', async () => {
    assert.equal((await ctx().a.api.post('/api/v1/products', { name: 'From a script' })).status, 201);
  });

  it('lets an Authorization header win over the cookie, even an invalid one', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const both = ctx().client(ctx().a.key, { cookie: person.cookie });
    assert.equal((await both.get('/api/v1/me')).body.data.member.id, ctx().a.owner.id);
    const badKey = ctx().client(null, { cookie: person.cookie, authorization: 'Bearer ldk_nope' });
    assert.equal((await badKey.get('/api/v1/me')).status, 401);
  });

  it('refuses an unknown or malformed session', async () => {
    for (const cookie of ['loopdesk_session=lds_' + 'x'.repeat(40), 'loopdesk_session=', 'other=1']) {
      const res = await withSession(ctx(), cookie).get('/api/v1/me');
      assert.equal(res.status, 401, cookie);
      assert.equal(res.body.error_code, 'unauthorized');
    }
  });

  it('stays valid while used within 30 days of the last use, and sends the cookie again as it slides', async () => {
    const person = await newPerson(ctx(), ctx().a);
    for (let i = 0; i < 3; i++) {
      clock.advance(20 * DAY);
      const res = await person.app.get('/api/v1/me');
      assert.equal(res.status, 200, `after ${(i + 1) * 20} days`);
      assert.match(setCookie(res), /^loopdesk_session=lds_\w+; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    }
    const soon = await person.app.get('/api/v1/me');
    assert.equal(soon.headers['set-cookie'], undefined, 'within a minute of the last use: no write, no new cookie');
  });

  it('expires 30 days after its last use', async () => {
    const person = await newPerson(ctx(), ctx().a);
    clock.advance(30 * DAY - 1);
    assert.equal((await person.app.get('/api/v1/me')).status, 200);
    clock.advance(30 * DAY);
    const res = await person.app.get('/api/v1/me');
    assert.equal(res.status, 401);
    assert.match(res.body.detail, /sign in again/);
  });

  it('never opens another workspace\'s data', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const theirs = await ctx().b.api.post('/api/v1/products', { name: 'B only' });
    assert.equal((await person.app.get(`/api/v1/products/${theirs.body.data.id}`)).status, 404);
  });
}, { clock });

describeEachDialect('POST /auth/sign-out', (ctx) => {
  it('ends the session at once and clears the cookie', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const other = await signedInCookie(ctx(), { email: person.email, password: person.password });
    const res = await person.app.post('/auth/sign-out');
    assert.equal(res.status, 204);
    assert.match(setCookie(res), /^loopdesk_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
    assert.equal((await person.app.get('/api/v1/me')).status, 401);
    assert.equal((await withSession(ctx(), other).get('/api/v1/me')).status, 200, 'the person\'s other sessions go on');
  });

  it('refuses a sign-out without this server\'s Origin (CSRF)', async () => {
    const person = await newPerson(ctx(), ctx().a);
    for (const origin of [null, 'https://evil.example']) {
      assert.equal((await withSession(ctx(), person.cookie, origin).post('/auth/sign-out')).status, 403);
    }
    assert.equal((await person.app.get('/api/v1/me')).status, 200);
  });

  it('answers 204 when there is no session to end', async () => {
    assert.equal((await ctx().client(null).post('/auth/sign-out')).status, 204);
  });
});

describeEachDialect('the session cookie behind https', (ctx) => {
  it('is Secure, and writes need the public URL\'s origin', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const res = await ctx().client(null, { origin: 'https://support.example.com' }).post('/auth/sign-in', { email: person.email, password: person.password });
    assert.equal(res.status, 200, res.text);
    assert.match(setCookie(res), /; HttpOnly; SameSite=Lax; Secure$/);
    const cookie = sessionCookieOf(res);
    assert.equal((await withSession(ctx(), cookie, 'https://support.example.com').post('/api/v1/products', { name: 'Secure' })).status, 201);
    assert.equal((await withSession(ctx(), cookie, OWN_ORIGIN).post('/api/v1/products', { name: 'Plain' })).status, 403);
  });
}, { publicUrl: 'https://support.example.com' });
