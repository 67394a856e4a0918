// Resource limits of the real server: the 1 MiB body limit (413), the request timeout (408), the
// connection cap (LOOPDESK_MAX_CONNECTIONS), a slow-loris client that does not hold up others,
// and 200 concurrent keep-alive clients each served on one connection. The server logs at trace
// level throughout, and its log holds no API key. How fast the cut-offs come is measured by
// bench/cut-offs.ts, the memory the clients take by bench/keep-alive-rss.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshDatabaseUrl } from '../helpers/databases.js';
import { responseProblems } from '../helpers/envelope.js';
import { createProduct } from '../helpers/factories.js';
import { httpClient } from '../helpers/http-client.js';
import { runKeepAliveClients } from '../helpers/keep-alive-load.js';
import { openSocket, rawRequest, readResponse } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';

const MIB = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 1500;
/** Only against a hang, far beyond the cut-offs: how fast they come is not checked here. */
const HANG_GUARD_MS = 30_000;
const MAX_CONNECTIONS = 250;

let server: RunningServer;
let key: string;
let productId: string;

const post = (path: string, body: string) =>
  fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });

const head = (method: string, path: string, extra: string) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${extra}\r\n`;

/** A JSON body of exactly `bytes` bytes. */
const jsonOfSize = (bytes: number) => `{"name":"${'x'.repeat(bytes - '{"name":""}'.length)}"}`;

describe('resource limits of the real server [sqlite]', () => {
  before(async () => {
    server = await startServer({
      databaseUrl: await freshDatabaseUrl('sqlite'),
      firstStart: true,
      env: { LOOPDESK_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), LOOPDESK_MAX_CONNECTIONS: String(MAX_CONNECTIONS), LOOPDESK_LOG_LEVEL: 'trace' },
    });
    key = server.bootstrapKey()!;
    productId = (await createProduct(httpClient(server.baseUrl, key), { name: 'Limits' })).id;
  });
  after(() => server.kill('SIGKILL'));

  it('refuses bodies over 1 MiB with 413, however they are framed', async () => {
    const atLimit = await post('/api/v1/products', jsonOfSize(MIB));
    assert.equal(atLimit.status, 400, 'a body of exactly 1 MiB is read (and its 1 MiB name refused)');
    const over = await post('/api/v1/products', jsonOfSize(MIB + 1));
    const text = await over.text();
    assert.equal(over.status, 413);
    assert.deepEqual(responseProblems(over.status, Object.fromEntries(over.headers), text), []);

    const declared = await rawRequest(server.port, head('POST', '/api/v1/products', `Content-Length: ${5 * 1024 * MIB}\r\n`));
    assert.equal(declared?.status, 413, 'a declared 5 GiB body is refused before it is sent');
    const chunk = 'y'.repeat(256 * 1024);
    const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const chunked = await rawRequest(server.port, `${head('POST', '/api/v1/products', 'Transfer-Encoding: chunked\r\n')}${chunks}0\r\n\r\n`);
    assert.equal(chunked?.status, 413, 'a chunked body that grows past 1 MiB is cut off');
  });

  it('answers 408 to a request whose body stops arriving', async () => {
    const socket = await openSocket(server.port);
    const answer = readResponse(socket, HANG_GUARD_MS);
    socket.write(`${head('POST', '/api/v1/products', 'Content-Length: 100\r\n')}{"name":`);
    const response = await answer;
    socket.destroy();
    assert.equal(response?.status, 408);
    assert.deepEqual(responseProblems(response!.status, response!.headers, response!.body), []);
  });

  it('serves others while a slow-loris client trickles its headers, then cuts that client off', async (t) => {
    const loris = await openSocket(server.port);
    let cutOff = false;
    const lorisAnswer = readResponse(loris, HANG_GUARD_MS).finally(() => (cutOff = true));
    loris.write('GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: ');
    const trickle = setInterval(() => loris.write('a'), 100);
    let servedWhileTrickling = 0;
    try {
      while (!cutOff) {
        const res = await fetch(`${server.baseUrl}/api/v1/issues`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
        await res.arrayBuffer();
        if (!cutOff) servedWhileTrickling++;
      }
      const response = await lorisAnswer;
      assert.equal(response?.status, 408, 'the trickling client is answered 408');
    } finally {
      clearInterval(trickle);
      loris.destroy();
    }
    assert.ok(servedWhileTrickling > 0, 'other requests are answered before the trickling client is cut off');
    t.diagnostic(`limits: ${servedWhileTrickling} requests served during the slow loris`);
  });

  it(`caps open connections at LOOPDESK_MAX_CONNECTIONS (${MAX_CONNECTIONS}) and recovers when they close`, async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => openSocket(server.port)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await rawRequest(server.port, head('GET', '/api/v1/me', ''), 5000);
    assert.equal(refused, null, 'a connection past the cap is closed without being served');
    held.forEach((socket) => socket.destroy());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const served = await rawRequest(server.port, head('GET', '/api/v1/me', 'Connection: close\r\n'));
    assert.equal(served?.status, 200);
  });

  it('serves 200 concurrent keep-alive clients, each on one connection', async (t) => {
    const result = await runKeepAliveClients(server.baseUrl, key, productId, 200, 10);
    assert.deepEqual(result.failures.slice(0, 10), []);
    assert.equal(result.connections, 200, 'each client kept one connection');
    t.diagnostic(`limits: 200 keep-alive clients, ${result.requests} requests`);
  });

  it('logged no API key at trace level', () => {
    const logLines = server.process.stdout.split('\n').filter((line) => line.startsWith('{'));
    assert.ok(logLines.length > 100, 'the server logged at trace level');
    assert.deepEqual(logLines.filter((line) => line.includes(key) || /authorization/i.test(line)), []);
  });
});
