import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { BODY_LIMIT_BYTES } from '../../src/app.js';
import { DIALECTS } from '../helpers/databases.js';
import { createProduct } from '../helpers/factories.js';
import { createTestContext, describeEachDialect, type ApiResponse, type TestContext } from '../helpers/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every line the apps of this file log, parsed. */
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});
const logger = { level: 'info', stream: logStream };
const linesOf = (requestId: string) => logLines.filter((line) => line.reqId === requestId);
const rawLog = () => logLines.map((line) => JSON.stringify(line)).join('\n');

function assertEnvelope(res: ApiResponse, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(res.body.error_code, code);
  assert.equal(typeof res.body.detail, 'string');
  assert.ok(res.body.detail.length > 0);
  assert.deepEqual(Object.keys(res.body).filter((k) => !['error_code', 'detail', 'fields'].includes(k)), []);
}

/** Sends `data` over a new connection to a listening app and returns all the server wrote before closing. */
function rawExchange(port: number, data: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: any } {
  const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
  }));
  assert.equal(Buffer.byteLength(body), Number(headers['content-length']), 'Content-Length matches the body');
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

describeEachDialect('error envelope', (ctx) => {
  describe('unknown routes and methods', () => {
    const ID = '00000000-0000-4000-8000-000000000000';
    const sendWithKey = (key: string | null, method: string, path: string) =>
      ctx().client(key).request(method, path, ['GET', 'HEAD', 'OPTIONS'].includes(method) ? {} : { body: {} });

    for (const [method, path] of [['GET', '/api/v1/nothing'], ['POST', '/api/v1/nothing/deeper'], ['DELETE', `/api/v1/products/${ID}/more`]]) {
      it(`${method} ${path} with a key is a 404 envelope`, async () => {
        const res = await sendWithKey(ctx().a.key, method, path);
        assertEnvelope(res, 404, 'not_found');
        assert.equal(res.headers.allow, undefined);
      });
    }

    for (const path of ['/', '/nothing', '/api', '/api/v2/products', '/auth/nothing', '/widget/v1/nothing']) {
      it(`GET ${path} outside /api/v1 is a 404 envelope without a key`, async () => {
        assertEnvelope(await ctx().client(null).get(path), 404, 'not_found');
      });
    }

    for (const [method, path, allow] of [
      ['PUT', '/api/v1/issues', 'GET, HEAD, POST'], ['DELETE', '/api/v1/me', 'GET, HEAD, PATCH'], ['POST', '/api/v1/me', 'GET, HEAD, PATCH'],
      ['PUT', `/api/v1/products/${ID}`, 'GET, HEAD, PATCH'], ['PATCH', '/api/v1/openapi.json', 'GET, HEAD'],
      ['OPTIONS', '/api/v1/products', 'GET, HEAD, POST'], ['TRACE', '/api/v1/issues', 'GET, HEAD, POST'],
      // A static path beside a parametric one: only its own routes, not those of /members/{id}.
      ['OPTIONS', '/api/v1/members/invitations', 'GET, HEAD, POST'],
    ]) {
      it(`${method} ${path} with a key is a 405 not_found envelope with Allow: ${allow}`, async () => {
        const res = await sendWithKey(ctx().a.key, method, path);
        assertEnvelope(res, 405, 'not_found');
        assert.equal(res.headers.allow, allow);
        assert.match(res.body.detail, new RegExp(`^${method} is not allowed`));
      });
    }

    it('authenticates before answering 405 under /api/v1: 401 without a key, 403 for a read-only key', async () => {
      const { a } = ctx();
      assertEnvelope(await sendWithKey(null, 'DELETE', '/api/v1/me'), 401, 'unauthorized');
      assertEnvelope(await sendWithKey(a.revokedKey, 'PUT', '/api/v1/issues'), 401, 'unauthorized');
      assertEnvelope(await sendWithKey(a.readOnlyKey, 'PUT', '/api/v1/issues'), 403, 'forbidden');
    });

    for (const [method, path, allow] of [
      ['GET', '/auth/sign-in', 'POST'], ['PUT', '/auth/sign-out', 'POST'], ['DELETE', '/widget.js', 'GET, HEAD'],
    ]) {
      it(`${method} ${path} outside /api/v1 is a 405 with Allow: ${allow}, no key needed`, async () => {
        const res = await sendWithKey(null, method, path);
        assertEnvelope(res, 405, 'not_found');
        assert.equal(res.headers.allow, allow);
      });
    }

    it('answers 405 under /widget/v1 with the preflight method in Allow, and 404 for an unknown widget path', async () => {
      const { widget_key: key } = await createProduct(ctx().a.api);
      const wrongMethod = await sendWithKey(null, 'PUT', `/widget/v1/${key}/changelog.xml`);
      assertEnvelope(wrongMethod, 405, 'not_found');
      assert.equal(wrongMethod.headers.allow, 'GET, HEAD, OPTIONS');
      const sessions = await sendWithKey(null, 'GET', `/widget/v1/${key}/sessions`);
      assertEnvelope(sessions, 405, 'not_found');
      assert.equal(sessions.headers.allow, 'OPTIONS, POST');
      // Only the CORS preflight route matches a path under a widget key that names nothing.
      assertEnvelope(await sendWithKey(null, 'PUT', `/widget/v1/${key}/nothing`), 404, 'not_found');
    });
  });

  describe('request bodies', () => {
    const send = (payload: string | Buffer, contentType?: string, method = 'POST', url = '/api/v1/products') =>
      ctx().a.api.request(method, url, { payload, headers: contentType ? { 'content-type': contentType } : {} });

    for (const payload of ['{bad', '{"name": "x",}', '"unterminated', '{"name":"a"}}']) {
      it(`rejects malformed JSON ${JSON.stringify(payload)} with 400`, async () => {
        assertEnvelope(await send(payload, 'application/json'), 400, 'validation_error');
      });
    }

    it('rejects an empty body sent as application/json with 400', async () => {
      assertEnvelope(await send('', 'application/json'), 400, 'validation_error');
    });

    for (const [contentType, payload] of [
      ['text/plain', 'name=Hello'], ['application/x-www-form-urlencoded', 'name=Hello'], ['application/xml', '<name>Hello</name>'],
      ['text/plain; charset=utf-8', '{"name":"Hello"}'],
    ]) {
      it(`rejects a body sent as ${contentType} with 415`, async () => {
        assertEnvelope(await send(payload, contentType), 415, 'validation_error');
        assertEnvelope(await send(payload, contentType, 'PATCH', `/api/v1/products/${randomUUID()}`), 415, 'validation_error');
      });
    }

    it('accepts application/json with a charset', async () => {
      const res = await send(JSON.stringify({ name: 'Charset' }), 'application/json; charset=utf-8');
      assert.equal(res.status, 201, res.text);
    });

    it('accepts a body of exactly 1 MiB and rejects one byte more with 413', async () => {
      const filler = (bytes: number) => JSON.stringify({ name: 'x'.repeat(bytes - JSON.stringify({ name: '' }).length) });
      const atLimit = await send(filler(BODY_LIMIT_BYTES), 'application/json');
      assertEnvelope(atLimit, 400, 'validation_error');
      assert.ok(atLimit.body.fields.name, 'parsed and validated, not refused for its size');
      assertEnvelope(await send(filler(BODY_LIMIT_BYTES + 1), 'application/json'), 413, 'validation_error');
    });

    it('rejects an oversized body with 413 even when it is not JSON', async () => {
      const res = await send(Buffer.alloc(BODY_LIMIT_BYTES + 10, 'a'), 'application/json');
      assertEnvelope(res, 413, 'validation_error');
    });
  });

  describe('X-Request-Id', () => {
    it('is on every response, whatever the status', async () => {
      const { a, client } = ctx();
      const responses = [
        await a.api.get('/api/v1/me'),
        await client(null).get('/api/v1/me'),
        await a.api.get('/api/v1/nothing'),
        await client(null).get('/nothing'),
        await a.api.request('POST', '/api/v1/products', { payload: '{', headers: { 'content-type': 'application/json' } }),
        await a.api.request('POST', '/api/v1/products', { payload: 'x', headers: { 'content-type': 'text/plain' } }),
        await a.api.request('POST', '/api/v1/products', {
          payload: Buffer.alloc(BODY_LIMIT_BYTES + 1, 'a'), headers: { 'content-type': 'application/json' },
        }),
        await client(a.readOnlyKey).post('/api/v1/products', { name: 'x' }),
      ];
      assert.deepEqual(responses.map((r) => r.status), [200, 401, 404, 404, 400, 415, 413, 403]);
      for (const res of responses) assert.match(String(res.headers['x-request-id']), UUID);
      assert.equal(new Set(responses.map((r) => r.headers['x-request-id'])).size, responses.length);
    });

    for (const id of ['abc-123', 'A.b_c:d-9', 'x', 'r'.repeat(128), randomUUID()]) {
      it(`echoes a valid incoming id (${id.length > 20 ? `${id.length} chars` : id})`, async () => {
        for (const client of [ctx().a.api, ctx().client(null)]) {
          const res = await client.get('/api/v1/me', { headers: { 'x-request-id': id } });
          assert.equal(res.headers['x-request-id'], id);
        }
      });
    }

    for (const id of ['r'.repeat(129), 'has space', 'slash/x', 'semi;colon', 'quote"d', '']) {
      it(`replaces an invalid incoming id (${id.length > 20 ? `${id.length} chars` : JSON.stringify(id)}) by a UUID`, async () => {
        const res = await ctx().a.api.get('/api/v1/me', { headers: { 'x-request-id': id } });
        assert.equal(res.status, 200);
        assert.match(String(res.headers['x-request-id']), UUID);
      });
    }
  });

  describe('requests the HTTP parser rejects', () => {
    let port = 0;
    before(async () => {
      await ctx().app.listen({ port: 0, host: '127.0.0.1' });
      port = (ctx().app.server.address() as AddressInfo).port;
    });

    const cases: [string, string][] = [
      ['garbage', 'this is not http\r\n\r\n'],
      ['a header without a colon', 'GET /api/v1/me HTTP/1.1\r\nHost: x\r\nBroken Header\r\n\r\n'],
      ['a bad Content-Length', 'POST /api/v1/products HTTP/1.1\r\nHost: x\r\nContent-Length: many\r\n\r\n'],
      ['an invalid HTTP version', 'GET /api/v1/me HTTP/9.Z\r\nHost: x\r\n\r\n'],
      ['oversized headers', `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Filler: ${'f'.repeat(20_000)}\r\n\r\n`],
    ];
    for (const [what, data] of cases) {
      it(`answers ${what} with a 400 envelope and closes`, async () => {
        const res = parseRawResponse(await rawExchange(port, data));
        assert.equal(res.status, 400);
        assert.match(res.headers['content-type'], /^application\/json/);
        assert.equal(res.headers.connection, 'close');
        assert.match(res.headers['x-request-id'], UUID);
        assert.equal(res.body.error_code, 'validation_error');
        assert.equal(typeof res.body.detail, 'string');
        assert.equal(linesOf(res.headers['x-request-id']).length, 1, 'one log line with the request id');
      });
    }

    it('never logs the raw request, which may carry a key', async () => {
      const key = ctx().a.key;
      const res = parseRawResponse(await rawExchange(port, `GET /api/v1/me HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nBad Header\r\n\r\n`));
      assert.equal(res.status, 400);
      assert.ok(!rawLog().includes(key));
    });

    it('answers a request that does not arrive in time with a 408 envelope', async () => {
      const server = ctx().app.server;
      const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
      const received = rawExchange(port, 'GET /api/v1/me HTTP/1.1\r\n');
      // What Node emits when requestTimeout expires before the request is complete.
      server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), await accepted);
      const res = parseRawResponse(await received);
      assert.equal(res.status, 408);
      assert.equal(res.body.error_code, 'validation_error');
      assert.match(res.headers['x-request-id'], UUID);
    });

    it('still serves well-formed requests on the socket', async () => {
      const text = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.match(text, /^HTTP\/1\.1 200 /);
    });
  });

  describe('logging', () => {
    it('writes one line per request with its id, method, path and status', async () => {
      const { a, client, dialect } = ctx();
      const id = (name: string) => ({ 'x-request-id': `log-${name}-${dialect}` });
      const requests: [string, string, Promise<ApiResponse>, number][] = [
        ['ok', 'GET /api/v1/me', a.api.get('/api/v1/me', { headers: id('ok') }), 200],
        ['401', 'GET /api/v1/products', client(null, id('401')).get('/api/v1/products'), 401],
        ['404', 'GET /api/v1/nope', a.api.get('/api/v1/nope', { headers: id('404') }), 404],
        ['201', 'POST /api/v1/products', a.api.post('/api/v1/products?x=1', { name: 'Logged' }, { headers: id('201') }), 201],
      ];
      for (const [name, route, response, status] of requests) {
        assert.equal((await response).status, status);
        const lines = linesOf(id(name)['x-request-id']);
        assert.equal(lines.length, 1, `one line for ${name}: ${JSON.stringify(lines)}`);
        assert.equal(`${lines[0].method} ${lines[0].path}`, route);
        assert.equal(lines[0].status, status);
      }
    });

    it('never logs the key, the query string or the body', async () => {
      const { a, client } = ctx();
      const id = `log-secrets-${ctx().dialect}`;
      const res = await a.api.post('/api/v1/products?token=QUERYSECRET', { name: 'BODYSECRET product' }, { headers: { 'x-request-id': id } });
      assert.equal(res.status, 201);
      const wrongKey = `ldk_${'W'.repeat(40)}`;
      await client(wrongKey, { 'x-request-id': `${id}-401` }).get('/api/v1/me');
      assert.equal(linesOf(id).length, 1);
      assert.equal(linesOf(`${id}-401`).length, 1);
      const log = rawLog();
      for (const secret of [a.key, wrongKey, 'QUERYSECRET', 'BODYSECRET', 'authorization', 'Bearer']) {
        assert.ok(!log.includes(secret), `the log contains ${secret}`);
      }
    });
  });
}, { logger });

for (const dialect of DIALECTS) {
  describe(`unexpected failures [${dialect}]`, () => {
    let ctx: TestContext & { close(): Promise<void> };
    before(async () => {
      ctx = await createTestContext(dialect, { logger });
    });
    after(() => ctx.app.close());

    const assertOpaque500 = (res: ApiResponse, requestId: string) => {
      assertEnvelope(res, 500, 'internal_error');
      assert.equal(res.headers['x-request-id'], requestId);
      assert.equal(res.body.fields, undefined);
      for (const leak of ['slug', 'select', 'SQL', 'products', '    at ', '/work', 'node_modules', '.ts', 'destroyed']) {
        assert.ok(!res.text.includes(leak), `the body reveals "${leak}": ${res.text}`);
      }
      const errorLines = linesOf(requestId).filter((line) => line.level === 50);
      assert.equal(errorLines.length, 1, 'the failure is logged once, with the request id');
      assert.ok((errorLines[0].err as { stack?: string }).stack, 'with its stack');
      assert.equal(linesOf(requestId).filter((line) => line.msg === 'request' && line.status === 500).length, 1);
    };

    it('turns a failing query into an opaque 500 and logs it with the request id', async () => {
      await sql`alter table products rename column slug to slug_gone`.execute(ctx.database.db);
      const requestId = `broken-query-${dialect}`;
      const res = await ctx.a.api.get('/api/v1/products', { headers: { 'x-request-id': requestId } });
      assertOpaque500(res, requestId);
      assert.match(JSON.stringify(linesOf(requestId)), /slug/, 'the log keeps the database\'s message');
    });

    it('turns a closed database into an opaque 500', async () => {
      await ctx.database.close();
      const requestId = `closed-database-${dialect}`;
      assertOpaque500(await ctx.a.api.get('/api/v1/me', { headers: { 'x-request-id': requestId } }), requestId);
    });
  });
}
