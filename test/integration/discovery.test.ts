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

  it('describes version 1.0.0 of the API under /api/v1, and the team app\'s sign-in under /auth', async () => {
    const document = await load();
    assert.equal(document.info.version, '1.0.0');
    assert.ok(document.info.title);
    assert.ok(operations(document).length > 0);
    for (const path of Object.keys(document.paths)) assert.match(path, /^\/(api\/v1|auth)\//);
    assert.ok(!('/healthz' in document.paths) && !('/readyz' in document.paths));
  });

  it('declares the bearer security scheme for every /api/v1 operation, the session cookie as its alternative', async () => {
    const document = await load();
    const schemes = document.components?.securitySchemes ?? {};
    const bearer = Object.entries(schemes).filter(([, s]: [string, any]) => s.type === 'http' && s.scheme === 'bearer');
    assert.equal(bearer.length, 1);
    const [name] = bearer[0];
    assert.deepEqual(schemes.sessionCookie, { ...schemes.sessionCookie, type: 'apiKey', in: 'cookie', name: 'loopdesk_session' });
    const securityOf = (operation: Operation) => (operation as { security?: Record<string, unknown>[] }).security ?? document.security;
    for (const { method, path, operation } of operations(document).filter(({ path }) => path.startsWith('/api/v1/'))) {
      assert.ok(securityOf(operation)?.some((requirement: Record<string, unknown>) => name in requirement), `${method} ${path} requires ${name}`);
      assert.ok(securityOf(operation)?.some((requirement: Record<string, unknown>) => 'sessionCookie' in requirement), `${method} ${path} takes a session`);
    }
    const auth = Object.fromEntries(operations(document).filter(({ path }) => path.startsWith('/auth/')).map(({ operation }) => [operation.operationId, securityOf(operation)]));
    assert.deepEqual(auth, {
      signIn: [], signOut: [{ sessionCookie: [] }, {}], getInvitation: [], acceptInvitation: [], changePassword: [{ sessionCookie: [] }],
      getSsoAvailability: [],
    });
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

  it('names the error envelope once, as components.schemas.Error', async () => {
    const schema = (await load()).components.schemas.Error;
    assert.deepEqual([...schema.required].sort(), ['detail', 'error_code']);
    assert.deepEqual(schema.properties.error_code, {
      type: 'string',
      enum: ['unauthorized', 'forbidden', 'not_found', 'validation_error', 'internal_error'],
      description: 'Machine-readable error class',
    });
    assert.equal(schema.properties.detail.type, 'string');
    assert.equal(schema.properties.fields.type, 'object');
  });

  it('documents 401 and 500 with the error envelope on every operation', async () => {
    const document = await load();
    for (const { method, path, operation } of operations(document)) {
      for (const status of ['401', '500']) {
        const schema = operation.responses?.[status]?.content?.['application/json']?.schema;
        assert.deepEqual(schema, { $ref: '#/components/schemas/Error' }, `${method.toUpperCase()} ${path} documents ${status}`);
      }
    }
  });

  it('gives every response a description and every documented error the same envelope', async () => {
    const document = await load();
    for (const { method, path, operation } of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        assert.ok(response.description, `${method} ${path} ${status} has a description`);
        if (Number(status) < 400) continue;
        assert.deepEqual(response.content?.['application/json']?.schema, { $ref: '#/components/schemas/Error' }, `${method} ${path} ${status}`);
      }
    }
  });

  it('names every resource and envelope in components.schemas, each with an example', async () => {
    const { schemas } = (await load()).components;
    const names = ['Product', 'Issue', 'IssueListItem', 'Conversation', 'ConversationDetail', 'ConversationSummary', 'Contact',
      'Message', 'Release', 'ReleaseDetail', 'Member', 'Me', 'Pagination', 'Error', 'DeduplicatingCreateResult'];
    for (const name of names) assert.equal(schemas[name]?.type, 'object', `components.schemas.${name}`);
    for (const [name, schema] of Object.entries<any>(schemas)) assert.ok(schema.examples?.length > 0, `components.schemas.${name} has an example`);
  });

  it('refers to named schemas instead of repeating them inline', async () => {
    const document = await load();
    const named = new Map(Object.entries(document.components.schemas).map(([name, schema]) => [JSON.stringify(schema), name]));
    const inline: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (!value || typeof value !== 'object') return;
      const name = named.get(JSON.stringify(value));
      if (name && at !== `components.schemas.${name}`) inline.push(`${at} repeats ${name}`);
      for (const [key, child] of Object.entries(value)) walk(child, `${at}.${key}`);
    };
    walk(document.paths, 'paths');
    for (const [name, schema] of Object.entries(document.components.schemas)) walk(schema, `components.schemas.${name}`);
    assert.deepEqual(inline, []);
    for (const { method, path, operation } of operations(document)) {
      const data = operation.responses?.['200']?.content?.['application/json']?.schema?.properties?.data;
      if (data) assert.ok(data.$ref ?? data.items?.$ref, `${method} ${path}: data is a $ref`);
    }
  });

  it('makes limit and offset optional on every list operation', async () => {
    const document = await load();
    const lists = operations(document).filter(({ operation }) => (operation as any).parameters?.some((p: any) => p.name === 'limit'));
    assert.ok(lists.length >= 7);
    for (const { method, path, operation } of lists) {
      for (const parameter of (operation as any).parameters.filter((p: any) => ['limit', 'offset'].includes(p.name))) {
        assert.equal(parameter.required, false, `${method} ${path} ${parameter.name}`);
        assert.equal(typeof parameter.schema.default, 'number');
      }
    }
  });

  it('names this server in servers (the origin the request reached) and a license in info', async () => {
    const document: Document = (await ctx().a.api.get('/api/v1/openapi.json', { headers: { host: 'support.example.org:8443' } })).body;
    assert.deepEqual(document.servers.map((server: { url: string }) => server.url), ['http://support.example.org:8443']);
    assert.ok((document.info.license as any).name);
    assert.ok((document.info.license as any).identifier || (document.info.license as any).url);
  });

  it('documents 400, 413 and 415 on every operation that takes a JSON body, with an example', async () => {
    const document = await load();
    // The raw mail of POST /inbound/email is the one body that is not JSON.
    const withBody = operations(document).filter(({ operation }) => operation.requestBody && !operation.requestBody.content?.['message/rfc822']);
    assert.ok(withBody.length > 0);
    for (const { method, path, operation } of withBody) {
      const media = operation.requestBody!.content?.['application/json'];
      assert.ok(media?.schema, `${method} ${path} body schema`);
      assert.ok(media.example !== undefined || media.examples !== undefined, `${method} ${path} body example`);
      for (const status of ['400', '413', '415']) assert.ok(operation.responses?.[status], `${method} ${path} documents ${status}`);
    }
  });

  it('says on every string and free-form object of every request body, in both documents, that U+0000 is refused', async () => {
    const documents = [await load(), (await ctx().client(null).get('/widget/v1/openapi.json')).body as Document];
    const problems: string[] = [];
    let patterned = 0;
    for (const document of documents) {
      for (const { method, path, operation } of operations(document)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        for (const { at, node } of subschemas(schema, `${method.toUpperCase()} ${path} body`)) {
          if (node.additionalProperties === true && !refusesNul(node.propertyNames?.pattern)) problems.push(`${at}: keys may hold NUL`);
          const isString = node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string'));
          if (!isString || node.format !== undefined || node.enum !== undefined || node.const !== undefined) continue;
          patterned++;
          if (!refusesNul(node.pattern)) problems.push(`${at}: pattern ${JSON.stringify(node.pattern)} admits NUL`);
        }
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(patterned > 20, `${patterned} free-text body strings`);
  });
});

/** Every schema under `schema` (itself included) that a body value can meet, with where it is. */
function subschemas(schema: Record<string, any>, at: string): { at: string; node: Record<string, any> }[] {
  const nested = [
    ...Object.entries(schema.properties ?? {}).map(([name, property]) => subschemas(property as Record<string, any>, `${at}.${name}`)),
    ...(['items', 'additionalProperties'] as const).filter((key) => typeof schema[key] === 'object').map((key) => subschemas(schema[key], `${at}[${key}]`)),
    ...(['anyOf', 'oneOf', 'allOf'] as const).flatMap((key) => (schema[key] ?? []).map((branch: Record<string, any>, i: number) => subschemas(branch, `${at}|${i}`))),
  ];
  return [{ at, node: schema }, ...nested.flat()];
}

/** An anchored pattern that no string holding U+0000 matches, of those a client might send. */
function refusesNul(pattern: string | undefined): boolean {
  if (pattern === undefined || !pattern.startsWith('^') || !pattern.endsWith('$')) return false;
  const regex = new RegExp(pattern, 'u');
  return ['\u0000', 'a\u0000', '\u0000a', 'Ada\u0000Lovelace', 'ab-\u0000-cd', 'AB\u0000'].every((text) => !regex.test(text));
}

describeEachDialect('GET /api/v1/openapi.json with LOOPDESK_PUBLIC_URL', (ctx) => {
  it('names the public URL in servers, whatever Host the request carried', async () => {
    const document = (await ctx().a.api.get('/api/v1/openapi.json', { headers: { host: 'internal:3000' } })).body;
    assert.deepEqual(document.servers, [{ url: 'https://support.example.com/desk', description: 'This Loopdesk server' }]);
  });
}, { publicUrl: 'https://support.example.com/desk' });

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

  it('says when a body takes exactly one of several fields (a message: body or [ext] saved_reply_id)', async () => {
    const lines = (await ctx().a.api.get('/api/v1/llms.txt')).text.split('\n');
    const at = lines.findIndex((line) => line.startsWith('- POST /api/v1/conversations/{id}/messages:'));
    assert.match(lines[at + 1], /^ {2}body: body \(string, max 50000 chars\); saved_reply_id \(uuid\) — exactly one of: body, saved_reply_id$/);
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
