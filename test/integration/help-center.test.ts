// /api/v1/collections and /api/v1/articles (docs/help-center.md): every member writes the help
// center, read-only keys read it; translations, slugs, publishing, events and search.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect, unique, type Client } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';

const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';

async function createCollection(api: Client, productId: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('/api/v1/collections', { product_id: productId, name: unique('Billing'), ...overrides });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

async function createArticle(api: Client, productId: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('/api/v1/articles', { product_id: productId, title: unique('Reset your password'), body: 'Open **Settings**.', ...overrides });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

async function eventsOf(ctx: any, articleId: string): Promise<string[]> {
  const rows = await ctx.database.db.selectFrom('events').select(['type', 'payload']).orderBy('created_at').orderBy('id').execute();
  return rows.filter((row: any) => JSON.parse(row.payload).data.id === articleId).map((row: any) => row.type);
}

describeEachDialect('help center collections [ext]', (ctx) => {
  it('creates one with a slug from its name and the next position, and reads it back', async () => {
    const product = await createProduct(ctx().a.api);
    const first = await createCollection(ctx().a.api, product.id, { name: '  Billing & Invoices ', description: 'Money' });
    assert.deepEqual([first.name, first.slug, first.position, first.description], ['Billing & Invoices', 'billing-invoices', 0, 'Money']);
    const second = await createCollection(ctx().a.api, product.id, { name: 'Billing & invoices' });
    assert.deepEqual([second.slug, second.position], ['billing-invoices-2', 1]);
    assert.deepEqual((await ctx().a.api.get(`/api/v1/collections/${first.id}`)).body.data, first);
    const list = await ctx().a.api.get(`/api/v1/collections?product_id=${product.id}`);
    assert.deepEqual(list.body.data.map((c: any) => c.id), [first.id, second.id]);
  });

  it('never makes or takes a slug the public pages use (search, articles)', async () => {
    const product = await createProduct(ctx().a.api);
    assert.equal((await createCollection(ctx().a.api, product.id, { name: 'Search' })).slug, 'search-2');
    assertInvalid(await ctx().a.api.post('/api/v1/collections', { product_id: product.id, name: 'x', slug: 'articles' }), 'slug', 'reserved');
  });

  it('PATCH changes name, slug, description and position; updated_at moves only on an effective change; DELETE keeps its articles', async () => {
    const product = await createProduct(ctx().a.api);
    const collection = await createCollection(ctx().a.api, product.id);
    const taken = await createCollection(ctx().a.api, product.id);
    const article = await createArticle(ctx().a.api, product.id, { collection_id: collection.id });
    await sleep(5);
    assert.equal((await ctx().a.api.patch(`/api/v1/collections/${collection.id}`, { name: collection.name })).body.data.updated_at, collection.updated_at);
    const changed = (await ctx().a.api.patch(`/api/v1/collections/${collection.id}`, { name: 'Renamed', position: 7, description: null })).body.data;
    assert.deepEqual([changed.name, changed.slug, changed.position, changed.description], ['Renamed', collection.slug, 7, null]);
    assert.ok(changed.updated_at > collection.updated_at);
    assertInvalid(await ctx().a.api.patch(`/api/v1/collections/${collection.id}`, { slug: taken.slug }), 'slug', 'taken');
    assert.equal((await ctx().a.api.delete(`/api/v1/collections/${collection.id}`)).status, 204);
    assertNotFound(await ctx().a.api.get(`/api/v1/collections/${collection.id}`));
    assert.equal((await ctx().a.api.get(`/api/v1/articles/${article.id}`)).body.data.collection_id, null);
  });

  for (const [what, body, field] of [
    ['a missing product_id', { name: 'x' }, 'product_id'],
    ['an unknown product_id', { product_id: UNKNOWN_ID, name: 'x' }, 'product_id'],
    ['a blank name', { product_id: 'P', name: '  ' }, 'name'],
    ['a name over 200 characters', { product_id: 'P', name: 'n'.repeat(201) }, 'name'],
    ['a malformed slug', { product_id: 'P', name: 'x', slug: 'Not A Slug' }, 'slug'],
    ['a negative position', { product_id: 'P', name: 'x', position: -1 }, 'position'],
    ['a description over 2,000 characters', { product_id: 'P', name: 'x', description: 'd'.repeat(2001) }, 'description'],
    ['an unknown field', { product_id: 'P', name: 'x', colour: 'red' }, 'colour'],
  ] as const) {
    it(`POST rejects ${what}`, async () => {
      const product = await createProduct(ctx().a.api);
      const sent = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value === 'P' ? product.id : value]));
      assertInvalid(await ctx().a.api.post('/api/v1/collections', sent), field);
    });
  }

  it('keeps each workspace\'s collections its own, and another workspace\'s product is no product', async () => {
    const product = await createProduct(ctx().a.api);
    const collection = await createCollection(ctx().a.api, product.id);
    assertNotFound(await ctx().b.api.get(`/api/v1/collections/${collection.id}`));
    assertNotFound(await ctx().b.api.patch(`/api/v1/collections/${collection.id}`, { name: 'x' }));
    assertNotFound(await ctx().b.api.delete(`/api/v1/collections/${collection.id}`));
    assert.ok(!(await ctx().b.api.get('/api/v1/collections?limit=200')).body.data.some((c: any) => c.id === collection.id));
    assertInvalid(await ctx().b.api.post('/api/v1/collections', { product_id: product.id, name: 'x' }), 'product_id');
  });

  it('answers 404 for a malformed or unknown id on every method', async () => {
    for (const id of ['nope', UNKNOWN_ID]) {
      assertNotFound(await ctx().a.api.get(`/api/v1/collections/${id}`));
      assertNotFound(await ctx().a.api.patch(`/api/v1/collections/${id}`, { name: 'x' }));
      assertNotFound(await ctx().a.api.delete(`/api/v1/collections/${id}`));
    }
  });
});

describeEachDialect('help center articles [ext]', (ctx) => {
  it('creates a draft with a slug from its title, its text as excerpt, the default locale, and reads it back', async () => {
    const product = await createProduct(ctx().a.api);
    const res = await ctx().a.api.post('/api/v1/articles', {
      product_id: product.id, title: '  How do I reset my password? ', body: '# Steps\n\nOpen **Settings → Account**.\n\n- one\n- two', tags: ['Account', 'account', ' login '],
    });
    assert.equal(res.status, 201, res.text);
    const article = res.body.data;
    assert.deepEqual(
      [article.title, article.slug, article.locale, article.status, article.published_at, article.translation_of, article.collection_id, article.tags],
      ['How do I reset my password?', 'how-do-i-reset-my-password', 'en', 'draft', null, null, null, ['Account', 'login']],
    );
    assert.equal(article.excerpt, 'Steps Open Settings → Account. one two');
    assert.deepEqual([article.views, article.helpful, article.not_helpful], [0, 0, 0]);
    assert.deepEqual((await ctx().a.api.get(`/api/v1/articles/${article.id}`)).body.data, article);
    assert.deepEqual(await eventsOf(ctx(), article.id), ['article.created']);
  });

  it('makes slugs unique per product and locale, and keeps the slug when the title changes', async () => {
    const product = await createProduct(ctx().a.api);
    const first = await createArticle(ctx().a.api, product.id, { title: 'Refunds' });
    const second = await createArticle(ctx().a.api, product.id, { title: 'Refunds!' });
    const german = await createArticle(ctx().a.api, product.id, { title: 'Refunds', locale: 'de' });
    const other = await createArticle(ctx().a.api, (await createProduct(ctx().a.api)).id, { title: 'Refunds' });
    assert.deepEqual([first.slug, second.slug, german.slug, other.slug], ['refunds', 'refunds-2', 'refunds', 'refunds']);
    assert.equal((await createArticle(ctx().a.api, product.id, { title: 'Как вернуть деньги' })).slug, 'article');
    const renamed = (await ctx().a.api.patch(`/api/v1/articles/${first.id}`, { title: 'Money back' })).body.data;
    assert.equal(renamed.slug, 'refunds');
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${first.id}`, { slug: 'refunds-2' }), 'slug', 'taken');
    assertInvalid(await ctx().a.api.post('/api/v1/articles', { product_id: product.id, title: 'x', body: 'x', slug: 'refunds' }), 'slug', 'taken');
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${german.id}`, { locale: 'en' }), 'slug', 'taken');
  });

  it('publishes: published_at set and article.published recorded; back to draft clears it', async () => {
    const product = await createProduct(ctx().a.api);
    const draft = await createArticle(ctx().a.api, product.id);
    const published = (await ctx().a.api.patch(`/api/v1/articles/${draft.id}`, { status: 'published' })).body.data;
    assert.equal(published.status, 'published');
    assert.ok(published.published_at >= draft.created_at);
    const unpublished = (await ctx().a.api.patch(`/api/v1/articles/${draft.id}`, { status: 'draft' })).body.data;
    assert.equal(unpublished.published_at, null);
    assert.deepEqual(await eventsOf(ctx(), draft.id), ['article.created', 'article.updated', 'article.published', 'article.updated']);
    const createdPublished = await createArticle(ctx().a.api, product.id, { status: 'published' });
    assert.deepEqual(await eventsOf(ctx(), createdPublished.id), ['article.created', 'article.published']);
    const rows = await ctx().database.db.selectFrom('events').select(['type', 'payload']).where('type', '=', 'article.updated').execute();
    const update = rows.map((row: any) => JSON.parse(row.payload)).find((payload: any) => payload.data.id === draft.id && payload.data.status === 'published');
    assert.deepEqual([update.data.previous.status, update.data.previous.published_at], ['draft', null]);
  });

  it('refuses to publish an article without a body', async () => {
    const product = await createProduct(ctx().a.api);
    assertInvalid(await ctx().a.api.post('/api/v1/articles', { product_id: product.id, title: 'x', body: ' \n', status: 'published' }), 'body', 'published');
    const draft = await createArticle(ctx().a.api, product.id, { body: '' });
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${draft.id}`, { status: 'published' }), 'body');
  });

  it('links translations: one article per locale in a group, originals only as translation_of', async () => {
    const product = await createProduct(ctx().a.api);
    const original = await createArticle(ctx().a.api, product.id, { title: 'Refunds' });
    const german = await createArticle(ctx().a.api, product.id, { title: 'Rückerstattung', locale: 'de', translation_of: original.id });
    assert.deepEqual([german.translation_of, german.locale, german.slug], [original.id, 'de', 'ruckerstattung']);
    assert.equal((await createArticle(ctx().a.api, product.id, { locale: 'PT-br', translation_of: original.id })).locale, 'pt-BR');
    assertInvalid(await ctx().a.api.post('/api/v1/articles', { product_id: product.id, title: 'x', body: 'x', locale: 'de', translation_of: original.id }), 'locale', 'de');
    assertInvalid(await ctx().a.api.post('/api/v1/articles', { product_id: product.id, title: 'x', body: 'x', translation_of: original.id }), 'locale', 'en');
    assertInvalid(await ctx().a.api.post('/api/v1/articles', { product_id: product.id, title: 'x', body: 'x', locale: 'fr', translation_of: german.id }), 'translation_of', original.id);
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${original.id}`, { translation_of: german.id }), 'translation_of');
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${original.id}`, { locale: 'de' }), 'locale');
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${german.id}`, { translation_of: german.id }), 'translation_of', 'itself');
    const elsewhere = await createArticle(ctx().a.api, (await createProduct(ctx().a.api)).id);
    assertInvalid(await ctx().a.api.post('/api/v1/articles', { product_id: product.id, title: 'x', body: 'x', locale: 'it', translation_of: elsewhere.id }), 'translation_of');
    assert.equal((await ctx().a.api.patch(`/api/v1/articles/${german.id}`, { translation_of: null })).body.data.translation_of, null);
    assert.equal((await ctx().a.api.delete(`/api/v1/articles/${original.id}`)).status, 204);
    assertNotFound(await ctx().a.api.get(`/api/v1/articles/${original.id}`));
  });

  it('lists newest first with filters, and by full text with q (best first, drafts included, accents ignored)', async () => {
    const product = await createProduct(ctx().a.api);
    const collection = await createCollection(ctx().a.api, product.id);
    const older = await createArticle(ctx().a.api, product.id, { title: 'Cambiar el botón de pago', locale: 'es', status: 'published', collection_id: collection.id });
    const newer = await createArticle(ctx().a.api, product.id, { title: 'Invoices', body: 'Where the payment button is' });
    const list = async (query: string) => (await ctx().a.api.get(`/api/v1/articles?product_id=${product.id}&${query}`)).body;
    assert.deepEqual((await list('')).data.map((a: any) => a.id), [newer.id, older.id]);
    assert.deepEqual((await list('status=published')).data.map((a: any) => a.id), [older.id]);
    assert.deepEqual((await list('locale=ES')).data.map((a: any) => a.id), [older.id]);
    assert.deepEqual((await list(`collection_id=${collection.id}`)).data.map((a: any) => a.id), [older.id]);
    assert.deepEqual((await list('q=boton')).data.map((a: any) => a.id), [older.id]);
    const found = await list('q=butt');
    assert.deepEqual([found.data.map((a: any) => a.id), found.pagination.total], [[newer.id], 1]);
    assert.deepEqual((await list('q=boton&status=draft')).data, []);
    for (const [query, field] of [['status=live', 'status'], ['locale=not a tag', 'locale'], ['collection_id=nope', 'collection_id'], ['q=%20', 'q']]) {
      assertInvalid(await ctx().a.api.get(`/api/v1/articles?${query}`), field);
    }
  });

  it('is found by GET /search as type article, with the article as its record', async () => {
    const product = await createProduct(ctx().a.api);
    const article = await createArticle(ctx().a.api, product.id, { title: 'Zweistufige Anmeldung', body: 'Aktivieren Sie die Authentifizierung' });
    const res = await ctx().a.api.get('/api/v1/search?q=zweistufige&types=article');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.map((r: any) => [r.type, r.id, r.title, r.article.slug]), [['article', article.id, 'Zweistufige Anmeldung', article.slug]]);
    await ctx().a.api.patch(`/api/v1/articles/${article.id}`, { body: 'Neu geschrieben' });
    assert.equal((await ctx().a.api.get('/api/v1/search?q=authentifizierung')).body.data.length, 0);
    assert.equal((await ctx().b.api.get('/api/v1/search?q=zweistufige')).body.data.length, 0);
  });

  for (const [what, body, field] of [
    ['a missing title', { product_id: 'P', body: 'x' }, 'title'],
    ['a blank title', { product_id: 'P', title: ' ', body: 'x' }, 'title'],
    ['a title over 200 characters', { product_id: 'P', title: 't'.repeat(201), body: 'x' }, 'title'],
    ['a missing body', { product_id: 'P', title: 'x' }, 'body'],
    ['a body over 100,000 characters', { product_id: 'P', title: 'x', body: 'b'.repeat(100_001) }, 'body'],
    ['an unknown product', { product_id: UNKNOWN_ID, title: 'x', body: 'x' }, 'product_id'],
    ['a malformed locale', { product_id: 'P', title: 'x', body: 'x', locale: 'english please' }, 'locale'],
    ['a locale that is no language tag', { product_id: 'P', title: 'x', body: 'x', locale: 'x1' }, 'locale'],
    ['an unknown status', { product_id: 'P', title: 'x', body: 'x', status: 'live' }, 'status'],
    ['a malformed slug', { product_id: 'P', title: 'x', body: 'x', slug: '<script>' }, 'slug'],
    ['an unknown collection', { product_id: 'P', title: 'x', body: 'x', collection_id: UNKNOWN_ID }, 'collection_id'],
    ['an unknown original', { product_id: 'P', title: 'x', body: 'x', translation_of: UNKNOWN_ID }, 'translation_of'],
    ['a tag with a comma', { product_id: 'P', title: 'x', body: 'x', tags: ['a,b'] }, 'tags'],
    ['an unknown field', { product_id: 'P', title: 'x', body: 'x', views: 5 }, 'views'],
  ] as const) {
    it(`POST rejects ${what}`, async () => {
      const product = await createProduct(ctx().a.api);
      const sent = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value === 'P' ? product.id : value]));
      assertInvalid(await ctx().a.api.post('/api/v1/articles', sent), field);
    });
  }

  it('PATCH rejects a product_id, a null title and another product\'s collection', async () => {
    const product = await createProduct(ctx().a.api);
    const article = await createArticle(ctx().a.api, product.id);
    const foreign = await createCollection(ctx().a.api, (await createProduct(ctx().a.api)).id);
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${article.id}`, { product_id: product.id }), 'product_id');
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${article.id}`, { title: null }), 'title');
    assertInvalid(await ctx().a.api.patch(`/api/v1/articles/${article.id}`, { collection_id: foreign.id }), 'collection_id');
  });

  it('keeps each workspace\'s articles its own', async () => {
    const product = await createProduct(ctx().a.api);
    const article = await createArticle(ctx().a.api, product.id);
    assertNotFound(await ctx().b.api.get(`/api/v1/articles/${article.id}`));
    assertNotFound(await ctx().b.api.patch(`/api/v1/articles/${article.id}`, { title: 'Taken' }));
    assertNotFound(await ctx().b.api.delete(`/api/v1/articles/${article.id}`));
    assert.ok(!(await ctx().b.api.get('/api/v1/articles?limit=200')).body.data.some((a: any) => a.id === article.id));
    const theirs = await createProduct(ctx().b.api);
    assertInvalid(await ctx().b.api.post('/api/v1/articles', { product_id: theirs.id, title: 'x', body: 'x', locale: 'de', translation_of: article.id }), 'translation_of');
  });

  it('answers 404 for a malformed or unknown id on every method', async () => {
    for (const id of ['nope', UNKNOWN_ID]) {
      assertNotFound(await ctx().a.api.get(`/api/v1/articles/${id}`));
      assertNotFound(await ctx().a.api.patch(`/api/v1/articles/${id}`, { title: 'x' }));
      assertNotFound(await ctx().a.api.delete(`/api/v1/articles/${id}`));
    }
  });

  it('lets read-only keys read, and nothing else; lets agents write', async () => {
    const product = await createProduct(ctx().a.api);
    const article = await createArticle(ctx().a.api, product.id);
    const collection = await createCollection(ctx().a.api, product.id);
    const readOnly = ctx().client(ctx().a.readOnlyKey);
    assert.equal((await readOnly.get('/api/v1/articles')).status, 200);
    assert.equal((await readOnly.get(`/api/v1/collections/${collection.id}`)).status, 200);
    assertForbidden(await readOnly.post('/api/v1/articles', { product_id: product.id, title: 'x', body: 'x' }));
    assertForbidden(await readOnly.patch(`/api/v1/articles/${article.id}`, { title: 'x' }));
    assertForbidden(await readOnly.delete(`/api/v1/articles/${article.id}`));
    assertForbidden(await readOnly.post('/api/v1/collections', { product_id: product.id, name: 'x' }));
    assertForbidden(await readOnly.delete(`/api/v1/collections/${collection.id}`));
    const agent = await newPerson(ctx(), ctx().a);
    assert.equal((await agent.app.patch(`/api/v1/articles/${article.id}`, { title: 'By an agent', status: 'published' })).status, 200);
    assert.equal((await agent.app.post('/api/v1/collections', { product_id: product.id, name: 'By an agent' })).status, 201);
  });
});

describeEachDialect('a product\'s help slug and help center [ext]', (ctx) => {
  it('derives the help slug from the slug, unique across workspaces', async () => {
    const slug = `acme-${process.pid}-${Date.now()}`;
    const ours = await createProduct(ctx().a.api, { slug });
    const theirs = await createProduct(ctx().b.api, { slug });
    assert.deepEqual([ours.slug, ours.help_slug, ours.help_center], [slug, slug, true]);
    assert.deepEqual([theirs.slug, theirs.help_slug], [slug, `${slug}-2`]);
    assertInvalid(await ctx().b.api.patch(`/api/v1/products/${theirs.id}`, { help_slug: slug }), 'help_slug', 'taken');
    const changed = await ctx().b.api.patch(`/api/v1/products/${theirs.id}`, { help_slug: `${slug}-help`, help_center: false });
    assert.deepEqual([changed.body.data.help_slug, changed.body.data.help_center], [`${slug}-help`, false]);
    assertInvalid(await ctx().a.api.patch(`/api/v1/products/${ours.id}`, { help_slug: 'Not a slug' }), 'help_slug');
  });

  it('creates a product with the help slug it names, or a 400 when another product of any workspace holds it', async () => {
    const helpSlug = `own-help-${process.pid}-${Date.now()}`;
    const named = await createProduct(ctx().a.api, { help_slug: helpSlug, help_center: false });
    assert.deepEqual([named.help_slug, named.help_center], [helpSlug, false]);
    assertInvalid(await ctx().b.api.post('/api/v1/products', { name: unique('Product'), help_slug: helpSlug }), 'help_slug', 'taken');
  });

  it('lets only the settings role change help_slug and help_center', async () => {
    const product = await createProduct(ctx().a.api);
    const agent = await newPerson(ctx(), ctx().a);
    assertForbidden(await agent.app.patch(`/api/v1/products/${product.id}`, { help_center: false }));
    assertForbidden(await agent.app.patch(`/api/v1/products/${product.id}`, { help_slug: unique('h').replace(/\W/g, '-').toLowerCase() }));
    assertForbidden(await agent.app.post('/api/v1/products', { name: 'x', help_center: false }));
    assert.equal((await agent.app.patch(`/api/v1/products/${product.id}`, { help_center: true })).status, 200, 'no change is no settings change');
  });
});
