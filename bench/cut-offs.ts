// How fast `bin/loopdesk.js serve` cuts off what it must not wait for, on a fresh SQLite database
// with a 1.5 s request timeout. test/reliability/limits.test.ts and test/integration/server.test.ts
// check that each cut-off happens; this measures when, against the limits they used to assert:
// a declared 5 GiB body (413 before the body is sent), a body that stops arriving (408), a
// slow-loris client (408, and the latency of the other clients meanwhile), and SIGTERM with a
// request in flight (the exit after its answer, without waiting for the 20 s grace period).
//   npm run build && node --import ./test/helpers/typescript-hooks.mjs bench/cut-offs.ts [rounds]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSocket, rawRequest, readResponse, type RawResponse } from '../test/helpers/raw-http.js';
import { startServer, type RunningServer } from '../test/helpers/server-process.js';

const REQUEST_TIMEOUT_MS = 1500;
const SHUTDOWN_GRACE_MS = 20_000;
/** The limits the suite asserted before these figures moved here. */
const TARGET_MS = {
  oversize: 1000,
  // The timeout, plus Node's 1 s check interval, plus slack for a loaded machine.
  cutOff: REQUEST_TIMEOUT_MS + 1000 + 2500,
  othersDuringLoris: 1000,
  exitAfterAnswer: 5000,
};
/** Only against a hang: every wait here ends in seconds. */
const HANG_GUARD_MS = 60_000;

const rounds = Number(process.argv[2] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'loopdesk-cut-offs-'));
let databases = 0;
const freshDatabaseUrl = () => `sqlite:${join(dir, `cut-offs-${++databases}.db`)}`;

const since = (started: number) => performance.now() - started;

const head = (key: string, method: string, path: string, extra: string) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${extra}\r\n`;

function expectStatus(response: RawResponse | null, status: number, what: string): void {
  if (response?.status !== status) throw new Error(`${what}: expected ${status}, got ${response ? response.status : 'no answer'}`);
}

async function declaredOversizeBody(server: RunningServer, key: string): Promise<number> {
  const started = performance.now();
  const response = await rawRequest(server.port, head(key, 'POST', '/api/v1/products', `Content-Length: ${5 * 1024 ** 3}\r\n`), HANG_GUARD_MS);
  expectStatus(response, 413, 'a declared 5 GiB body');
  return since(started);
}

async function stalledBody(server: RunningServer, key: string): Promise<number> {
  const socket = await openSocket(server.port);
  try {
    const answer = readResponse(socket, HANG_GUARD_MS);
    const started = performance.now();
    socket.write(`${head(key, 'POST', '/api/v1/products', 'Content-Length: 100\r\n')}{"name":`);
    expectStatus(await answer, 408, 'a body that stops arriving');
    return since(started);
  } finally {
    socket.destroy();
  }
}

/** The time until the trickling client is answered 408, and the latencies of the requests served meanwhile. */
async function slowLoris(server: RunningServer, key: string): Promise<{ cutOffMs: number; latencies: number[] }> {
  const loris = await openSocket(server.port);
  let cutOff = false;
  const answer = readResponse(loris, HANG_GUARD_MS).finally(() => (cutOff = true));
  const started = performance.now();
  loris.write('GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: ');
  const trickle = setInterval(() => loris.write('a'), 100);
  const latencies: number[] = [];
  try {
    while (!cutOff) {
      const sent = performance.now();
      const res = await fetch(`${server.baseUrl}/api/v1/issues`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`a request during the slow loris: ${res.status}`);
      latencies.push(since(sent));
    }
    expectStatus(await answer, 408, 'the slow-loris client');
    return { cutOffMs: since(started), latencies };
  } finally {
    clearInterval(trickle);
    loris.destroy();
  }
}

/** SIGTERM while a create is still uploading its body: the time from its 201 to the exit. */
async function exitAfterInFlightAnswer(): Promise<number> {
  const server = await startServer({
    databaseUrl: freshDatabaseUrl(), firstStart: true, env: { LOOPDESK_SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS) },
  });
  const socket = await openSocket(server.port);
  try {
    const body = JSON.stringify({ name: 'Shipped During Shutdown' });
    const answer = readResponse(socket, HANG_GUARD_MS);
    socket.write(`${head(server.bootstrapKey()!, 'POST', '/api/v1/products', `Content-Length: ${Buffer.byteLength(body)}\r\n`)}${body.slice(0, 10)}`);
    // Long enough for the server to have read the head: the request is in flight.
    await sleep(200);
    server.kill('SIGTERM');
    await server.process.waitFor(/shutting down/);
    socket.write(body.slice(10));
    expectStatus(await answer, 201, 'the request in flight at SIGTERM');
    const answered = performance.now();
    const exit = await server.process.exited;
    if (exit.code !== 0) throw new Error(`the server exited with ${JSON.stringify(exit)}`);
    return since(answered);
  } finally {
    socket.destroy();
    server.kill('SIGKILL');
  }
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

/** `median (min–max)` of the figures, and whether the slowest is under `target` ms. */
function spread(values: number[], target: number): string {
  const sorted = [...values].sort((x, y) => x - y);
  const verdict = sorted[sorted.length - 1] < target ? 'met' : 'MISSED';
  return `median ${ms(sorted[Math.floor(sorted.length / 2)])} (${ms(sorted[0])}–${ms(sorted[sorted.length - 1])}); target under ${ms(target)}: ${verdict}`;
}

async function measureRequestCutOffs(): Promise<string[]> {
  const server = await startServer({
    databaseUrl: freshDatabaseUrl(), firstStart: true, env: { LOOPDESK_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
  });
  try {
    const key = server.bootstrapKey()!;
    const oversize: number[] = [];
    const stalled: number[] = [];
    const loris: number[] = [];
    const others: number[] = [];
    for (let round = 0; round < rounds; round++) {
      oversize.push(await declaredOversizeBody(server, key));
      stalled.push(await stalledBody(server, key));
      const { cutOffMs, latencies } = await slowLoris(server, key);
      loris.push(cutOffMs);
      others.push(...latencies);
    }
    return [
      `413 to a declared 5 GiB body: ${spread(oversize, TARGET_MS.oversize)}`,
      `408 to a body that stops arriving: ${spread(stalled, TARGET_MS.cutOff)}`,
      `408 to a slow-loris client: ${spread(loris, TARGET_MS.cutOff)}`,
      `${others.length} other requests served during the slow loris: ${spread(others, TARGET_MS.othersDuringLoris)}`,
    ];
  } finally {
    server.kill('SIGKILL');
  }
}

try {
  process.stdout.write(`cut-offs: request timeout ${ms(REQUEST_TIMEOUT_MS)}, shutdown grace ${ms(SHUTDOWN_GRACE_MS)}, rounds: ${rounds}\n`);
  for (const line of await measureRequestCutOffs()) process.stdout.write(`${line}\n`);
  const exits: number[] = [];
  for (let round = 0; round < rounds; round++) exits.push(await exitAfterInFlightAnswer());
  process.stdout.write(`exit after the answer in flight at SIGTERM: ${spread(exits, TARGET_MS.exitAfterAnswer)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
