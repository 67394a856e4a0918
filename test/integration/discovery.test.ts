import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describeEachDialect } from '../helpers/harness.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  requestBody?: { content?: Record<string, { schema?: object; example?: unknown; examples?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Record<string, any> }> }>;
}

type Document = { openapi: string; info: Record<string, string>; paths: Record<string, Record<string, Operation>>; [key: string]: any };

function operations(document: Document): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}

describeEachDialect('GET /api/v1/openapi.json', (ctx) => {
  const load = async (): Promise<Document> => {
    const res = await ctx().a.api.get('/api/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    return res.body;
  };

  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await load();
    assert.match(document.openapi, /^3\.1\.\d+$/);
    const result = await new Validator().validate(document as never);
    assert.deepEqual(result, { valid: true });
  });

  it('describes version 1.0.0 of the API under /api/v1', async () => {
    const document = await load();
    assert.equal(document.info.version, '1.0.0');
    assert.ok(document.info.title);
    assert.ok(operations(document).length > 0);
    for (const path of Object.keys(document.paths)) assert.match(path, /^\/api\/v1\//);
    assert.ok(!('/healthz' in document.paths) && !('/readyz' in document.paths));
  });

  it('declares the bearer security scheme for every operation', async () => {
    const document = await load();
    const schemes = document.components?.securitySchemes ?? {};
    const bearer = Object.entries(schemes).filter(([, s]: [string, any]) => s.type === 'http' && s.scheme === 'bearer');
    assert.equal(bearer.length, 1);
    const [name] = bearer[0];
    for (const { method, path, operation } of operations(document)) {
      const security = (operation as { security?: Record<string, unknown>[] }).security ?? document.security;
      assert.ok(security?.some((requirement: Record<string, unknown>) => name in requirement), `${method} ${path} requires ${name}`);
    }
  });

  it('gives every operation an operationId, summary, description and tags', async () => {
    const document = await load();
    const ids = new Set<string>();
    for (const { method, path, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.match(operation.operationId ?? '', /^[A-Za-z][A-Za-z0-9]*$/, `${where} operationId`);
      assert.ok(!ids.has(operation.operationId!), `${where} operationId is unique`);
      ids.add(operation.operationId!);
      assert.ok(operation.summary?.trim(), `${where} summary`);
      assert.ok(operation.description?.trim(), `${where} description`);
      assert.ok(operation.tags && operation.tags.length > 0, `${where} tags`);
    }
  });

  it('documents 401 and 500 with the error envelope on every operation', async () => {
    const document = await load();
    for (const { method, path, operation } of operations(document)) {
      for (const status of ['401', '500']) {
        const schema = operation.responses?.[status]?.content?.['application/json']?.schema;
        assert.ok(schema, `${method.toUpperCase()} ${path} documents ${status}`);
        assert.deepEqual([...schema.required].sort(), ['detail', 'error_code'], `${method} ${path} ${status}`);
        assert.deepEqual(schema.properties.error_code, {
          type: 'string',
          enum: ['unauthorized', 'forbidden', 'not_found', 'validation_error', 'internal_error'],
          description: 'Machine-readable error class',
        });
        assert.equal(schema.properties.detail.type, 'string');
        assert.equal(schema.properties.fields.type, 'object');
      }
    }
  });

  it('gives every response a description and every documented error the same envelope', async () => {
    const document = await load();
    const envelope = JSON.stringify(document.paths['/api/v1/me'].get.responses!['401'].content!['application/json'].schema!.properties);
    for (const { method, path, operation } of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        assert.ok(response.description, `${method} ${path} ${status} has a description`);
        if (Number(status) < 400) continue;
        const schema = response.content?.['application/json']?.schema;
        assert.equal(JSON.stringify(schema?.properties), envelope, `${method} ${path} ${status}`);
      }
    }
  });

  it('documents 400, 413 and 415 on every operation that takes a JSON body, with an example', async () => {
    const document = await load();
    const withBody = operations(document).filter(({ operation }) => operation.requestBody);
    assert.ok(withBody.length > 0);
    for (const { method, path, operation } of withBody) {
      const media = operation.requestBody!.content?.['application/json'];
      assert.ok(media?.schema, `${method} ${path} body schema`);
      assert.ok(media.example !== undefined || media.examples !== undefined, `${method} ${path} body example`);
      for (const status of ['400', '413', '415']) assert.ok(operation.responses?.[status], `${method} ${path} documents ${status}`);
    }
  });
});

describeEachDialect('GET /api/v1/llms.txt', (ctx) => {
  it('is plain UTF-8 text', async () => {
    const res = await ctx().a.api.get('/api/v1/llms.txt');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.ok(res.text.length > 500);
  });

  it('explains authentication, the envelopes and the error codes', async () => {
    const text = (await ctx().a.api.get('/api/v1/llms.txt')).text;
    assert.match(text, /Authorization: Bearer/);
    assert.match(text, /\{ data \}/);
    assert.match(text, /pagination/);
    assert.match(text, /error_code/);
    for (const code of ['unauthorized', 'forbidden', 'not_found', 'validation_error', 'internal_error']) assert.match(text, new RegExp(code));
  });

  it('lists every non-deprecated operation of openapi.json with its summary', async () => {
    const document: Document = (await ctx().a.api.get('/api/v1/openapi.json')).body;
    const lines = (await ctx().a.api.get('/api/v1/llms.txt')).text.split('\n');
    const current = operations(document).filter(({ operation }) => !operation.deprecated);
    assert.ok(current.length > 0);
    for (const { method, path, operation } of current) {
      const line = lines.find((l) => l.startsWith(`- ${method.toUpperCase()} ${path}:`));
      assert.ok(line, `llms.txt lists ${method.toUpperCase()} ${path}`);
      assert.ok(line.includes(operation.summary!), `${method.toUpperCase()} ${path} with its summary`);
    }
  });

  it('lists no deprecated operation', async () => {
    const document: Document = (await ctx().a.api.get('/api/v1/openapi.json')).body;
    const text = (await ctx().a.api.get('/api/v1/llms.txt')).text;
    for (const { method, path, operation } of operations(document)) {
      if (operation.deprecated) assert.ok(!text.includes(`- ${method.toUpperCase()} ${path}:`), `${method} ${path}`);
    }
  });

  it('is readable with a read-only key', async () => {
    const res = await ctx().client(ctx().a.readOnlyKey).get('/api/v1/llms.txt');
    assert.equal(res.status, 200);
  });
});
