import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Product } from '../../src/domain/products/product.service.js';
import { createServices } from '../../src/services.js';
import { apiKeyIdOf, createProduct } from '../helpers/factories.js';
import { describeEachDialect, unique, type Client, type TestContext } from '../helpers/harness.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A client for a new, empty workspace, so slug and prefix expectations are not disturbed by other tests. */
async function emptyWorkspace(ctx: TestContext): Promise<{ id: string; api: Client }> {
  const workspace = await ctx.services.admin.createWorkspace(unique('Products'));
  const key = await ctx.services.admin.createKey({ workspaceId: workspace.id });
  return { id: workspace.id, api: ctx.client(key.key) };
}

function assertInvalid(res: { status: number; body: any; text: string }, field: string): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error_code, 'validation_error');
  assert.equal(typeof res.body.fields?.[field], 'string', `fields.${field} in ${res.text}`);
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describeEachDialect('POST /api/v1/products', (ctx) => {
  it('creates a product with generated slug, prefix and keys', async () => {
    const { id, api } = await emptyWorkspace(ctx());
    const res = await api.post('/api/v1/products', { name: 'Acme Mobile App' });
    assert.equal(res.status, 201);
    const product: Product = res.body.data;
    assert.deepEqual(Object.keys(product).sort(), [
      'assignment', 'created_at', 'domain', 'embed_snippet', 'help_center', 'help_slug', 'id', 'inbound_email', 'issue_prefix', 'name', 'product_key', 'slug', 'triage',
      'updated_at', 'widget_config', 'widget_key', 'workspace_id',
    ]);
    assert.match(product.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(product.workspace_id, id);
    assert.equal(product.name, 'Acme Mobile App');
    assert.equal(product.slug, 'acme-mobile-app');
    assert.equal(product.issue_prefix, 'AMA');
    assert.match(product.widget_key, /^wk_[0-9A-Za-z]{24}$/);
    assert.match(product.product_key, /^pk_[0-9A-Za-z]{24}$/);
    assert.equal(product.widget_config, null);
    assert.equal(product.domain, null);
    assert.match(product.created_at, ISO_MS);
    assert.equal(product.updated_at, product.created_at);
  });

  it('generates different keys for every product', async () => {
    const { api } = await emptyWorkspace(ctx());
    const products = [await createProduct(api, { name: 'One' }), await createProduct(api, { name: 'Two' })];
    const keys = products.flatMap((p) => [p.widget_key, p.product_key]);
    assert.equal(new Set(keys).size, 4);
  });

  it('trims the name', async () => {
    const { api } = await emptyWorkspace(ctx());
    const product = await createProduct(api, { name: '  \tTrimmed Name \n ' });
    assert.equal(product.name, 'Trimmed Name');
    assert.equal(product.slug, 'trimmed-name');
  });

  it('applies the 1–200 limit to the trimmed name', async () => {
    const { api } = await emptyWorkspace(ctx());
    assert.equal((await createProduct(api, { name: `  ${'n'.repeat(200)}  ` })).name, 'n'.repeat(200));
    assert.equal((await createProduct(api, { name: 'x' })).name, 'x');
    assertInvalid(await api.post('/api/v1/products', { name: 'n'.repeat(201) }), 'name');
  });

  for (const name of ['', '   ', '\t\n']) {
    it(`rejects the name ${JSON.stringify(name)}`, async () => {
      assertInvalid(await ctx().a.api.post('/api/v1/products', { name }), 'name');
    });
  }

  it('requires a name', async () => {
    const res = await ctx().a.api.post('/api/v1/products', { slug: 'no-name' });
    assertInvalid(res, 'name');
    assert.equal(res.body.fields.name, 'is required');
  });

  for (const [field, value] of [
    ['name', 123], ['name', null], ['name', ['A']], ['slug', 5], ['issue_prefix', 12], ['widget_config', 'x'],
    ['widget_config', [1, 2]], ['domain', 42], ['domain', false],
  ] as const) {
    it(`does not coerce ${field}: ${JSON.stringify(value)}`, async () => {
      const body = { name: 'Typed', [field]: value };
      assertInvalid(await ctx().a.api.post('/api/v1/products', body), field);
    });
  }

  for (const field of ['foo', 'widget_key', 'product_key', 'id', 'workspace_id']) {
    it(`rejects the unknown field ${field}`, async () => {
      const res = await ctx().a.api.post('/api/v1/products', { name: 'Unknown', [field]: 'x' });
      assertInvalid(res, field);
      assert.equal(res.body.fields[field], 'unknown field');
    });
  }

  for (const [name, slug] of [
    ['Café Crème', 'cafe-creme'],
    ['  Hello,   World!! ', 'hello-world'],
    ['!!!', 'product'],
    ['日本語', 'product'],
    [`${'Long '.repeat(12)}name`, `${'long-'.repeat(12)}name`.slice(0, 64).replace(/-+$/, '')],
  ]) {
    it(`derives the slug ${slug} from ${JSON.stringify(name)}`, async () => {
      const { api } = await emptyWorkspace(ctx());
      const product = await createProduct(api, { name });
      assert.equal(product.slug, slug);
      assert.ok(product.slug.length <= 64);
    });
  }

  it('adds -2, -3, … to a taken slug, derived or given', async () => {
    const { api } = await emptyWorkspace(ctx());
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await createProduct(api, { name: 'Help Center' })).slug);
    slugs.push((await createProduct(api, { name: 'Other', slug: 'help-center' })).slug);
    assert.deepEqual(slugs, ['help-center', 'help-center-2', 'help-center-3', 'help-center-4']);
  });

  it('keeps suffixed slugs within 64 characters and unique when the base is cut', async () => {
    const { api } = await emptyWorkspace(ctx());
    const name = 'abcdefghij'.repeat(8);
    const slugs = [];
    for (let i = 0; i < 4; i++) slugs.push((await createProduct(api, { name })).slug);
    const base = name.slice(0, 64);
    assert.deepEqual(slugs, [base, `${base.slice(0, 62)}-2`, `${base.slice(0, 62)}-3`, `${base.slice(0, 62)}-4`]);
  });

  it('gives concurrent creates of the same name distinct slugs and prefixes', async () => {
    const { api } = await emptyWorkspace(ctx());
    const responses = await Promise.all(Array.from({ length: 10 }, () => api.post('/api/v1/products', { name: 'Race Day' })));
    assert.deepEqual(responses.map((r) => r.status), Array(10).fill(201), responses.map((r) => r.text).join('\n'));
    const products: Product[] = responses.map((r) => r.body.data);
    assert.equal(new Set(products.map((p) => p.slug)).size, 10);
    assert.equal(new Set(products.map((p) => p.issue_prefix)).size, 10);
    assert.ok(products.some((p) => p.slug === 'race-day') && products.some((p) => p.issue_prefix === 'RD'));
  });

  it('uses a given slug as is when free', async () => {
    const { api } = await emptyWorkspace(ctx());
    assert.equal((await createProduct(api, { name: 'Whatever', slug: 'my-own-slug-2' })).slug, 'my-own-slug-2');
  });

  for (const slug of ['Upper', 'with space', '-lead', 'trail-', 'double--dash', 'under_score', 'é', '', 'a'.repeat(65)]) {
    it(`rejects the slug ${JSON.stringify(slug.length > 20 ? `${slug.slice(0, 10)}…(${slug.length})` : slug)}`, async () => {
      assertInvalid(await ctx().a.api.post('/api/v1/products', { name: 'Bad Slug', slug }), 'slug');
    });
  }

  for (const [name, prefix] of [
    ['Acme Mobile App', 'AMA'], ['Widget', 'WID'], ['Go', 'GO'], ['One Two Three Four', 'OTT'], ['3D printer', '3P'],
    ['!!!', 'P'],
  ]) {
    it(`generates the issue_prefix ${prefix} from ${JSON.stringify(name)}`, async () => {
      const { api } = await emptyWorkspace(ctx());
      assert.equal((await createProduct(api, { name })).issue_prefix, prefix);
    });
  }

  it('replaces the last character of a taken prefix by 2…9, then letters', async () => {
    const { api } = await emptyWorkspace(ctx());
    const prefixes = [];
    for (let i = 0; i < 12; i++) prefixes.push((await createProduct(api, { name: 'Widget' })).issue_prefix);
    assert.deepEqual(prefixes, ['WID', 'WI2', 'WI3', 'WI4', 'WI5', 'WI6', 'WI7', 'WI8', 'WI9', 'WIA', 'WIB', 'WIC']);
    assert.equal((await createProduct(api, { name: 'Widget' })).issue_prefix, 'WIE');
  });

  it('[ext] accepts issue_prefix, widget_config and domain', async () => {
    const { api } = await emptyWorkspace(ctx());
    const widgetConfig = { color: '#3366ff', position: { corner: 'bottom-right' }, greetings: ['hi', 'hello'], on: true };
    const product = await createProduct(api, { name: 'Configured', issue_prefix: 'X9', widget_config: widgetConfig, domain: 'example.com' });
    assert.equal(product.issue_prefix, 'X9');
    assert.deepEqual(product.widget_config, widgetConfig);
    assert.equal(product.domain, 'example.com');
    const fetched = await api.get(`/api/v1/products/${product.id}`);
    assert.deepEqual(fetched.body.data, product);
  });

  it('[ext] rejects a taken issue_prefix given explicitly instead of altering it', async () => {
    const { api } = await emptyWorkspace(ctx());
    await createProduct(api, { name: 'First', issue_prefix: 'APP' });
    const res = await api.post('/api/v1/products', { name: 'Second', issue_prefix: 'APP' });
    assertInvalid(res, 'issue_prefix');
    assert.equal((await api.get('/api/v1/products')).body.pagination.total, 1);
  });

  for (const prefix of ['app', 'Ap', 'ABCD', '', 'A-B', 'É']) {
    it(`[ext] rejects the issue_prefix ${JSON.stringify(prefix)}`, async () => {
      assertInvalid(await ctx().a.api.post('/api/v1/products', { name: 'Bad Prefix', issue_prefix: prefix }), 'issue_prefix');
    });
  }

  it('accepts a widget_config of exactly 16 KiB serialized and rejects one byte more', async () => {
    const { api } = await emptyWorkspace(ctx());
    const overhead = JSON.stringify({ k: '' }).length;
    const atLimit = { k: 'x'.repeat(16 * 1024 - overhead) };
    assert.deepEqual((await createProduct(api, { name: 'At Limit', widget_config: atLimit })).widget_config, atLimit);
    assertInvalid(await api.post('/api/v1/products', { name: 'Over', widget_config: { k: 'x'.repeat(16 * 1024 - overhead + 1) } }), 'widget_config');
  });

  it('counts widget_config size in bytes, not characters', async () => {
    const overhead = JSON.stringify({ k: '' }).length;
    const res = await ctx().a.api.post('/api/v1/products', { name: 'Bytes', widget_config: { k: 'é'.repeat(16 * 1024 - overhead) } });
    assertInvalid(res, 'widget_config');
  });

  it('accepts a domain of 253 characters and rejects 254', async () => {
    const { api } = await emptyWorkspace(ctx());
    assert.equal((await createProduct(api, { name: 'Long Domain', domain: 'd'.repeat(253) })).domain, 'd'.repeat(253));
    assertInvalid(await api.post('/api/v1/products', { name: 'Too Long', domain: 'd'.repeat(254) }), 'domain');
    assert.equal((await createProduct(api, { name: 'No Domain', domain: null })).domain, null);
  });

  it('forbids read-only keys', async () => {
    const res = await ctx().client(ctx().a.readOnlyKey).post('/api/v1/products', { name: 'Nope' });
    assert.equal(res.status, 403);
    assert.equal(res.body.error_code, 'forbidden');
  });

  it('requires a key', async () => {
    const res = await ctx().client(null).post('/api/v1/products', { name: 'Nope' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error_code, 'unauthorized');
  });
});

describeEachDialect('GET /api/v1/products', (ctx) => {
  it('lists products oldest first with the generated keys', async () => {
    const { api } = await emptyWorkspace(ctx());
    const created = [];
    for (const name of ['Zeta', 'Alpha', 'Mu']) {
      created.push(await createProduct(api, { name }));
      await tick();
    }
    const res = await api.get('/api/v1/products');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, created);
    assert.deepEqual(res.body.pagination, { total: 3, limit: 50, offset: 0 });
  });

  it('paginates with limit and offset; total ignores them', async () => {
    const { api } = await emptyWorkspace(ctx());
    const ids = [];
    for (let i = 1; i <= 5; i++) {
      ids.push((await createProduct(api, { name: `Page ${i}` })).id);
      await tick();
    }
    const first = await api.get('/api/v1/products?limit=2');
    assert.deepEqual(first.body.data.map((p: Product) => p.id), ids.slice(0, 2));
    assert.deepEqual(first.body.pagination, { total: 5, limit: 2, offset: 0 });
    const last = await api.get('/api/v1/products?limit=2&offset=4');
    assert.deepEqual(last.body.data.map((p: Product) => p.id), ids.slice(4));
    assert.deepEqual(last.body.pagination, { total: 5, limit: 2, offset: 4 });
    const beyond = await api.get('/api/v1/products?offset=10');
    assert.deepEqual(beyond.body.data, []);
    assert.equal(beyond.body.pagination.total, 5);
  });

  it('breaks created_at ties by id ascending', async () => {
    const { id, api } = await emptyWorkspace(ctx());
    const keyId = await apiKeyIdOf(api);
    const actor = { workspaceId: id, apiKeyId: keyId, credentialId: keyId, readOnly: false, member: null };
    // Services on a stopped clock give every product the same created_at.
    const pinned = createServices(ctx().database, { clock: { now: () => '2026-11-21T10:25:00.000Z' } });
    for (const name of ['Tie C', 'Tie A', 'Tie B', 'Tie D']) await pinned.products.create(actor, { name }, '');
    const res = await api.get('/api/v1/products');
    const ids = res.body.data.map((p: Product) => p.id);
    assert.equal(ids.length, 4);
    assert.deepEqual(ids, [...ids].sort());
    assert.ok(res.body.data.every((p: Product) => p.created_at === '2026-11-21T10:25:00.000Z'));
  });

  for (const [query, field] of [['limit=0', 'limit'], ['limit=201', 'limit'], ['limit=x', 'limit'], ['offset=-1', 'offset'], ['offset=a', 'offset']]) {
    it(`rejects ${query}`, async () => assertInvalid(await ctx().a.api.get(`/api/v1/products?${query}`), field));
  }

  it('accepts limit=200 and ignores unknown query parameters', async () => {
    const res = await ctx().a.api.get('/api/v1/products?limit=200&colour=blue');
    assert.equal(res.status, 200);
    assert.equal(res.body.pagination.limit, 200);
  });

  it('works with a read-only key', async () => {
    assert.equal((await ctx().client(ctx().a.readOnlyKey).get('/api/v1/products')).status, 200);
  });
});

describeEachDialect('GET /api/v1/products/{id}', (ctx) => {
  it('returns the product as created', async () => {
    const product = await createProduct(ctx().a.api, { name: unique('Fetched') });
    const res = await ctx().a.api.get(`/api/v1/products/${product.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, product);
  });

  for (const id of ['abc', MISSING_ID, '123', `${MISSING_ID}x`]) {
    it(`gives 404 for ${id}`, async () => {
      const res = await ctx().a.api.get(`/api/v1/products/${id}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.error_code, 'not_found');
    });
  }
});

describeEachDialect('PATCH /api/v1/products/{id}', (ctx) => {
  it('changes the given fields, leaves the others and moves updated_at', async () => {
    const { api } = await emptyWorkspace(ctx());
    const product = await createProduct(api, { name: 'Before', domain: 'before.test' });
    await tick();
    const res = await api.patch(`/api/v1/products/${product.id}`, { name: '  After  ', slug: 'after', issue_prefix: 'AF1' });
    assert.equal(res.status, 200, res.text);
    const updated: Product = res.body.data;
    assert.deepEqual(
      { ...updated, updated_at: undefined },
      { ...product, name: 'After', slug: 'after', issue_prefix: 'AF1', updated_at: undefined },
    );
    assert.ok(updated.updated_at > product.updated_at, 'updated_at moves forward');
    assert.equal(updated.created_at, product.created_at);
    assert.deepEqual((await api.get(`/api/v1/products/${product.id}`)).body.data, updated);
  });

  it('leaves updated_at alone when nothing changes', async () => {
    const { api } = await emptyWorkspace(ctx());
    const product = await createProduct(api, { name: 'Steady', domain: 'steady.test', widget_config: { a: 1 } });
    await tick();
    for (const body of [
      {}, { name: 'Steady' }, { name: '  Steady ' }, { slug: product.slug }, { issue_prefix: product.issue_prefix },
      { widget_config: { a: 1 } }, { domain: 'steady.test' },
    ]) {
      const res = await api.patch(`/api/v1/products/${product.id}`, body);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.deepEqual(res.body.data, product, JSON.stringify(body));
    }
  });

  it('replaces widget_config as a whole and clears it with null', async () => {
    const { api } = await emptyWorkspace(ctx());
    const product = await createProduct(api, { name: 'Widgety', widget_config: { color: 'red', size: 3 } });
    const replaced = await api.patch(`/api/v1/products/${product.id}`, { widget_config: { position: 'left' } });
    assert.deepEqual(replaced.body.data.widget_config, { position: 'left' });
    const cleared = await api.patch(`/api/v1/products/${product.id}`, { widget_config: null });
    assert.equal(cleared.body.data.widget_config, null);
    assert.equal((await api.get(`/api/v1/products/${product.id}`)).body.data.widget_config, null);
  });

  it('rejects a widget_config over 16 KiB and keeps the old one', async () => {
    const { api } = await emptyWorkspace(ctx());
    const product = await createProduct(api, { name: 'Big Config', widget_config: { keep: true } });
    assertInvalid(await api.patch(`/api/v1/products/${product.id}`, { widget_config: { k: 'x'.repeat(16 * 1024) } }), 'widget_config');
    assert.deepEqual((await api.get(`/api/v1/products/${product.id}`)).body.data.widget_config, { keep: true });
  });

  it('sets and clears the domain, max 253', async () => {
    const { api } = await emptyWorkspace(ctx());
    const product = await createProduct(api, { name: 'Domains' });
    assert.equal((await api.patch(`/api/v1/products/${product.id}`, { domain: 'd'.repeat(253) })).body.data.domain, 'd'.repeat(253));
    assertInvalid(await api.patch(`/api/v1/products/${product.id}`, { domain: 'd'.repeat(254) }), 'domain');
    assert.equal((await api.patch(`/api/v1/products/${product.id}`, { domain: null })).body.data.domain, null);
  });

  it('rejects a slug taken by another product, without a suffix', async () => {
    const { api } = await emptyWorkspace(ctx());
    await createProduct(api, { name: 'Taken' });
    const product = await createProduct(api, { name: 'Mover' });
    const res = await api.patch(`/api/v1/products/${product.id}`, { slug: 'taken' });
    assertInvalid(res, 'slug');
    assert.equal((await api.get(`/api/v1/products/${product.id}`)).body.data.slug, 'mover');
  });

  it('rejects an issue_prefix taken by another product', async () => {
    const { api } = await emptyWorkspace(ctx());
    await createProduct(api, { name: 'Acme Mobile App' });
    const product = await createProduct(api, { name: 'Widget' });
    assertInvalid(await api.patch(`/api/v1/products/${product.id}`, { issue_prefix: 'AMA' }), 'issue_prefix');
    assert.equal((await api.get(`/api/v1/products/${product.id}`)).body.data.issue_prefix, 'WID');
  });

  it('frees the old slug and prefix for others', async () => {
    const { api } = await emptyWorkspace(ctx());
    const first = await createProduct(api, { name: 'Recycled' });
    await api.patch(`/api/v1/products/${first.id}`, { slug: 'renamed', issue_prefix: 'NEW' });
    const second = await createProduct(api, { name: 'Recycled' });
    assert.equal(second.slug, 'recycled');
    assert.equal(second.issue_prefix, 'REC');
  });

  for (const [field, value] of [
    ['name', ''], ['name', '   '], ['name', 'n'.repeat(201)], ['name', 123], ['name', null],
    ['slug', 'Not A Slug'], ['slug', 'a'.repeat(65)], ['slug', null],
    ['issue_prefix', 'abc'], ['issue_prefix', 'ABCD'], ['issue_prefix', ''], ['issue_prefix', null],
    ['widget_config', 'text'], ['widget_config', []], ['domain', 1],
    ['unknown_field', 1], ['widget_key', 'wk_x'], ['created_at', '2026-01-01T00:00:00.000Z'],
  ] as const) {
    it(`rejects ${field}: ${JSON.stringify(value).slice(0, 20)}`, async () => {
      const product = await createProduct(ctx().a.api, { name: unique('Invalid Patch') });
      const res = await ctx().a.api.patch(`/api/v1/products/${product.id}`, { [field]: value });
      assertInvalid(res, field);
      if (!(field in product)) assert.equal(res.body.fields[field], 'unknown field');
      assert.deepEqual((await ctx().a.api.get(`/api/v1/products/${product.id}`)).body.data, product);
    });
  }

  for (const id of ['abc', MISSING_ID]) {
    it(`gives 404 for ${id}, even with an invalid body`, async () => {
      for (const body of [{ name: 'Fine' }, { name: 5, bogus: true }]) {
        const res = await ctx().a.api.patch(`/api/v1/products/${id}`, body);
        assert.equal(res.status, 404, JSON.stringify(body));
        assert.equal(res.body.error_code, 'not_found');
      }
    });
  }

  it('forbids read-only keys, before the lookup', async () => {
    const product = await createProduct(ctx().a.api, { name: unique('Read Only') });
    for (const id of [product.id, MISSING_ID]) {
      const res = await ctx().client(ctx().a.readOnlyKey).patch(`/api/v1/products/${id}`, { name: 'Nope' });
      assert.equal(res.status, 403);
      assert.equal(res.body.error_code, 'forbidden');
    }
    assert.equal((await ctx().a.api.get(`/api/v1/products/${product.id}`)).body.data.name, product.name);
  });
});

describeEachDialect('products: workspace isolation', (ctx) => {
  it('hides a product from another workspace: GET and PATCH are 404', async () => {
    const { a, b } = ctx();
    const product = await createProduct(a.api, { name: unique('Private') });
    const get = await b.api.get(`/api/v1/products/${product.id}`);
    assert.equal(get.status, 404);
    assert.equal(get.body.error_code, 'not_found');
    for (const body of [{ name: 'Hijacked' }, { name: 7 }]) {
      const patch = await b.api.patch(`/api/v1/products/${product.id}`, body);
      assert.equal(patch.status, 404);
      assert.equal(patch.body.error_code, 'not_found');
    }
    assert.deepEqual((await a.api.get(`/api/v1/products/${product.id}`)).body.data, product);
  });

  it('never mixes lists', async () => {
    const { a, b } = ctx();
    const mine = await createProduct(a.api, { name: unique('Mine') });
    const theirs = await createProduct(b.api, { name: unique('Theirs') });
    const listA = (await a.api.get('/api/v1/products?limit=200')).body;
    const listB = (await b.api.get('/api/v1/products?limit=200')).body;
    assert.ok(listA.data.some((p: Product) => p.id === mine.id));
    assert.ok(listA.data.every((p: Product) => p.workspace_id === a.id));
    assert.ok(listB.data.some((p: Product) => p.id === theirs.id));
    assert.ok(listB.data.every((p: Product) => p.workspace_id === b.id));
    assert.equal(listA.pagination.total, listA.data.length);
    assert.equal(listB.pagination.total, listB.data.length);
  });

  it('allows the same slug and prefix in two workspaces', async () => {
    const one = await emptyWorkspace(ctx());
    const two = await emptyWorkspace(ctx());
    const p1 = await createProduct(one.api, { name: 'Shared Name', issue_prefix: 'SHR' });
    const p2 = await createProduct(two.api, { name: 'Shared Name', issue_prefix: 'SHR' });
    assert.deepEqual([p1.slug, p2.slug], ['shared-name', 'shared-name']);
    assert.deepEqual([p1.issue_prefix, p2.issue_prefix], ['SHR', 'SHR']);
    const other = await createProduct(two.api, { name: 'Other' });
    const patched = await one.api.patch(`/api/v1/products/${p1.id}`, { slug: 'other', issue_prefix: other.issue_prefix });
    assert.equal(patched.status, 200, patched.text);
  });
});
