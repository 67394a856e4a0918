// The widget's start (docs/widget.md): configuration, proof-of-work challenges, visitor sessions
// of the three kinds, identity tokens and the identity secret.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { identitySecret, signIdentity, solvedAltcha, startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const DAY_MS = 24 * 3600_000;

describeEachDialect('widget configuration and challenges', (ctx) => {
  it('GET /config shows the product name and the widget settings, with their defaults', async () => {
    const product = await createProduct(ctx().a.api, { name: 'Acme', widget_config: { greeting: 'Hi there', color: '#3366ff', theme: 'x' } });
    const res = await ctx().client(null).get(widgetPath(product.widget_key, '/config'));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, {
      product: { name: 'Acme' }, greeting: 'Hi there', color: '#3366ff', require_identity: false, proof_of_work: true, ideas_public: true,
    });
    const plain = await createProduct(ctx().a.api, { widget_config: { color: 'red', require_identity: true, ideas_public: 'no' } });
    const config = (await ctx().client(null).get(widgetPath(plain.widget_key, '/config'))).body.data;
    assert.deepEqual([config.greeting, config.color, config.require_identity, config.ideas_public], [null, null, true, true]);
  });

  it('GET /challenge gives an ALTCHA challenge, never cached', async () => {
    const product = await createProduct(ctx().a.api);
    const res = await ctx().client(null).get(widgetPath(product.widget_key, '/challenge'));
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
    assert.equal(res.body.algorithm, 'SHA-256');
    assert.match(res.body.salt, /\?expires=\d+&$/);
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  it('answers an unknown widget key with 404 and a disabled widget with 403 on every endpoint', async () => {
    const disabled = await createProduct(ctx().a.api, { widget_config: { enabled: false } });
    for (const [method, path] of [['GET', '/config'], ['GET', '/challenge'], ['POST', '/sessions'], ['GET', '/changelog']]) {
      const unknown = await ctx().client(null).request(method, widgetPath('wk_unknown', path), { body: method === 'POST' ? {} : undefined });
      assert.equal(unknown.status, 404, `${method} ${path}`);
      assert.equal(unknown.body.error_code, 'not_found');
      const off = await ctx().client(null).request(method, widgetPath(disabled.widget_key, path), { body: method === 'POST' ? {} : undefined });
      assert.equal(off.status, 403, `${method} ${path}`);
      assert.equal(off.body.error_code, 'forbidden');
    }
  });

  it('serves its own OpenAPI document at /widget/v1/openapi.json, and the API\'s document leaves it out', async () => {
    const widget = (await ctx().client(null).get('/widget/v1/openapi.json')).body;
    assert.equal(widget.info.title, 'Loopdesk widget API');
    assert.ok(Object.keys(widget.paths).every((path) => path.startsWith('/widget/v1/{widget_key}/') || path === '/widget/v1/openapi.json'));
    assert.ok(widget.paths['/widget/v1/{widget_key}/sessions'].post);
    assert.deepEqual(Object.keys(widget.components.securitySchemes), ['widgetSession']);
    assert.deepEqual(await new Validator().validate(widget), { valid: true });
    for (const [path, methods] of Object.entries<Record<string, any>>(widget.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        assert.ok(Array.isArray(operation.security), `${method} ${path} says which security it needs`);
        assert.ok(operation.operationId && operation.summary && operation.description && operation.tags?.length, `${method} ${path}`);
      }
    }
    const api = (await ctx().a.api.get('/api/v1/openapi.json')).body;
    assert.ok(Object.keys(api.paths).every((path) => !path.startsWith('/widget/')));
    assert.ok(!('WidgetSession' in api.components.schemas) && !('widgetSession' in api.components.securitySchemes));
  });
});

describeEachDialect('POST /widget/v1/{widget_key}/sessions', (ctx) => {
  const post = (widgetKey: string, body: unknown) => ctx().client(null).post(widgetPath(widgetKey, '/sessions'), body);

  it('starts an anonymous session whose token is wst_ + 40 base62 and lasts 30 days', async () => {
    const product = await widgetProduct(ctx());
    const before = Date.now();
    const session = await startSession(ctx(), product.widget_key);
    assert.match(session.token, /^wst_[0-9A-Za-z]{40}$/);
    const expires = Date.parse(session.expires_at);
    assert.ok(expires >= before + 30 * DAY_MS - 1000 && expires <= Date.now() + 30 * DAY_MS);
    assert.deepEqual({ ...session.contact, id: undefined }, { id: undefined, name: null, email: null, verified: false });
    const res = await visitor(ctx(), session.token).get(widgetPath(product.widget_key, '/conversations'));
    assert.equal(res.status, 200);
  });

  it('starts an unverified session with a typed email, whose conversations the team sees under that email\'s contact, unrenamed', async () => {
    const product = await widgetProduct(ctx());
    const email = `known-${Date.now()}@example.com`;
    const imported = await ctx().a.api.post('/api/v1/conversations', { product_id: product.id, title: 'Earlier', contact: { name: 'Real Name', email } });
    const session = await startSession(ctx(), product.widget_key, { name: ' Someone Else ', email: email.toUpperCase() });
    assert.deepEqual({ ...session.contact, id: undefined }, { id: undefined, name: 'Someone Else', email, verified: false });
    const started = await visitor(ctx(), session.token).post(widgetPath(product.widget_key, '/conversations'), { body: 'Hello again' });
    const seen = await ctx().a.api.get(`/api/v1/conversations/${started.body.data.id}`);
    assert.equal(seen.body.data.contact_id, imported.body.data.contact_id);
    assert.equal(seen.body.data.contact.name, 'Real Name');
  });

  it('answers an unverified session alike whether its email is known or not: no contact\'s id, nothing of its age', async () => {
    const product = await widgetProduct(ctx());
    const known = `long-time-${Date.now()}@example.com`;
    const imported = await ctx().a.api.post('/api/v1/conversations', { product_id: product.id, title: 'Years ago', contact: { name: 'Customer', email: known } });
    const contactIds = new Set((await ctx().database.db.selectFrom('contacts').select('id').execute()).map((row) => row.id));
    const before = Date.now();
    const answers = [];
    for (const email of [known, `never-seen-${Date.now()}@example.com`]) {
      const res = await ctx().client(null).post(widgetPath(product.widget_key, '/sessions'), { name: 'Probe', email });
      assert.equal(res.status, 201, res.text);
      answers.push(res.body.data);
    }
    const [forKnown, forUnknown] = answers;
    assert.deepEqual(Object.keys(forKnown).sort(), Object.keys(forUnknown).sort());
    assert.deepEqual(Object.keys(forKnown.contact).sort(), Object.keys(forUnknown.contact).sort());
    for (const answer of answers) {
      assert.equal(answer.contact.verified, false);
      assert.equal(answer.contact.name, 'Probe');
      assert.ok(!contactIds.has(answer.contact.id), 'the id is no contact\'s');
      // A UUIDv7 carries its creation time in its first 48 bits: both are as new as the session.
      assert.ok(parseInt(answer.contact.id.replace(/-/g, '').slice(0, 12), 16) >= before - 1000, 'the id tells nothing of the contact\'s age');
    }
    assert.notEqual(forKnown.contact.id, imported.body.data.contact_id);
  });

  it('stores only the token\'s hash', async () => {
    const product = await widgetProduct(ctx());
    const { token } = await startSession(ctx(), product.widget_key);
    const rows = await ctx().database.db.selectFrom('widget_sessions').select('token_hash').execute();
    assert.ok(rows.every((row) => row.token_hash !== token && !row.token_hash.includes(token.slice(4))));
  });

  it('validates its fields as the API does', async () => {
    const product = await widgetProduct(ctx());
    const res = await post(product.widget_key, { name: ' ', email: 'not-an-email', identity_token: '', extra: 1, altcha: 5 });
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['altcha', 'email', 'extra', 'identity_token', 'name']);
    const nul = await post(product.widget_key, { name: 'a\u0000b' });
    assert.equal(nul.status, 400);
    assert.ok(nul.body.fields.name);
    const long = await post(product.widget_key, { name: '😀'.repeat(200) });
    assert.equal(long.status, 201, 'lengths count code points');
  });

  it('requires a solved challenge when proof_of_work is on, and accepts each solution once', async () => {
    const product = await createProduct(ctx().a.api);
    const missing = await post(product.widget_key, {});
    assert.equal(missing.status, 400);
    assert.ok(missing.body.fields.altcha);
    for (const altcha of ['garbage', Buffer.from('{"algorithm":"SHA-256"}').toString('base64'), Buffer.from('null').toString('base64')]) {
      const wrong = await post(product.widget_key, { altcha });
      assert.equal(wrong.status, 400, altcha);
      assert.ok(wrong.body.fields.altcha);
    }
    const altcha = await solvedAltcha(ctx(), product.widget_key);
    assert.equal((await post(product.widget_key, { altcha })).status, 201);
    const replay = await post(product.widget_key, { altcha });
    assert.equal(replay.status, 400);
    assert.match(replay.body.fields.altcha, /already been used/);
  });

  it('refuses a solution of another product\'s challenge', async () => {
    const product = await createProduct(ctx().a.api);
    const other = await createProduct(ctx().a.api);
    const altcha = await solvedAltcha(ctx(), other.widget_key);
    const res = await post(product.widget_key, { altcha });
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.altcha);
  });

  it('refuses a tampered solution (another number)', async () => {
    const product = await createProduct(ctx().a.api);
    const payload = JSON.parse(Buffer.from(await solvedAltcha(ctx(), product.widget_key), 'base64').toString());
    const tampered = Buffer.from(JSON.stringify({ ...payload, number: payload.number + 1 })).toString('base64');
    assert.equal((await post(product.widget_key, { altcha: tampered })).status, 400);
  });
});

describeEachDialect('identity tokens and verified sessions', (ctx) => {
  async function verifiedProduct(widget_config: Record<string, unknown> = {}) {
    const product = await widgetProduct(ctx(), widget_config);
    return { product, secret: await identitySecret(ctx(), product.id) };
  }

  it('POST /api/v1/products/{id}/identity-secret gives ids_ + 40 base62, for settings roles only', async () => {
    const product = await createProduct(ctx().a.api);
    const secret = await identitySecret(ctx(), product.id);
    assert.match(secret, /^ids_[0-9A-Za-z]{40}$/);
    const { a, b, services } = ctx();
    const agent = await services.admin.createMember({ workspaceId: a.id, name: 'Agent', role: 'agent' });
    const agentKey = await services.admin.createKey({ workspaceId: a.id, memberId: agent.id });
    const refusals = [
      [ctx().client(agentKey.key), 403], [ctx().client(a.readOnlyKey), 403], [b.api, 404], [ctx().client(null), 401],
    ] as const;
    for (const [client, status] of refusals) {
      const res = await client.post(`/api/v1/products/${product.id}/identity-secret`);
      assert.equal(res.status, status);
    }
    const memberless = await ctx().client(a.memberlessKey).post(`/api/v1/products/${product.id}/identity-secret`);
    assert.equal(memberless.status, 200);
    assert.equal((await ctx().a.api.post('/api/v1/products/00000000-0000-4000-8000-000000000000/identity-secret')).status, 404);
  });

  it('a valid token makes a verified contact, found again by sub from any device', async () => {
    const { product, secret } = await verifiedProduct();
    const token = await signIdentity(secret, { sub: 'u-42', aud: product.widget_key, email: 'Ada@Example.com', name: 'Ada' });
    const first = await startSession(ctx(), product.widget_key, { identity_token: token });
    assert.deepEqual({ ...first.contact, id: undefined }, { id: undefined, name: 'Ada', email: 'ada@example.com', verified: true });
    const renamed = await signIdentity(secret, { sub: 'u-42', aud: product.widget_key, name: 'Ada L.' });
    const second = await startSession(ctx(), product.widget_key, { identity_token: renamed });
    assert.equal(second.contact.id, first.contact.id);
    assert.equal(second.contact.name, 'Ada L.');
    assert.notEqual(second.token, first.token);
  });

  it('a verified visitor claims the contact an email-only visitor or an import left', async () => {
    const { product, secret } = await verifiedProduct();
    const email = `claim-${Date.now()}@example.com`;
    const typed = await startSession(ctx(), product.widget_key, { email });
    const started = await visitor(ctx(), typed.token).post(widgetPath(product.widget_key, '/conversations'), { body: 'Typed my email' });
    const typedContactId = (await ctx().a.api.get(`/api/v1/conversations/${started.body.data.id}`)).body.data.contact_id;
    const token = await signIdentity(secret, { sub: 'claimer', aud: product.widget_key, email });
    const verified = await startSession(ctx(), product.widget_key, { identity_token: token });
    assert.equal(verified.contact.id, typedContactId);
    assert.equal(verified.contact.verified, true);
  });

  const badTokens: [string, (secret: string, widgetKey: string) => Promise<string> | string][] = [
    ['expired', (secret, aud) => signIdentity(secret, { aud, expiresIn: -3600 })],
    ['wrong audience', (secret) => signIdentity(secret, { aud: 'wk_someoneelse' })],
    ['no audience', (secret) => signIdentity(secret, {})],
    ['wrong secret', (_secret, aud) => signIdentity('ids_0000000000000000000000000000000000000000', { aud })],
    ['missing sub', (secret, aud) => signIdentity(secret, { aud, sub: null })],
    ['empty sub', (secret, aud) => signIdentity(secret, { aud, sub: '' })],
    ['no exp', (secret, aud) => signIdentity(secret, { aud, expiresIn: null })],
    ['exp more than 24 h ahead', (secret, aud) => signIdentity(secret, { aud, expiresIn: 25 * 3600 })],
    ['alg none', (_secret, aud) => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'u', aud, exp: Math.floor(Date.now() / 1000) + 600 })}.`;
    }],
    ['not a JWT', () => 'hello'],
    ['a malformed email claim', (secret, aud) => signIdentity(secret, { aud, email: 'nope' })],
  ];
  for (const [what, make] of badTokens) {
    it(`answers 401 for an identity token that is ${what}`, async () => {
      const { product, secret } = await verifiedProduct();
      const res = await ctx().client(null).post(widgetPath(product.widget_key, '/sessions'), { identity_token: await make(secret, product.widget_key) });
      assert.equal(res.status, 401, res.text);
      assert.equal(res.body.error_code, 'unauthorized');
    });
  }

  it('takes a token signed by the Node example of docs/widget.md, the same as the README\'s', async () => {
    const { product, secret } = await verifiedProduct();
    const nodeExample = (file: string) => /```js\n([\s\S]*?)```/.exec(readFileSync(file, 'utf8'))![1];
    const example = nodeExample('docs/widget.md');
    assert.equal(nodeExample('README.md'), example);
    const file = join(mkdtempSync(join(tmpdir(), 'widget-doc-')), 'sign.mjs');
    writeFileSync(file, example);
    const { loopdeskIdentityToken } = await import(pathToFileURL(file).href);
    const token = loopdeskIdentityToken({ id: 7, email: 'doc@example.com', name: 'Doc' }, { secret, widgetKey: product.widget_key });
    const session = await startSession(ctx(), product.widget_key, { identity_token: token });
    assert.deepEqual({ ...session.contact, id: undefined }, { id: undefined, name: 'Doc', email: 'doc@example.com', verified: true });
  });

  it('answers 401 for a token signed with a rotated secret, and ends the sessions it vouched for', async () => {
    const { product, secret } = await verifiedProduct();
    const token = await signIdentity(secret, { aud: product.widget_key });
    const session = await startSession(ctx(), product.widget_key, { identity_token: token });
    const anonymous = await startSession(ctx(), product.widget_key);
    await identitySecret(ctx(), product.id);
    const res = await ctx().client(null).post(widgetPath(product.widget_key, '/sessions'), { identity_token: token });
    assert.equal(res.status, 401);
    assert.equal((await visitor(ctx(), session.token).get(widgetPath(product.widget_key, '/conversations'))).status, 401);
    assert.equal((await visitor(ctx(), anonymous.token).get(widgetPath(product.widget_key, '/conversations'))).status, 200);
  });

  it('answers 401 for a token when the product has no identity secret', async () => {
    const product = await widgetProduct(ctx());
    const token = await signIdentity('ids_0000000000000000000000000000000000000000', { aud: product.widget_key });
    assert.equal((await ctx().client(null).post(widgetPath(product.widget_key, '/sessions'), { identity_token: token })).status, 401);
  });

  it('with require_identity, answers 401 to sessions without a valid token', async () => {
    const { product, secret } = await verifiedProduct({ require_identity: true });
    for (const body of [{}, { email: 'x@example.com' }, { identity_token: 'bad' }]) {
      const res = await ctx().client(null).post(widgetPath(product.widget_key, '/sessions'), body);
      assert.equal(res.status, 401, JSON.stringify(body));
    }
    await startSession(ctx(), product.widget_key, { identity_token: await signIdentity(secret, { aud: product.widget_key }) });
  });

  it('refuses a session token on another product\'s widget, and malformed or unknown tokens', async () => {
    const product = await widgetProduct(ctx());
    const other = await widgetProduct(ctx());
    const { token } = await startSession(ctx(), product.widget_key);
    for (const presented of [token, `${token.slice(0, -1)}x`, 'wst_short', 'ldk_nope']) {
      const res = await visitor(ctx(), presented).get(widgetPath(other.widget_key, '/conversations'));
      assert.equal(res.status, 401, presented);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
    assert.equal((await ctx().client(null).get(widgetPath(product.widget_key, '/conversations'))).status, 401);
  });
});

const clock = manualClock();

describeEachDialect('widget session lifetime', (ctx) => {
  it('keeps a session valid until 30 days after its last use', async () => {
    const product = await widgetProduct(ctx());
    const session = await startSession(ctx(), product.widget_key);
    assert.equal(session.expires_at, new Date(Date.parse(clock.now()) + 30 * DAY_MS).toISOString());
    const list = () => visitor(ctx(), session.token).get(widgetPath(product.widget_key, '/conversations'));
    clock.advance(29 * DAY_MS);
    assert.equal((await list()).status, 200, 'used on day 29');
    clock.advance(29 * DAY_MS);
    assert.equal((await list()).status, 200, 'day 58: 29 days after its last use');
    clock.advance(30 * DAY_MS + 1000);
    assert.equal((await list()).status, 401, '30 days without use');
  });
}, { clock });

describeEachDialect('the team side of the widget', (ctx) => {
  it('products carry their embed snippet, based on LOOPDESK_PUBLIC_URL or else the request\'s origin', async () => {
    const product = await createProduct(ctx().a.api);
    const res = await ctx().a.api.get(`/api/v1/products/${product.id}`, { headers: { host: 'support.acme.test' } });
    assert.equal(res.body.data.embed_snippet, `<script src="http://support.acme.test/widget.js" data-widget-key="${product.widget_key}" async></script>`);
  });

  it('conversation contacts say whether they are verified', async () => {
    const product = await widgetProduct(ctx());
    const res = await ctx().a.api.post('/api/v1/conversations', { product_id: product.id, title: 'Imported', contact: { email: 'imp@example.com' } });
    assert.equal(res.body.data.contact.verified, false);
  });
});

export type { TestContext };
