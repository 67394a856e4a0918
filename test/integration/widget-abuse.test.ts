// The widget API's defences (docs/widget.md, "Abuse" and "Origins"): allowed origins with CORS and
// preflight, refused origins, per-address limits, and the same envelope and X-Request-Id as the API.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDialect } from '../helpers/harness.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

describeEachDialect('widget origins', (ctx) => {
  const getConfig = (widgetKey: string, origin?: string) =>
    ctx().client(null, origin ? { origin } : {}).get(widgetPath(widgetKey, '/config'));

  it('allows the product\'s domain and its subdomains, any scheme and port, with CORS headers and no credentials', async () => {
    const product = await widgetProduct(ctx(), {});
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { domain: 'Acme.com' });
    for (const origin of ['https://acme.com', 'http://acme.com:8080', 'https://app.acme.com', 'https://a.b.ACME.com']) {
      const res = await getConfig(product.widget_key, origin);
      assert.equal(res.status, 200, origin);
      assert.equal(res.headers['access-control-allow-origin'], origin);
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
      assert.match(String(res.headers['access-control-expose-headers']), /X-Request-Id/);
      assert.match(String(res.headers.vary), /Origin/);
    }
  });

  it('refuses other origins with 403, lets requests without Origin pass, and allows this server\'s own pages', async () => {
    const product = await widgetProduct(ctx());
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { domain: 'https://acme.com/' });
    for (const origin of ['https://evil.com', 'https://notacme.com', 'https://acme.com.evil.com', 'null', 'garbage']) {
      const res = await getConfig(product.widget_key, origin);
      assert.equal(res.status, 403, origin);
      assert.equal(res.body.error_code, 'forbidden');
      assert.equal(res.headers['access-control-allow-origin'], undefined);
    }
    assert.equal((await getConfig(product.widget_key)).status, 200);
    const own = await ctx().client(null, { origin: 'http://support.loopdesk.test', host: 'support.loopdesk.test' }).get(widgetPath(product.widget_key, '/config'));
    assert.equal(own.status, 200, 'the widget frame is served from this server');
  });

  it('allows any origin when the product has no domain', async () => {
    const product = await widgetProduct(ctx());
    const res = await getConfig(product.widget_key, 'https://anywhere.example');
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'https://anywhere.example');
  });

  it('answers preflight requests of allowed origins, and refuses the others', async () => {
    const product = await widgetProduct(ctx());
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { domain: 'acme.com' });
    const preflight = (origin: string, path = '/conversations/x/rating') => ctx().client(null, {
      origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type',
    }).request('OPTIONS', widgetPath(product.widget_key, path));
    const ok = await preflight('https://www.acme.com');
    assert.equal(ok.status, 204);
    assert.equal(ok.headers['access-control-allow-origin'], 'https://www.acme.com');
    assert.match(String(ok.headers['access-control-allow-methods']), /PUT/);
    assert.match(String(ok.headers['access-control-allow-headers']), /Authorization/);
    assert.ok(ok.headers['x-request-id']);
    assert.equal((await preflight('https://evil.com')).status, 403);
    const unknown = await ctx().client(null, { origin: 'https://acme.com' }).request('OPTIONS', widgetPath('wk_unknown', '/config'));
    assert.equal(unknown.status, 404);
  });

  it('answers with the API\'s envelope and echoes X-Request-Id', async () => {
    const product = await widgetProduct(ctx());
    const res = await ctx().client(null, { 'x-request-id': 'widget-trace-1' }).post(widgetPath(product.widget_key, '/sessions'), { nope: true });
    assert.equal(res.status, 400);
    assert.equal(res.headers['x-request-id'], 'widget-trace-1');
    assert.deepEqual(Object.keys(res.body).sort(), ['detail', 'error_code', 'fields']);
    const malformed = await ctx().client(null).request('POST', widgetPath(product.widget_key, '/sessions'), {
      payload: '{"name":', headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error_code, 'validation_error');
    const text = await ctx().client(null).request('POST', widgetPath(product.widget_key, '/sessions'), { payload: 'hi', headers: { 'content-type': 'text/plain' } });
    assert.equal(text.status, 415);
  });
});

describeEachDialect('widget rate limits (LOOPDESK_WIDGET_RATE_LIMIT=0.1: 1 session, 3 writes, 12 reads a minute)', (ctx) => {
  it('limits session starts per address and widget key, with Retry-After', async () => {
    const product = await widgetProduct(ctx());
    const other = await widgetProduct(ctx());
    await startSession(ctx(), product.widget_key);
    const refused = await ctx().client(null).post(widgetPath(product.widget_key, '/sessions'), {});
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error_code, 'forbidden');
    assert.match(refused.body.detail, /rate limit/);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    await startSession(ctx(), other.widget_key);
    const elsewhere = await ctx().client(null, {}).request('POST', widgetPath(product.widget_key, '/sessions'), { body: {}, headers: { 'x-forwarded-for': '10.0.0.9' } });
    assert.equal(elsewhere.status, 429, 'X-Forwarded-For is not trusted');
  });

  it('limits writes and reads separately', async () => {
    const product = await widgetProduct(ctx());
    const { token } = await startSession(ctx(), product.widget_key);
    const client = visitor(ctx(), token);
    const writes = [];
    for (let i = 0; i < 4; i++) writes.push((await client.post(widgetPath(product.widget_key, '/conversations'), { body: `Hi ${i}` })).status);
    assert.deepEqual(writes, [201, 201, 201, 429]);
    const reads = [];
    for (let i = 0; i < 13; i++) reads.push((await client.get(widgetPath(product.widget_key, '/conversations'))).status);
    assert.deepEqual(reads, [...Array(12).fill(200), 429]);
  });
}, { widgetRateLimitScale: 0.1 });
