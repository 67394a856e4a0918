// The reports' help center figures (docs/reports.md, "Self-service"): the summary's self_service
// against the help events visitors left (docs/help-center.md, "How it is measured"), and
// GET /reports/articles, each article's views and helpful rate; validation, isolation, read-only keys.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertInvalid } from '../helpers/answers.js';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const BASE = '/api/v1/reports';
const clock = manualClock('2026-11-20T09:00:00.000Z');
const MINUTE = 60_000;

async function article(api: Client, productId: string, title: string, body: string): Promise<any> {
  const res = await api.post('/api/v1/articles', { product_id: productId, title, body, status: 'published' });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

describeEachDialect('Reports: self-service and articles [ext]', (ctx) => {
  let context: TestContext;
  let product: any;
  let other: any;
  let password: any;
  let refunds: any;
  let shipping: any;
  let window: { from: string; to: string };

  const summaryOf = async (fields: Record<string, string>, key = context.a.key) => {
    const res = await context.client(key).get(`${BASE}/summary?${new URLSearchParams({ ...window, ...fields })}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };
  const articlesOf = async (query = '', key = context.a.key) => {
    const res = await context.client(key).get(`${BASE}/articles${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  before(async () => {
    context = ctx();
    product = await widgetProduct(context);
    other = await widgetProduct(context);
    password = await article(context.a.api, product.id, 'Reset your password', 'Open Settings, then Security, and choose Reset password.');
    refunds = await article(context.a.api, product.id, 'Refunds', 'Refunds go back to the card you paid with within five working days.');
    shipping = await article(context.a.api, other.id, 'Shipping to Norway', 'Parcels to Norway take four days.');
    const from = clock.now();
    const key = product.widget_key;
    const ask = (q: string, token?: string) => context.client(token ?? null).get(widgetPath(key, `/answers?q=${encodeURIComponent(q)}`));
    const open = (widgetKey: string, id: string, token: string) => visitor(context, token).get(widgetPath(widgetKey, `/articles/${id}`));
    const vote = (id: string, token: string, helpful: boolean) => visitor(context, token).post(widgetPath(key, `/articles/${id}/feedback`), { helpful });

    // Served: asks, reads the article, finds it helpful, writes nothing.
    const served = (await startSession(context, key)).token;
    assert.equal((await ask('reset password', served)).body.data.length > 0, true);
    assert.equal((await open(key, password.id, served)).status, 200);
    assert.equal((await open(key, password.id, served)).status, 200, 'a second view in the session is not counted');
    assert.equal((await vote(password.id, served, true)).status, 200);
    // Not served: asks, reads, votes no, and writes within the 30 minutes.
    const writer = (await startSession(context, key)).token;
    await ask('reset password', writer);
    await open(key, password.id, writer);
    await open(key, refunds.id, writer);
    assert.equal((await vote(password.id, writer, false)).status, 200);
    clock.advance(10 * MINUTE);
    const started = await visitor(context, writer).post(widgetPath(key, '/conversations'), { body: 'The link expired.' });
    assert.equal(started.status, 201, started.text);
    // Without a session: a search, nothing shown, nobody to follow.
    assert.deepEqual((await ask('parcels to the moon')).body.data, []);
    // The other product's visitor reads its article.
    await open(other.widget_key, shipping.id, (await startSession(context, other.widget_key)).token);
    clock.advance(MINUTE);
    window = { from, to: clock.now() };
  });

  it('summary: self_service counts the product\'s help events of the window, as the help events count them', async () => {
    const figures = { searches: 3, articles_viewed: 3, answers_shown: 2, self_served: 0, conversations_after_article: 1 };
    // Before the 30 minutes are over the served visitor is not counted yet.
    assert.deepEqual((await summaryOf({ product_id: product.id })).self_service, figures);
    clock.advance(30 * MINUTE);
    const served = { ...figures, self_served: 1 };
    assert.deepEqual((await summaryOf({ product_id: product.id })).self_service, served);
    assert.deepEqual(served, await context.services.helpEvents.selfService({ workspaceId: context.a.id, productId: product.id, ...window }));
    assert.deepEqual((await summaryOf({})).self_service, { ...served, articles_viewed: 4, self_served: 2 }, 'every product');
    assert.deepEqual((await summaryOf({ product_id: other.id })).self_service,
      { searches: 0, articles_viewed: 1, answers_shown: 0, self_served: 1, conversations_after_article: 0 });
  });

  it('summary: the conversation filters do not narrow self_service; the window does', async () => {
    const all = (await summaryOf({ product_id: product.id })).self_service;
    const filters: Record<string, string>[] = [{ assignee_id: 'none' }, { tag: 'vip' }, { type: 'ticket' }, { source: 'email' }, { business_hours: 'true' }];
    for (const filter of filters) {
      assert.deepEqual((await summaryOf({ product_id: product.id, ...filter })).self_service, all, JSON.stringify(filter));
    }
    const before = await summaryOf({ from: '2026-11-19T00:00:00.000Z', to: window.from });
    assert.deepEqual(before.self_service, { searches: 0, articles_viewed: 0, answers_shown: 0, self_served: 0, conversations_after_article: 0 });
  });

  it('summary: another workspace, or its product, sees none of it', async () => {
    const none = { searches: 0, articles_viewed: 0, answers_shown: 0, self_served: 0, conversations_after_article: 0 };
    assert.deepEqual((await summaryOf({}, context.b.key)).self_service, none);
    assert.deepEqual((await summaryOf({ product_id: product.id }, context.b.key)).self_service, none);
    const foreign = await createProduct(context.b.api);
    assert.deepEqual((await summaryOf({ product_id: foreign.id })).self_service, none);
  });

  it('articles: each article\'s views, votes and helpful rate, the most viewed first, for read-only keys too', async () => {
    const figures = (found: any) => ({ id: found.id, views: found.views, helpful: found.helpful, not_helpful: found.not_helpful });
    const rows = await articlesOf(`?product_id=${product.id}`, context.a.readOnlyKey);
    assert.deepEqual(rows, [
      { article_id: password.id, product_id: product.id, title: 'Reset your password', locale: 'en', status: 'published', views: 2, helpful: 1, not_helpful: 1, helpful_rate: 0.5 },
      { article_id: refunds.id, product_id: product.id, title: 'Refunds', locale: 'en', status: 'published', views: 1, helpful: 0, not_helpful: 0, helpful_rate: null },
    ]);
    // The same tallies the articles carry.
    const listed = (await context.a.api.get(`/api/v1/articles?product_id=${product.id}`)).body.data;
    assert.deepEqual(rows.map((row: any) => ({ id: row.article_id, views: row.views, helpful: row.helpful, not_helpful: row.not_helpful })),
      [password, refunds].map((a) => figures(listed.find((found: any) => found.id === a.id))));
    const every = await articlesOf('?limit=1');
    assert.deepEqual(every.map((row: any) => row.article_id), [password.id]);
    assert.deepEqual((await articlesOf()).map((row: any) => row.article_id).sort(), [password.id, refunds.id, shipping.id].sort());
  });

  it('articles: another workspace sees none of them; a foreign product matches nothing', async () => {
    assert.deepEqual(await articlesOf('', context.b.key), []);
    assert.deepEqual(await articlesOf(`?product_id=${product.id}`, context.b.key), []);
    assert.equal((await context.client(context.a.revokedKey).get(`${BASE}/articles`)).status, 401);
  });

  for (const [what, path, fields] of [
    ['a malformed product_id', 'articles?product_id=nope', ['product_id']],
    ['a limit of 0', 'articles?limit=0', ['limit']],
    ['a limit over 100', 'articles?limit=101', ['limit']],
    ['a limit that is no integer', 'articles?limit=ten', ['limit']],
  ] as const) {
    it(`articles: answers 400 for ${what}`, async () => {
      const res = await context.a.api.get(`${BASE}/${path}`);
      for (const field of fields) assertInvalid(res, field);
    });
  }
}, { clock });
