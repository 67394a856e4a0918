// Resource limits of the real server: the 1 MiB body limit (413), the request timeout (408), the
// connection cap (LOOPDESK_MAX_CONNECTIONS), a slow-loris client that does not hold up others,
// and 200 concurrent keep-alive clients within 300 MB of RSS (bench/keep-alive-rss.ts runs the
// longer version). The server logs at trace level throughout, and its log holds no API key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshDatabaseUrl } from '../helpers/databases.js';
import { responseProblems } from '../helpers/envelope.js';
import { runKeepAliveClients } from '../helpers/keep-alive-load.js';
import { openSocket, rawRequest, readResponse } from '../helpers/raw-http.js';
import { sampleRss, startServer, type RunningServer } from '../helpers/server-process.js';

const MIB = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 1500;
// The timeout plus Node's 1 s check interval, plus slack for a loaded CI machine.
const CUT_OFF_MS = REQUEST_TIMEOUT_MS + 1000 + 2500;
const MAX_CONNECTIONS = 250;
const RSS_LIMIT_MB = 300;

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
    productId = (await (await post('/api/v1/products', JSON.stringify({ name: 'Limits' }))).json()).data.id;
  });
  after(() => server.kill('SIGKILL'));

  it('refuses bodies over 1 MiB with 413, however they are framed', async () => {
    const atLimit = await post('/api/v1/products', jsonOfSize(MIB));
    assert.equal(atLimit.status, 400, 'a body of exactly 1 MiB is read (and its 1 MiB name refused)');
    const over = await post('/api/v1/products', jsonOfSize(MIB + 1));
    const text = await over.text();
    assert.equal(over.status, 413);
    assert.deepEqual(responseProblems(over.status, Object.fromEntries(over.headers), text), []);

    const started = performance.now();
    const declared = await rawRequest(server.port, head('POST', '/api/v1/products', `Content-Length: ${5 * 1024 * MIB}\r\n`));
    assert.equal(declared?.status, 413, 'a declared 5 GiB body is refused before it is sent');
    assert.ok(performance.now() - started < 1000);
    const chunk = 'y'.repeat(256 * 1024);
    const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const chunked = await rawRequest(server.port, `${head('POST', '/api/v1/products', 'Transfer-Encoding: chunked\r\n')}${chunks}0\r\n\r\n`);
    assert.equal(chunked?.status, 413, 'a chunked body that grows past 1 MiB is cut off');
  });

  it('answers 408 to a request whose body stops arriving', async () => {
    const socket = await openSocket(server.port);
    const started = performance.now();
    const answer = readResponse(socket, CUT_OFF_MS + 5000);
    socket.write(`${head('POST', '/api/v1/products', 'Content-Length: 100\r\n')}{"name":`);
    const response = await answer;
    socket.destroy();
    assert.equal(response?.status, 408);
    assert.deepEqual(responseProblems(response!.status, response!.headers, response!.body), []);
    assert.ok(performance.now() - started < CUT_OFF_MS, `cut off after ${Math.round(performance.now() - started)} ms`);
  });

  it('serves others while a slow-loris client trickles its headers, then cuts that client off', async (t) => {
    const loris = await openSocket(server.port);
    const lorisAnswer = readResponse(loris, CUT_OFF_MS + 5000);
    loris.write('GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: ');
    const trickle = setInterval(() => loris.write('a'), 100);
    const started = performance.now();
    const latencies: number[] = [];
    try {
      while (performance.now() - started < REQUEST_TIMEOUT_MS) {
        const sent = performance.now();
        const res = await fetch(`${server.baseUrl}/api/v1/issues`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
        await res.arrayBuffer();
        latencies.push(performance.now() - sent);
      }
      const response = await lorisAnswer;
      assert.equal(response?.status, 408, 'the trickling client is answered 408');
      assert.ok(performance.now() - started < CUT_OFF_MS);
    } finally {
      clearInterval(trickle);
      loris.destroy();
    }
    const slowest = Math.max(...latencies);
    assert.ok(slowest < 1000, `the slowest of ${latencies.length} other requests took ${Math.round(slowest)} ms`);
    t.diagnostic(`limits: ${latencies.length} requests served during the slow loris, slowest ${Math.round(slowest)} ms`);
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

  it(`keeps 200 concurrent keep-alive clients under ${RSS_LIMIT_MB} MB of RSS`, async (t) => {
    const rss = sampleRss(server.pid);
    const result = await runKeepAliveClients(server.baseUrl, key, productId, 200, 10);
    const peak = rss.stop();
    assert.deepEqual(result.failures.slice(0, 10), []);
    assert.equal(result.connections, 200, 'each client kept one connection');
    assert.ok(peak < RSS_LIMIT_MB, `peak RSS ${peak} MB`);
    t.diagnostic(`limits: 200 keep-alive clients, ${result.requests} requests, peak RSS ${peak} MB`);
  });

  it('logged no API key at trace level', () => {
    const logLines = server.process.stdout.split('\n').filter((line) => line.startsWith('{'));
    assert.ok(logLines.length > 100, 'the server logged at trace level');
    assert.deepEqual(logLines.filter((line) => line.includes(key) || /authorization/i.test(line)), []);
  });
});
