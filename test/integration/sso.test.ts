// [ext] The single sign-on settings (docs/sso.md): PUT/GET/DELETE /api/v1/sso with the issuer's
// discovery checked against a real provider in this process, and GET /auth/sso for the sign-in page.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, it } from 'node:test';
import { describeEachDialect, type WorkspaceFixture } from '../helpers/harness.js';
import { startOidcProvider } from '../helpers/oidc-provider.js';
import { REFUSED_URL } from '../helpers/ports.js';
import { newPerson } from '../helpers/sessions.js';
import { TEST_REDIRECT_URIS, beginSsoSignIn, finishSsoSignIn, setUpSso } from '../helpers/sso.js';

const provider = await startOidcProvider({ redirectUris: TEST_REDIRECT_URIS });
// Accepts connections and never answers: discovery must give up (the test apps wait 300 ms).
const silent = createServer(() => {});
// Serves the real provider's discovery document at another address: it names another issuer.
const impostor = createServer((_request, response) => {
  void fetch(`${provider.issuer}/.well-known/openid-configuration`).then(async (answer) => {
    response.setHeader('content-type', 'application/json');
    response.end(await answer.text());
  });
});
for (const server of [silent, impostor]) server.listen(0, '127.0.0.1');
await Promise.all([once(silent, 'listening'), once(impostor, 'listening')]);
const addressOf = (server: typeof silent) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(async () => {
  for (const server of [silent, impostor]) {
    server.closeAllConnections();
    server.close();
  }
  await provider.close();
});

const put = (workspace: WorkspaceFixture, body: Record<string, unknown>) => workspace.api.request('PUT', '/api/v1/sso', { body });
const valid = () => ({ issuer: provider.issuer, client_id: provider.client.client_id, client_secret: provider.client.client_secret });

describeEachDialect('PUT /api/v1/sso', (ctx) => {
  it('stores the settings once the issuer\'s discovery checks out, and answers them without the secret', async () => {
    const res = await put(ctx().a, { ...valid(), allowed_domains: [' Alpha.TEST ', '@beta.test', 'alpha.test'], default_role: 'admin', enforce: true });
    assert.equal(res.status, 200, res.text);
    const { created_at, updated_at, ...data } = res.body.data;
    assert.deepEqual(data, {
      issuer: provider.issuer, client_id: 'loopdesk', allowed_domains: ['alpha.test', 'beta.test'], default_role: 'admin', enforce: true,
      redirect_uri: 'http://localhost/auth/sso/callback',
    });
    assert.equal(created_at, updated_at);
    assert.ok(!res.text.includes(provider.client.client_secret), 'the secret never comes back');
  });

  it('defaults to no allowed domains, the agent role and no enforcement', async () => {
    const res = await put(ctx().b, valid());
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.data.allowed_domains, res.body.data.default_role, res.body.data.enforce], [[], 'agent', false]);
  });

  it('keeps the stored client secret when a later PUT leaves it out (people still sign in)', async () => {
    await put(ctx().a, { ...valid(), allowed_domains: ['alpha.test'] });
    const { client_secret: _secret, ...withoutSecret } = valid();
    const again = await put(ctx().a, { ...withoutSecret, allowed_domains: ['alpha.test'], enforce: false });
    assert.equal(again.status, 200, again.text);
    const stored = await ctx().database.db.selectFrom('sso_configs').select('client_secret').where('workspace_id', '=', ctx().a.id).executeTakeFirstOrThrow();
    assert.equal(stored.client_secret, provider.client.client_secret);
    const res = await finishSsoSignIn(ctx(), await beginSsoSignIn(ctx(), provider, ctx().a.id, `kept-${process.pid}`, { email: 'kept@alpha.test', email_verified: true }));
    assert.equal(res.headers.location, '/app', 'the kept secret authenticates the code exchange');
  });

  it('needs the client secret the first time', async () => {
    await ctx().a.api.delete('/api/v1/sso');
    const { client_secret: _secret, ...withoutSecret } = valid();
    const res = await put(ctx().a, withoutSecret);
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.client_secret, res.text);
  });

  for (const [issuer, why] of [
    ['http://idp.example.com', 'http off loopback'],
    ['ftp://127.0.0.1', 'another scheme'],
    ['not a url', 'not a URL'],
    ['https://idp.example.com/?tenant=1', 'a query'],
    ['https://user:pass@idp.example.com', 'credentials'],
  ] as const) {
    it(`refuses an issuer with ${why} (fields.issuer), before any request`, async () => {
      const res = await put(ctx().a, { ...valid(), issuer });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields.issuer, res.text);
    });
  }

  it('refuses an issuer whose discovery names another issuer, and nothing changes', async () => {
    await put(ctx().b, valid());
    const res = await put(ctx().b, { ...valid(), issuer: addressOf(impostor), enforce: true });
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.fields.issuer, /discovery document/);
    const kept = await ctx().b.api.get('/api/v1/sso');
    assert.equal(kept.body.data.issuer, provider.issuer);
    assert.equal(kept.body.data.enforce, false);
  });

  it('refuses an issuer without a discovery document, and one that cannot be reached', async () => {
    for (const issuer of [`${provider.issuer}/nowhere`, REFUSED_URL.replace(':0', ':1')]) {
      const res = await put(ctx().a, { ...valid(), issuer });
      assert.equal(res.status, 400, `${issuer}: ${res.text}`);
      assert.ok(res.body.fields.issuer, res.text);
    }
  });

  for (const [body, field] of [
    [{ client_id: 'x', client_secret: 'y' }, 'issuer'],
    [{ issuer: 'https://idp.example.com', client_secret: 'y' }, 'client_id'],
    [{ issuer: 'https://idp.example.com', client_id: ' ', client_secret: 'y' }, 'client_id'],
    [{ issuer: 'https://idp.example.com', client_id: 'x', client_secret: '' }, 'client_secret'],
    [{ issuer: 'https://idp.example.com', client_id: 'x', client_secret: 'y', default_role: 'owner' }, 'default_role'],
    [{ issuer: 'https://idp.example.com', client_id: 'x', client_secret: 'y', allowed_domains: ['not a domain'] }, 'allowed_domains'],
    [{ issuer: 'https://idp.example.com', client_id: 'x', client_secret: 'y', allowed_domains: 'example.com' }, 'allowed_domains'],
    [{ issuer: 'https://idp.example.com', client_id: 'x', client_secret: 'y', enforce: 'yes' }, 'enforce'],
    [{ issuer: 'https://idp.example.com', client_id: 'x', client_secret: 'y', extra: 1 }, 'extra'],
  ] as const) {
    it(`rejects ${JSON.stringify(body).slice(0, 90)} with fields.${field}`, async () => {
      const res = await put(ctx().a, body);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.fields[field], res.text);
    });
  }

  it('is a settings operation: an agent gets 403, read-only keys are refused, an integration key may', async () => {
    const agent = await newPerson(ctx(), ctx().a, 'agent');
    assert.equal((await agent.app.request('PUT', '/api/v1/sso', { body: valid() })).status, 403);
    assert.equal((await agent.app.get('/api/v1/sso')).status, 403);
    assert.equal((await agent.app.delete('/api/v1/sso')).status, 403);
    const readOnly = ctx().client(ctx().a.readOnlyKey);
    assert.equal((await readOnly.request('PUT', '/api/v1/sso', { body: valid() })).status, 403);
    assert.equal((await readOnly.delete('/api/v1/sso')).status, 403);
    assert.equal((await ctx().client(ctx().a.memberlessKey).request('PUT', '/api/v1/sso', { body: valid() })).status, 200);
    assert.equal((await readOnly.get('/api/v1/sso')).status, 200, 'a read-only key of an owner reads');
    assert.equal((await ctx().client(null).get('/api/v1/sso')).status, 401);
  });
});

describeEachDialect('PUT /api/v1/sso with a provider that never answers', (ctx) => {
  it('gives up after the timeout (here 300 ms) with 400 on issuer', async () => {
    const res = await put(ctx().a, { ...valid(), issuer: addressOf(silent) });
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.fields.issuer, /did not answer in time/);
  });
}, { ssoTimeoutMs: 300 });

describeEachDialect('GET and DELETE /api/v1/sso', (ctx) => {
  it('answers 404 when none is set up, the settings once one is, and keeps workspaces apart', async () => {
    assert.equal((await ctx().a.api.get('/api/v1/sso')).status, 404);
    await setUpSso(ctx().a, provider, { allowed_domains: ['alpha.test'] });
    const res = await ctx().a.api.get('/api/v1/sso');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.issuer, provider.issuer);
    assert.equal(res.body.data.redirect_uri, 'http://localhost/auth/sso/callback');
    assert.ok(!('client_secret' in res.body.data));
    const other = await ctx().b.api.get('/api/v1/sso');
    assert.equal(other.status, 404, 'another workspace sees none');
    assert.equal((await ctx().b.api.delete('/api/v1/sso')).status, 404, 'nor removes it');
    assert.equal((await ctx().a.api.get('/api/v1/sso')).status, 200);
  });

  it('records each PUT and DELETE in the audit log: a creation without changes, then the changed fields, the secret redacted', async () => {
    const { a } = ctx();
    await a.api.delete('/api/v1/sso');
    const entries = async () => (await a.api.get('/api/v1/audit-log?target_type=sso')).body.data;
    const before = (await entries()).length;
    assert.equal((await put(a, valid())).status, 200);
    assert.equal((await put(a, { ...valid(), client_secret: 'another-secret-value', enforce: true })).status, 200);
    assert.equal((await a.api.delete('/api/v1/sso')).status, 204);
    const [deleted, changed, created] = await entries();
    assert.equal((await entries()).length, before + 3);
    assert.deepEqual([created.action, created.target_type, created.changes], ['sso.updated', 'sso', null]);
    assert.deepEqual([changed.action, changed.changes], ['sso.updated', { enforce: [false, true], client_secret: ['[redacted]', '[redacted]'] }]);
    assert.equal(deleted.action, 'sso.deleted');
    assert.ok(!JSON.stringify(await entries()).includes('another-secret-value'), 'never the secret');
  });

  it('removes the settings: 204, then 404; the sign-in page stops offering SSO', async () => {
    await setUpSso(ctx().a, provider, { enforce: true });
    assert.equal((await ctx().client(null).get(`/auth/sso?workspace_id=${ctx().a.id}`)).status, 200);
    assert.equal((await ctx().a.api.delete('/api/v1/sso')).status, 204);
    assert.equal((await ctx().a.api.get('/api/v1/sso')).status, 404);
    assert.equal((await ctx().a.api.delete('/api/v1/sso')).status, 404);
    assert.equal((await ctx().client(null).get(`/auth/sso?workspace_id=${ctx().a.id}`)).status, 404);
  });
});

describeEachDialect('GET /auth/sso', (ctx) => {
  it('names the workspace and where its sign-in starts, when it has SSO', async () => {
    await setUpSso(ctx().a, provider);
    const res = await ctx().client(null).get(`/auth/sso?workspace_id=${ctx().a.id.toUpperCase()}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { workspace_id: ctx().a.id, start_url: `/auth/sso/start?workspace_id=${ctx().a.id}` });
  });

  it('answers 404 for a workspace without SSO, an unknown or malformed one, and without one when the server has several', async () => {
    for (const query of [`?workspace_id=${ctx().b.id}`, '?workspace_id=0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', '?workspace_id=nope', '']) {
      const res = await ctx().client(null).get(`/auth/sso${query}`);
      assert.equal(res.status, 404, query);
      assert.equal(res.body.error_code, 'not_found');
    }
  });
});
