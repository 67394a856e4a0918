// Bad input never hurts, at the byte level: generated requests on a real socket with malformed
// request lines, odd and oversized headers, duplicate and conflicting framing headers, and odd
// content types. Each gets an answer (2xx, or a 4xx in the envelope) and the server lives on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { responseProblems } from '../helpers/envelope.js';
import { createTestContext, type TestContext } from '../helpers/harness.js';
import { rawRequest } from '../helpers/raw-http.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const REQUESTS = Number(process.env.FUZZ_SOCKET_REQUESTS ?? 400);
const IN_FLIGHT = 8;

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'get', 'FOO', 'TRACE', 'CONNECT', 'PRI', 'G\tT', ''];
const TARGETS = [
  '/api/v1/me', '/api/v1/issues?limit=1&limit=2', '/api/v1/issues?status=pending&status=done', '/api/v1/products', '/api/v1/issues',
  'http://127.0.0.1/api/v1/me', '*', '/api/v1/../api/v1/me', '//api//v1//me', '/api/v1/me#x', '/api/v1/%', '/api/v1/%ZZ', '/api/v1/é',
  '/api/v1/issues/%00', '/api/v1/issues/a%2Fb', `/api/v1/issues/${'x'.repeat(20_000)}`, '/api/v1/me?x=\u0001', 'api/v1/me', '',
];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1 extra', 'http/1.1', ''];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json;;', 'APPLICATION/JSON',
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json\u0001', '', ';',
  'application/json, application/json', 'x'.repeat(5000),
];
// Each entry is a list of raw header lines.
const ODD_HEADERS: string[][] = [
  [`X-Big: ${'v'.repeat(20_000)}`], [`X-Huge: ${'v'.repeat(100_000)}`], Array.from({ length: 300 }, (_, i) => `X-Many-${i}: ${i}`),
  ['Content-Type: application/json', 'Content-Type: text/plain'], ['Authorization: Bearer x', 'Authorization: Bearer y'],
  ['Content-Length: 2', 'Content-Length: 3'], ['Transfer-Encoding: chunked'], ['Transfer-Encoding: gzip, chunked'],
  ['Transfer-Encoding: identity'], ['Bad Name: x'], ['X-Ctl: a\u0001b'], ['X-Nul: a\u0000b'], ['X-Del: \u007f'], ['NoColon'],
  [': empty-name'], ['X-Fold: a', ' continued'], ['X-Utf8: ünïcödé'], ['Expect: 100-continue'], ['Expect: the-unexpected'],
  ['Connection: keep-alive, Upgrade', 'Upgrade: h2c'], ['X-Request-Id: ../../etc'], [`X-Request-Id: ${'r'.repeat(5000)}`],
  ['Accept: */*;q=oops'], ['Host: '], ['Host: a', 'Host: b'], [],
];

interface RawCase {
  method: string;
  target: string;
  version: string;
  authorization: 'valid' | 'none' | 'odd';
  contentType: string | null;
  odd: string[];
  body: string;
  lineEnding: string;
}

function serialize(c: RawCase, key: string): string {
  const lines = [`${c.method} ${c.target} ${c.version}`.trim(), 'Host: 127.0.0.1'];
  if (c.authorization === 'valid') lines.push(`Authorization: Bearer ${key}`);
  if (c.authorization === 'odd') lines.push(`Authorization: Bearer ${key}\u0001`);
  if (c.contentType !== null) lines.push(`Content-Type: ${c.contentType}`);
  lines.push(...c.odd);
  const chunked = c.odd.some((line) => /^Transfer-Encoding: .*chunked/.test(line));
  const framing = c.odd.some((line) => line.startsWith('Content-Length'));
  if (!chunked && !framing) lines.push(`Content-Length: ${Buffer.byteLength(c.body)}`);
  lines.push('Connection: close');
  const body = chunked ? `${Buffer.byteLength(c.body).toString(16)}\r\n${c.body}\r\n0\r\n\r\n` : c.body;
  return `${lines.join(c.lineEnding)}${c.lineEnding}${c.lineEnding}${body}`;
}

const rawCases = fc.record({
  method: fc.oneof({ arbitrary: fc.constant('GET'), weight: 3 }, fc.constantFrom(...METHODS)),
  target: fc.constantFrom(...TARGETS),
  version: fc.oneof({ arbitrary: fc.constant('HTTP/1.1'), weight: 4 }, fc.constantFrom(...VERSIONS)),
  authorization: fc.constantFrom('valid', 'valid', 'none', 'odd'),
  contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 2 }),
  odd: fc.constantFrom(...ODD_HEADERS),
  body: fc.constantFrom('', '{"name":"Socket fuzz"}', '{"name":', 'name=x', '\u0000', '{"title":"é"}'),
  lineEnding: fc.oneof({ arbitrary: fc.constant('\r\n'), weight: 6 }, fc.constant('\n')),
}) as fc.Arbitrary<RawCase>;

describe('fuzzing the HTTP layer over a real socket', () => {
  let context: TestContext & { close(): Promise<void> };
  let port: number;
  before(async () => {
    context = await createTestContext('sqlite');
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    port = (context.app.server.address() as { port: number }).port;
  });
  after(() => context.close());

  it(`answers ${REQUESTS} malformed and odd requests with a 2xx or an enveloped 4xx, and keeps serving`, async (t) => {
    const cases = fc.sample(rawCases, { seed: SEED, numRuns: REQUESTS });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < cases.length; i += IN_FLIGHT) {
      await Promise.all(cases.slice(i, i + IN_FLIGHT).map(async (rawCase, j) => {
        const request = serialize(rawCase, context.a.key);
        const what = `#${i + j} ${JSON.stringify(request.slice(0, 300))}`;
        try {
          const response = await rawRequest(port, request);
          if (!response) return void failures.push(`${what}: the connection closed without an answer`);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const problems = responseProblems(response.status, response.headers, response.body);
          if (problems.length) failures.push(`${what} → ${response.status}: ${problems.join('; ')}`);
        } catch (error) {
          failures.push(`${what}: ${(error as Error).message}`);
        }
      }));
    }
    const summary = [...statuses.entries()].sort(([x], [y]) => x - y).map(([status, n]) => `${status}×${n}`).join(' ');
    t.diagnostic(`fuzz [socket]: ${REQUESTS} requests, seed ${SEED}; statuses ${summary}`);
    assert.deepEqual(failures.slice(0, 20), [], `replay with FUZZ_SEED=${SEED}`);
    assert.equal((await context.a.api.get('/api/v1/me')).status, 200);
  });
});
