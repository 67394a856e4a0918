import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { describeEachDialect, unique, type ApiResponse, type Client, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';

const LIMIT = 3;
const SECONDS_PER_TOKEN = 60 / LIMIT;
const clock = manualClock();

/** A client with a key of its own, so each test starts with a full bucket. */
async function freshClient(ctx: TestContext): Promise<Client> {
  const { key } = await ctx.services.admin.createKey({ workspaceId: ctx.a.id, memberId: ctx.a.owner.id });
  return ctx.client(key);
}

function assertRateHeaders(res: ApiResponse, remaining: number, reset: number): void {
  assert.equal(res.headers['ratelimit-limit'], String(LIMIT));
  assert.equal(res.headers['ratelimit-remaining'], String(remaining));
  assert.equal(res.headers['ratelimit-reset'], String(reset));
}

async function exhaust(api: Client): Promise<void> {
  for (let i = 0; i < LIMIT; i++) assert.equal((await api.get('/api/v1/me')).status, 200);
}

describeEachDialect('rate limiting [ext]', (ctx) => {
  it('counts down RateLimit-Remaining on successful responses', async () => {
    const api = await freshClient(ctx());
    for (let remaining = LIMIT - 1; remaining >= 0; remaining--) {
      const res = await api.get('/api/v1/me');
      assert.equal(res.status, 200);
      assertRateHeaders(res, remaining, (LIMIT - remaining) * SECONDS_PER_TOKEN);
      assert.equal(res.headers['retry-after'], undefined);
    }
  });

  it('answers 429 with the forbidden envelope and every header once the bucket is empty', async () => {
    const api = await freshClient(ctx());
    await exhaust(api);
    const res = await api.get('/api/v1/products');
    assert.equal(res.status, 429, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['detail', 'error_code']);
    assert.equal(res.body.error_code, 'forbidden');
    assert.match(res.body.detail, /^rate limit exceeded: /);
    assert.match(res.body.detail, /3 requests per minute/);
    assertRateHeaders(res, 0, LIMIT * SECONDS_PER_TOKEN);
    assert.equal(res.headers['retry-after'], String(SECONDS_PER_TOKEN));
    assert.ok(res.headers['x-request-id']);
  });

  it('refuses writes without performing them', async () => {
    const { a } = ctx();
    const api = await freshClient(ctx());
    await exhaust(api);
    const name = unique('Limited');
    assert.equal((await api.post('/api/v1/products', { name })).status, 429);
    const products = await a.api.get('/api/v1/products?limit=200');
    assert.ok(!products.body.data.some((product: { name: string }) => product.name === name));
  });

  it('refills one request per 60/limit seconds, up to the limit', async () => {
    const api = await freshClient(ctx());
    await exhaust(api);
    clock.advance((SECONDS_PER_TOKEN - 1) * 1000);
    const early = await api.get('/api/v1/me');
    assert.equal(early.status, 429);
    assert.equal(early.headers['retry-after'], '1');

    clock.advance(1000);
    const refilled = await api.get('/api/v1/me');
    assert.equal(refilled.status, 200);
    assertRateHeaders(refilled, 0, LIMIT * SECONDS_PER_TOKEN);
    assert.equal((await api.get('/api/v1/me')).status, 429);

    clock.advance(10 * 60_000);
    const full = await api.get('/api/v1/me');
    assert.equal(full.status, 200);
    assertRateHeaders(full, LIMIT - 1, SECONDS_PER_TOKEN);
  });

  it('keeps a separate bucket per API key', async () => {
    const first = await freshClient(ctx());
    const second = await freshClient(ctx());
    await exhaust(first);
    assert.equal((await first.get('/api/v1/me')).status, 429);
    const other = await second.get('/api/v1/me');
    assert.equal(other.status, 200);
    assertRateHeaders(other, LIMIT - 1, SECONDS_PER_TOKEN);
    const otherWorkspace = await ctx().client(ctx().b.memberlessKey).get('/api/v1/me');
    assert.equal(otherWorkspace.status, 200);
  });

  it('runs after authentication: requests without a valid key are 401 and not counted', async () => {
    const { client } = ctx();
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await client('ldk_' + 'x'.repeat(40)).get('/api/v1/me');
      assert.equal(res.status, 401);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
    // Outside /api/v1 there is no key to count against (the harness client checks only /api/v1).
    const health = await ctx().app.inject({ url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.equal(health.headers['ratelimit-limit'], undefined);
  });

  it('documents 429 with its headers on every /api/v1 operation, and in llms.txt', async () => {
    const api = await freshClient(ctx());
    const document = (await api.get('/api/v1/openapi.json')).body;
    // /auth (the team app's sign-in) is outside /api/v1 and its rate limit; its 429 is the lockout's.
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths).filter(([path]) => path.startsWith('/api/v1/'))) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const response = operation.responses['429'];
        assert.ok(response, `${method} ${path} documents 429`);
        assert.deepEqual(response.content['application/json'].schema, { $ref: '#/components/schemas/Error' });
        assert.deepEqual(
          Object.keys(response.headers).sort(),
          ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
        );
      }
    }
    const llms = await api.get('/api/v1/llms.txt');
    assert.match(llms.text, /429/);
    assert.match(llms.text, /LOOPDESK_RATE_LIMIT|rate limit/i);
  });
}, { rateLimitPerMinute: LIMIT, clock });

describeEachDialect('rate limiting turned off [ext]', (ctx) => {
  it('never limits and sends no RateLimit headers when the limit is 0', async () => {
    const api = ctx().a.api;
    for (let i = 0; i < 20; i++) {
      const res = await api.get('/api/v1/me');
      assert.equal(res.status, 200);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
  });
}, { rateLimitPerMinute: 0 });

describe('LOOPDESK_RATE_LIMIT', () => {
  it('defaults to 6000 requests per minute per key', () => {
    assert.equal(loadConfig({}).rateLimitPerMinute, 6000);
  });

  it('takes 0 to turn rate limiting off, and any positive integer', () => {
    assert.equal(loadConfig({ LOOPDESK_RATE_LIMIT: '0' }).rateLimitPerMinute, 0);
    assert.equal(loadConfig({ LOOPDESK_RATE_LIMIT: '120' }).rateLimitPerMinute, 120);
  });

  it('rejects anything else', () => {
    for (const value of ['-1', '1.5', 'lots']) {
      assert.throws(() => loadConfig({ LOOPDESK_RATE_LIMIT: value }), ConfigError);
    }
  });
});
