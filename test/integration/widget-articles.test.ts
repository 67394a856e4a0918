// The help center in the widget API (docs/help-center.md, "In the widget"): published articles
// found and read by visitors, a view counted once per visitor session, "Was this helpful?" one
// vote per session (exact under concurrency), and the editor's preview in /api/v1.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const SUMMARY_KEYS = ['excerpt', 'id', 'locale', 'slug', 'title', 'url'];
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';

async function article(api: Client, productId: string, fields: Record<string, unknown>): Promise<any> {
  const res = await api.post('/api/v1/articles', { product_id: productId, status: 'published', body: 'Some text.', ...fields });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const tallies = async (ctx: TestContext, id: string) => {
  const { views, helpful, not_helpful } = (await ctx.a.api.get(`/api/v1/articles/${id}`)).body.data;
  return { views, helpful, not_helpful };
};

describeEachDialect('widget help center articles [ext]', (ctx) => {
  const list = (key: string, query = '') => ctx().client(null).get(widgetPath(key, `/articles${query}`));
  const open = (key: string, id: string, token?: string) => ctx().client(token ?? null).get(widgetPath(key, `/articles/${id}`));
  const vote = (key: string, id: string, token: string, body: unknown) => visitor(ctx(), token).post(widgetPath(key, `/articles/${id}/feedback`), body);

  it('suggests the published articles, each translation group once in the visitor\'s locale, most read first', async () => {
    const product = await widgetProduct(ctx());
    const reset = await article(ctx().a.api, product.id, { title: 'Reset your password', body: 'Open **Settings**, then Security.' });
    const german = await article(ctx().a.api, product.id, { title: 'Passwort zurücksetzen', locale: 'de', translation_of: reset.id });
    const invoices = await article(ctx().a.api, product.id, { title: 'Download invoices' });
    await article(ctx().a.api, product.id, { title: 'A draft', status: 'draft' });
    const { token } = await startSession(ctx(), product.widget_key);
    assert.equal((await open(product.widget_key, invoices.id, token)).status, 200);

    const suggested = await list(product.widget_key);
    assert.equal(suggested.status, 200);
    assert.deepEqual(suggested.body.data.map((a: any) => a.id), [invoices.id, reset.id]);
    assert.deepEqual(Object.keys(suggested.body.data[1]).sort(), SUMMARY_KEYS);
    assert.equal(suggested.body.data[1].excerpt, 'Open Settings, then Security.');
    assert.match(suggested.body.data[1].url, new RegExp(`/help/${product.help_slug}/articles/reset-your-password\\?locale=en$`));
    assert.equal(suggested.body.pagination.total, 2);
    const inGerman = await list(product.widget_key, '?locale=de-CH');
    assert.deepEqual(inGerman.body.data.map((a: any) => a.id), [invoices.id, german.id]);
  });

  it('finds the articles matching what the visitor types, best first, then those holding most of its words; drafts never', async () => {
    const product = await widgetProduct(ctx());
    const reset = await article(ctx().a.api, product.id, { title: 'Reset your password', body: 'Forgot it? Reset the password from the sign-in page.' });
    const email = await article(ctx().a.api, product.id, { title: 'Change your email', body: 'Your password is needed to change it.' });
    await article(ctx().a.api, product.id, { title: 'Password rules draft', body: 'password password', status: 'draft' });
    const found = await list(product.widget_key, `?q=${encodeURIComponent('reset passw')}`);
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.data.map((a: any) => a.id), [reset.id, email.id], 'every word first, then some of them');
    const sentence = await list(product.widget_key, `?q=${encodeURIComponent('I cannot remember my password, please reset it')}`);
    assert.deepEqual(sentence.body.data.map((a: any) => a.id), [reset.id, email.id], 'a message\'s words: the most held first');
    const both = await list(product.widget_key, '?q=password');
    assert.equal(both.body.data.length, 2);
    assert.equal(both.body.data[0].id, reset.id);
    assert.deepEqual((await list(product.widget_key, '?q=%20')).body.data.map((a: any) => a.id).length, 2, 'a blank q is the suggestions');
    assert.deepEqual((await list(product.widget_key, '?q=nothingmatches')).body.data, []);
  });

  it('rejects a malformed locale, q or page with every field named', async () => {
    const product = await widgetProduct(ctx());
    const bad = await list(product.widget_key, `?limit=0&q=${'x'.repeat(201)}`);
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body.fields).sort(), ['limit', 'q']);
    assertInvalid(await list(product.widget_key, `?locale=${encodeURIComponent('not a tag')}`), 'locale');
  });

  it('opens an article with its safely rendered body and translations; a session\'s view counts once', async () => {
    const product = await widgetProduct(ctx());
    const original = await article(ctx().a.api, product.id, {
      title: 'Safe', body: '# Steps\n\n<script>alert(1)</script> [x](javascript:alert(1)) [site](https://example.com)',
    });
    const french = await article(ctx().a.api, product.id, { title: 'Sûr', locale: 'fr', translation_of: original.id });
    await article(ctx().a.api, product.id, { title: 'Brouillon', locale: 'de', translation_of: original.id, status: 'draft' });
    const read = await open(product.widget_key, original.id);
    assert.equal(read.status, 200);
    const shown = read.body.data;
    assert.match(shown.html, /<h2>Steps<\/h2>/);
    assert.ok(!shown.html.includes('<script'), 'no script tag');
    assert.ok(!shown.html.includes('href="javascript:'), 'no javascript: link');
    assert.match(shown.html, /<a href="https:\/\/example.com" rel="nofollow noopener">site<\/a>/);
    assert.deepEqual(shown.translations, [{ id: french.id, locale: 'fr', title: 'Sûr' }]);
    assert.equal(shown.helpful, null);
    assert.equal((await tallies(ctx(), original.id)).views, 0, 'without a session nothing is counted');

    const one = await startSession(ctx(), product.widget_key);
    const two = await startSession(ctx(), product.widget_key);
    for (const token of [one.token, one.token, two.token, one.token]) assert.equal((await open(product.widget_key, original.id, token)).status, 200);
    assert.equal((await tallies(ctx(), original.id)).views, 2);
    await Promise.all(Array.from({ length: 20 }, () => open(product.widget_key, french.id, one.token)));
    assert.equal((await tallies(ctx(), french.id)).views, 1, '20 concurrent reads of one session count once');
    // Each counted view is the reports' article_viewed, and only those.
    const window = { workspaceId: ctx().a.id, productId: product.id, from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' };
    assert.equal((await ctx().services.helpEvents.selfService(window)).articles_viewed, 3);
  });

  it('takes one vote per session, a second changes it, and keeps the tallies exact', async () => {
    const product = await widgetProduct(ctx());
    const target = await article(ctx().a.api, product.id, { title: 'Export data' });
    const { token } = await startSession(ctx(), product.widget_key);
    const other = await startSession(ctx(), product.widget_key);
    const answers = [];
    for (const [t, helpful] of [[token, true], [token, true], [other.token, false], [token, false]] as const) {
      const res = await vote(product.widget_key, target.id, t, { helpful });
      assert.equal(res.status, 200, res.text);
      answers.push(res.body.data.helpful);
    }
    assert.deepEqual(answers, [true, true, false, false]);
    assert.deepEqual(await tallies(ctx(), target.id), { views: 0, helpful: 0, not_helpful: 2 });
    assert.equal((await open(product.widget_key, target.id, token)).body.data.helpful, false);
    assert.equal((await open(product.widget_key, target.id, other.token)).body.data.helpful, false);
  });

  it('counts concurrent votes exactly: one session\'s many once, many sessions\' each', async () => {
    const product = await widgetProduct(ctx());
    const target = await article(ctx().a.api, product.id, { title: 'Concurrent votes' });
    const { token } = await startSession(ctx(), product.widget_key);
    const flips = await Promise.all(Array.from({ length: 20 }, (_, i) => vote(product.widget_key, target.id, token, { helpful: i % 2 === 0 })));
    assert.ok(flips.every((res) => res.status === 200));
    const afterOne = await tallies(ctx(), target.id);
    assert.equal(afterOne.helpful + afterOne.not_helpful, 1, 'one session holds one vote');
    const tokens = await Promise.all(Array.from({ length: 20 }, async () => (await startSession(ctx(), product.widget_key)).token));
    const many = await Promise.all(tokens.map((t, i) => vote(product.widget_key, target.id, t, { helpful: i < 15 })));
    assert.ok(many.every((res) => res.status === 200));
    const final = await tallies(ctx(), target.id);
    assert.deepEqual([final.helpful - afterOne.helpful, final.not_helpful - afterOne.not_helpful], [15, 5]);
  });

  it('refuses a vote without a session, and a malformed one with its field named', async () => {
    const product = await widgetProduct(ctx());
    const target = await article(ctx().a.api, product.id, { title: 'Votes' });
    assert.equal((await ctx().client(null).post(widgetPath(product.widget_key, `/articles/${target.id}/feedback`), { helpful: true })).status, 401);
    const { token } = await startSession(ctx(), product.widget_key);
    assertInvalid(await vote(product.widget_key, target.id, token, {}), 'helpful');
    assertInvalid(await vote(product.widget_key, target.id, token, { helpful: 'yes' }), 'helpful');
    assertInvalid(await vote(product.widget_key, target.id, token, { helpful: true, stars: 5 }), 'stars');
    assert.deepEqual(await tallies(ctx(), target.id), { views: 0, helpful: 0, not_helpful: 0 });
  });

  it('answers 404 for a draft, another product\'s or workspace\'s article, an unknown id, and a help center that is off', async () => {
    const product = await widgetProduct(ctx());
    const sibling = await widgetProduct(ctx());
    const foreign = await widgetProduct(ctx(), {}, ctx().b.api);
    const draft = await article(ctx().a.api, product.id, { title: 'Draft', status: 'draft' });
    const siblings = await article(ctx().a.api, sibling.id, { title: 'Sibling' });
    const foreigns = await article(ctx().b.api, foreign.id, { title: 'Foreign' });
    const { token } = await startSession(ctx(), product.widget_key);
    for (const id of [draft.id, siblings.id, foreigns.id, UNKNOWN_ID, 'not-a-uuid']) {
      assertNotFound(await open(product.widget_key, id, token));
      assertNotFound(await vote(product.widget_key, id, token, { helpful: true }));
      assertNotFound(await vote(product.widget_key, id, token, { helpful: 'bad body, still 404' }));
    }
    assert.deepEqual((await list(product.widget_key)).body.data, []);
    assert.equal((await list(foreign.widget_key)).body.data[0].id, foreigns.id);

    const published = await article(ctx().a.api, product.id, { title: 'Published' });
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { help_center: false });
    assertNotFound(await list(product.widget_key));
    assertNotFound(await open(product.widget_key, published.id, token));
    assertNotFound(await vote(product.widget_key, published.id, token, { helpful: true }));
    assert.equal((await tallies(ctx(), published.id)).views, 0);
  });
});

describeEachDialect('POST /api/v1/articles/preview [ext]', (ctx) => {
  it('renders Markdown as the public page does and gives the excerpt, storing nothing', async () => {
    const res = await ctx().a.api.post('/api/v1/articles/preview', { body: '## Hi\n\n<img src=x onerror=alert(1)> **bold** [js](javascript:alert(1))' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.data.html, /^<h2>Hi<\/h2>/);
    assert.ok(res.body.data.html.includes('&lt;img src=x onerror=alert(1)&gt;'), 'raw HTML is text');
    assert.ok(!res.body.data.html.includes('href="javascript:'));
    assert.equal(res.body.data.excerpt, 'Hi <img src=x onerror=alert(1)> bold [js](javascript:alert(1))');
    assert.equal((await ctx().a.api.get('/api/v1/articles')).body.pagination.total, 0);
  });

  it('rejects a missing or oversized body, and read-only keys', async () => {
    assertInvalid(await ctx().a.api.post('/api/v1/articles/preview', {}), 'body');
    assertInvalid(await ctx().a.api.post('/api/v1/articles/preview', { body: 'x'.repeat(100_001) }), 'body');
    assertForbidden(await ctx().client(ctx().a.readOnlyKey).post('/api/v1/articles/preview', { body: 'x' }));
  });
});
