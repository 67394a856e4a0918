// Signing in with single sign-on (docs/sso.md) end to end, against a real OpenID provider in this
// process (node-oidc-provider): the start's redirect, the provider's login, the callback's checks
// (state, browser, code, the ID token's signature, audience, expiry and nonce through
// openid-client), the workspace's rules (verified email, allowed domains, default role) and
// enforcement of SSO over passwords.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { sessionCookieOf } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';
import { startOidcProvider } from '../helpers/oidc-provider.js';
import { newPerson, signIn } from '../helpers/sessions.js';
import { TEST_REDIRECT_URIS, beginSsoSignIn, finishSsoSignIn, refusalOf, setUpSso } from '../helpers/sso.js';

const provider = await startOidcProvider({ redirectUris: TEST_REDIRECT_URIS });
after(() => provider.close());

let people = 0;
const nextSub = () => `person-${process.pid}-${++people}`;

describeEachDialect('GET /auth/sso/start and /auth/sso/callback', (ctx) => {
  it('redirects to the provider with PKCE (S256), state, nonce and the redirect URI, and sets the browser cookie', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    const res = await ctx().client(null).get(`/auth/sso/start?workspace_id=${ctx().a.id}`);
    assert.equal(res.status, 302, res.text);
    const url = new URL(String(res.headers.location));
    assert.equal(url.origin, provider.issuer);
    const params = Object.fromEntries(url.searchParams);
    assert.equal(params.client_id, provider.client.client_id);
    assert.equal(params.response_type, 'code');
    assert.equal(params.scope, 'openid email profile');
    assert.equal(params.code_challenge_method, 'S256');
    assert.match(params.code_challenge, /^[\w-]{43}$/);
    assert.match(params.state, /^[\w-]{20,}$/);
    assert.match(params.nonce, /^[\w-]{20,}$/);
    assert.equal(params.redirect_uri, 'http://localhost/auth/sso/callback');
    assert.match(String([res.headers['set-cookie']].flat()[0]), /^loopdesk_sso=\w{40}; Path=\/auth\/sso; Max-Age=600; HttpOnly; SameSite=Lax$/);
  });

  it('sends a workspace without SSO, an unknown one or none back to the sign-in page with sso_not_configured', async () => {
    for (const query of [`?workspace_id=${ctx().b.id}`, '?workspace_id=0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', '?workspace_id=nope', '']) {
      const res = await ctx().client(null).get(`/auth/sso/start${query}`);
      assert.equal(refusalOf(res), 'sso_not_configured', query);
      assert.equal(res.headers['set-cookie'], undefined);
    }
  });

  it('joins a new person of an allowed domain with the default role, signed in with the session cookie, and signs them in again later', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'], default_role: 'admin' });
    const sub = nextSub();
    const account = { email: `${sub}@Alpha.test`, email_verified: true, name: 'Ada Lovelace' };
    const res = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, sub, account));
    assert.equal(res.status, 302, res.text);
    assert.equal(res.headers.location, '/app');
    const cookies = [res.headers['set-cookie']].flat().map(String);
    assert.ok(cookies.some((c) => /^loopdesk_session=lds_\w{40}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/.test(c)), cookies.join('\n'));
    assert.ok(cookies.some((c) => c.startsWith('loopdesk_sso=; Path=/auth/sso; Max-Age=0')), 'the browser cookie is cleared');

    const me = await ctx().client(null, { cookie: sessionCookieOf(res) }).get('/api/v1/me');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.data.workspace_id, ctx().a.id);
    assert.equal(me.body.data.member.role, 'admin');
    assert.equal(me.body.data.member.display_name, 'Ada Lovelace');

    const again = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, sub, account));
    assert.equal(again.headers.location, '/app');
    const meAgain = await ctx().client(null, { cookie: sessionCookieOf(again) }).get('/api/v1/me');
    assert.equal(meAgain.body.data.member.id, me.body.data.member.id, 'the same member, not a second one');
    const signIns = (await ctx().a.api.get(`/api/v1/audit-log?action=auth.signed_in&target_type=member`)).body.data
      .filter((entry: { target_id: string }) => entry.target_id === me.body.data.member.id);
    assert.deepEqual(signIns.map((entry: { actor: unknown }) => entry.actor), Array(2).fill({ type: 'member', id: me.body.data.member.id, name: 'Ada Lovelace' }));
    const joined = (await ctx().a.api.get('/api/v1/audit-log?action=member.joined')).body.data.filter((entry: { target_id: string }) => entry.target_id === me.body.data.member.id);
    assert.equal(joined.length, 1, 'joined once, then signed in twice');
  });

  it('signs an existing member in by email, with their role, whatever the domain when no domains are allowed', async () => {
    const person = await newPerson(ctx(), ctx().a);
    await setUpSso(ctx().a, provider, { allowed_domains: [] });
    const res = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email: person.email.toUpperCase(), email_verified: true }));
    assert.equal(res.headers.location, '/app', res.text);
    const me = await ctx().client(null, { cookie: sessionCookieOf(res) }).get('/api/v1/me');
    assert.equal(me.body.data.member.id, person.member.id);
    assert.equal(me.body.data.member.role, 'agent');
  });

  it('refuses someone who is not a member when no domain lets anyone join (sso_not_a_member)', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: [] });
    const sub = nextSub();
    const res = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, sub, { email: `${sub}@alpha.test`, email_verified: true }));
    assert.equal(refusalOf(res), 'sso_not_a_member');
    assert.ok(![res.headers['set-cookie']].flat().some((c) => String(c).startsWith('loopdesk_session=lds_')), 'no session');
  });

  it('refuses an unverified email and a missing one (sso_email_unverified)', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    for (const account of [{ email: 'unverified@alpha.test', email_verified: false }, { email: 'silent@alpha.test' }, { email_verified: true }]) {
      const res = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), account));
      assert.equal(refusalOf(res), 'sso_email_unverified', JSON.stringify(account));
    }
  });

  it('takes Entra\'s xms_edov: true for a verified email when the token has no email_verified, and only then', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    const entra = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email: 'entra@alpha.test', xms_edov: true }));
    assert.equal(entra.headers.location, '/app', entra.text);
    const denied = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email: 'entra2@alpha.test', email_verified: false, xms_edov: true }));
    assert.equal(refusalOf(denied), 'sso_email_unverified', 'email_verified: false wins');
  });

  it('refuses an email of a domain not allowed, even a subdomain or a member\'s (sso_domain_not_allowed)', async () => {
    const person = await newPerson(ctx(), ctx().a);
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    for (const email of ['mallory@evil.test', 'mallory@sub.alpha.test', person.email]) {
      if (email.endsWith('@alpha.test')) continue;
      const res = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email, email_verified: true }));
      assert.equal(refusalOf(res), 'sso_domain_not_allowed', email);
    }
    // The member's email refused: a failed sign-in in the workspace's audit log, as a wrong password is.
    const failures = (await ctx().a.api.get(`/api/v1/audit-log?action=auth.sign_in_failed&actor_id=${person.member.id}`)).body.data;
    assert.deepEqual(failures.map((entry: { target_id: string }) => entry.target_id), [person.member.id]);
  });

  it('records an unverified token naming a member\'s email as a failed sign-in of that member, and nothing for anyone else', async () => {
    const person = await newPerson(ctx(), ctx().a);
    await setUpSso(ctx().a, provider, { allowed_domains: [] });
    for (const email of [person.email, 'stranger@alpha.test']) {
      const res = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email, email_verified: false }));
      assert.equal(refusalOf(res), 'sso_email_unverified', email);
    }
    const failures = (await ctx().a.api.get('/api/v1/audit-log?action=auth.sign_in_failed&limit=200')).body.data;
    assert.deepEqual(failures.filter((entry: { target_id: string }) => entry.target_id === person.member.id).length, 1);
    assert.ok(!JSON.stringify(failures).includes('stranger'), 'an email of nobody is recorded nowhere');
  });

  it('refuses a tampered state, a missing one, and a callback from another browser (sso_invalid_state)', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    const account = { email: 'state@alpha.test', email_verified: true };
    const tampered = await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), account);
    const url = new URL(tampered.callback, 'http://localhost');
    url.searchParams.set('state', `${url.searchParams.get('state')}x`);
    assert.equal(refusalOf(await ctx().client(null, { cookie: tampered.cookie }).get(`${url.pathname}${url.search}`)), 'sso_invalid_state');
    url.searchParams.delete('state');
    assert.equal(refusalOf(await ctx().client(null, { cookie: tampered.cookie }).get(`${url.pathname}${url.search}`)), 'sso_invalid_state');

    const elsewhere = await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), account);
    assert.equal(refusalOf(await finishSsoSignIn(ctx(), elsewhere, ctx().client(null))), 'sso_invalid_state', 'no browser cookie');
    const other = await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), account);
    assert.equal(refusalOf(await finishSsoSignIn(ctx(), other, ctx().client(null, { cookie: elsewhere.cookie }))), 'sso_invalid_state', 'another browser\'s cookie');
  });

  it('takes a state once: the same callback again is refused (replayed state), and a used code with a new state too (replayed code)', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    const account = { email: 'replay@alpha.test', email_verified: true };
    const first = await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), account);
    assert.equal((await finishSsoSignIn(ctx(), first)).headers.location, '/app');
    assert.equal(refusalOf(await finishSsoSignIn(ctx(), first)), 'sso_invalid_state');

    const second = await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), account);
    const usedCode = new URL(first.callback, 'http://localhost').searchParams.get('code')!;
    const withOldCode = new URL(second.callback, 'http://localhost');
    withOldCode.searchParams.set('code', usedCode);
    assert.equal(refusalOf(await finishSsoSignIn(ctx(), { ...second, callback: `${withOldCode.pathname}${withOldCode.search}` })), 'sso_failed');
  });

  it('refuses an expired state (ten minutes)', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    const begun = await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email: 'slow@alpha.test', email_verified: true });
    await ctx().database.db.updateTable('sso_sign_ins').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
    assert.equal(refusalOf(await finishSsoSignIn(ctx(), begun)), 'sso_invalid_state');
  });

  for (const [what, change, options] of [
    ['an expired ID token', (claims: Record<string, unknown>) => ({ ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }), {}],
    ['an ID token for another client (wrong audience)', (claims: Record<string, unknown>) => ({ ...claims, aud: provider.otherClient.client_id }), {}],
    ['an ID token of another issuer', (claims: Record<string, unknown>) => ({ ...claims, iss: 'https://evil.example' }), {}],
    ['an ID token with another nonce', (claims: Record<string, unknown>) => ({ ...claims, nonce: 'not-the-nonce' }), {}],
    ['an ID token with a forged signature', (claims: Record<string, unknown>) => claims, { forged: true }],
  ] as const) {
    it(`refuses ${what} (sso_failed), with no session`, async () => {
      await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
      const begun = await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email: 'token@alpha.test', email_verified: true });
      provider.tamperIdToken(change, options);
      try {
        const res = await finishSsoSignIn(ctx(), begun);
        assert.equal(refusalOf(res), 'sso_failed');
        assert.ok(![res.headers['set-cookie']].flat().some((c) => String(c).startsWith('loopdesk_session=lds_')), 'no session');
      } finally {
        provider.tamperIdToken(null);
      }
    });
  }

  it('sends an error answer of the provider back as sso_cancelled', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    const begun = await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email: 'cancel@alpha.test', email_verified: true });
    const state = new URL(begun.callback, 'http://localhost').searchParams.get('state')!;
    const res = await finishSsoSignIn(ctx(), { ...begun, callback: `/auth/sso/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}` });
    assert.equal(refusalOf(res), 'sso_cancelled');
  });

  it('signs in to the workspace whose sign-in it was, not another one the person is in', async () => {
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    const res = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, nextSub(), { email: 'isolated@alpha.test', email_verified: true }));
    const me = await ctx().client(null, { cookie: sessionCookieOf(res) }).get('/api/v1/me');
    assert.equal(me.body.data.workspace_id, ctx().a.id);
    const inB = await ctx().client(null, { cookie: sessionCookieOf(res) }).get(`/api/v1/members`);
    assert.ok(inB.body.data.every((member: { id: string }) => member.id !== ctx().b.owner.id));
  });
});

describeEachDialect('enforced single sign-on', (ctx) => {
  it('refuses a non-owner\'s password sign-in with 403, and still lets an owner in with a password', async () => {
    const agent = await newPerson(ctx(), ctx().a, 'agent');
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    const owner = await newPerson(ctx(), ctx().a, 'owner');
    await setUpSso(ctx().a, provider, { enforce: true });
    for (const person of [agent, admin]) {
      const res = await signIn(ctx(), { email: person.email, password: person.password });
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.error_code, 'forbidden');
      assert.match(res.body.detail, /single sign-on/);
      assert.equal(res.headers['set-cookie'], undefined);
    }
    assert.equal((await signIn(ctx(), { email: owner.email, password: owner.password })).status, 200);
  });

  it('leaves password sign-in alone without enforce, and in other workspaces', async () => {
    const agent = await newPerson(ctx(), ctx().a, 'agent');
    const other = await newPerson(ctx(), ctx().b, 'agent');
    await setUpSso(ctx().a, provider, { enforce: false });
    await setUpSso(ctx().b, provider, { enforce: false });
    assert.equal((await signIn(ctx(), { email: agent.email, password: agent.password })).status, 200);
    await setUpSso(ctx().a, provider, { enforce: true });
    assert.equal((await signIn(ctx(), { email: other.email, password: other.password })).status, 200);
    assert.equal((await signIn(ctx(), { email: agent.email, password: agent.password })).status, 403);
  });

  it('answers a wrong password with 401 as before, enforce or not (nothing said about the account)', async () => {
    const agent = await newPerson(ctx(), ctx().a, 'agent');
    await setUpSso(ctx().a, provider, { enforce: true });
    assert.equal((await signIn(ctx(), { email: agent.email, password: 'not the password' })).status, 401);
  });
});
