import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect, type Client } from '../helpers/harness.js';

const rawPost = (api: Client, url: string, json: string, method = 'POST') =>
  api.request(method, url, { payload: json, headers: { 'content-type': 'application/json' } });

const productId = async (api: Client): Promise<string> => (await createProduct(api)).id;

describeEachDialect('validation errors', (ctx) => {
  it('reports every bad body field in one answer', async () => {
    const { api } = ctx().a;
    const res = await api.post('/api/v1/issues', {
      product_id: await productId(api), title: '   ', status: 'closed', priority: 'asap', colour: 'red',
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error_code, 'validation_error');
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['colour', 'priority', 'status', 'title']);
    assert.equal(res.body.fields.colour, 'unknown field');
    for (const field of ['colour', 'priority', 'status', 'title']) assert.match(res.body.detail, new RegExp(field));
  });

  it('reports every missing required field', async () => {
    const res = await ctx().a.api.post('/api/v1/releases', {});
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['product_id', 'title']);
  });

  it('reports every bad query parameter in one answer', async () => {
    const res = await ctx().a.api.get('/api/v1/issues?limit=0&offset=-1');
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['limit', 'offset']);
  });

  it('spells out ten problems in detail and keeps them all in fields', async () => {
    const body = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`extra_${i}`, i]));
    const res = await ctx().a.api.post('/api/v1/products', { name: 'Many', ...body });
    assert.equal(res.status, 400);
    assert.equal(Object.keys(res.body.fields).length, 30);
    assert.match(res.body.detail, /and 20 more \(see fields\)$/);
  });

  it('answers a __proto__ key with a validation error naming it, not as invalid JSON', async () => {
    const res = await rawPost(ctx().a.api, '/api/v1/products', '{"name":"Proto","__proto__":{"admin":true}}');
    assert.equal(res.status, 400);
    assert.equal(res.body.error_code, 'validation_error');
    assert.ok(res.body.fields.__proto__, JSON.stringify(res.body));
    assert.doesNotMatch(res.body.detail, /not valid JSON/);
  });

  it('refuses __proto__ and constructor.prototype keys inside free-form objects, by field', async () => {
    const { api } = ctx().a;
    const proto = await rawPost(api, '/api/v1/products', '{"name":"Nested","widget_config":{"theme":{"__proto__":{"x":1}}}}');
    assert.equal(proto.status, 400);
    assert.match(proto.body.fields['widget_config.theme.__proto__'], /reserved/);
    const constructor = await rawPost(api, '/api/v1/products', '{"name":"Nested","widget_config":{"constructor":{"prototype":{"x":1}}}}');
    assert.equal(constructor.status, 400);
    assert.match(constructor.body.fields['widget_config.constructor'], /reserved/);
  });

  it('accepts a plain constructor key in a free-form object', async () => {
    const res = await rawPost(ctx().a.api, '/api/v1/products', '{"name":"Plain","widget_config":{"constructor":"Acme"}}');
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.data.widget_config, { constructor: 'Acme' });
  });

  it('reports NUL characters in several fields at once, free-form keys and values included, with one message', async () => {
    const res = await ctx().a.api.post('/api/v1/products', {
      name: 'a\u0000b', domain: 'c\u0000d', widget_config: { 'k\u0000': 1, theme: { accent: 'e\u0000f' } },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.fields, {
      name: 'must not contain the NUL character (U+0000)',
      domain: 'must not contain the NUL character (U+0000)',
      'widget_config.k\u0000': 'must not contain the NUL character (U+0000)',
      'widget_config.theme.accent': 'must not contain the NUL character (U+0000)',
    });
  });

  it('still answers 404 before 400 for a missing resource', async () => {
    const res = await rawPost(ctx().a.api, '/api/v1/issues/NOPE-1', '{"__proto__":{},"title":""}', 'PATCH');
    assert.equal(res.status, 404);
  });
});

describeEachDialect('free-form texts', (ctx) => {
  const long = (char: string) => char.repeat(200_000);

  it('takes issue descriptions and resolution comments of any length within the body limit', async () => {
    const { api } = ctx().a;
    const created = await api.post('/api/v1/issues', { product_id: await productId(api), title: 'Long', description: long('d') });
    assert.equal(created.status, 201);
    assert.equal(created.body.data.description.length, 200_000);
    const updated = await api.patch(`/api/v1/issues/${created.body.data.id}`, { resolution_comment: long('r') });
    assert.equal(updated.status, 200);
    assert.equal((await api.get(`/api/v1/issues/${created.body.data.id}`)).body.data.resolution_comment.length, 200_000);
  });

  it('takes a release description of any length within the body limit', async () => {
    const { api } = ctx().a;
    const res = await api.post('/api/v1/releases', { product_id: await productId(api), title: 'Notes', description: long('n') });
    assert.equal(res.status, 201);
    assert.equal(res.body.data.description.length, 200_000);
  });

  it('takes a long description in the deduplicating create', async () => {
    const { api } = ctx().a;
    const res = await api.post('/api/v1/issues/maybe', { product_id: await productId(api), title: 'Long report', description: long('m') });
    assert.equal(res.status, 201);
  });
});

describeEachDialect('validation errors that need a lookup or a filter parse', (ctx) => {
  it('reports every bad filter parameter in one answer', async () => {
    const res = await ctx().a.api.get('/api/v1/issues?status=bogus&priority=asap&assignee_id=nobody&product_id=x');
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['assignee_id', 'priority', 'product_id', 'status']);
    assert.match(res.body.fields.status, /"bogus"/);
    const conversations = await ctx().a.api.get('/api/v1/conversations?type=call&status=gone');
    assert.deepEqual(Object.keys(conversations.body.fields).sort(), ['status', 'type']);
  });

  it('reports an unknown product and an unknown assignee together', async () => {
    const body = { product_id: '01900000-0000-7000-8000-000000000000', title: 'Both wrong', assignee_id: '01900000-0000-7000-8000-000000000001' };
    for (const path of ['/api/v1/issues', '/api/v1/issues/maybe']) {
      const res = await ctx().a.api.post(path, body);
      assert.equal(res.status, 400, path);
      assert.deepEqual(Object.keys(res.body.fields).sort(), ['assignee_id', 'product_id'], path);
    }
  });
});
