// Four server processes on one PostgreSQL database behave as one (docs/reliability.md, "Many
// processes"): an API key's rate limit and a widget client's per-address limit are the budget of
// one process, not four times it, sign-in lockouts hold on every process, and a solved
// proof-of-work challenge is accepted once, whichever process sees it. Live streams and webhook
// deliveries across processes have their own tests (live-processes, widget-live-processes,
// webhook-processes).
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { solveChallenge } from 'altcha-lib/v1';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { createProduct, joinAsMember } from '../helpers/factories.js';
import type { Client } from '../helpers/harness.js';
import { httpClient } from '../helpers/http-client.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';

const SERVERS = 4;
/** LOOPDESK_RATE_LIMIT, and the widget's reads a minute at LOOPDESK_WIDGET_RATE_LIMIT=5. */
const PER_MINUTE = 600;
const WIDGET_SCALE = 5;
/** Requests of a burst: well past the budget, short of four budgets. */
const BURST = 1500;
const CONCURRENCY = 16;
const TOLERANCE = 0.1;

interface Burst {
  ok: number;
  refused: number;
  seconds: number;
}

/**
 * Sends BURST requests of `path`, CONCURRENCY at a time, to the servers in turn; counts the 2xx
 * and the 429s (each must carry Retry-After and the RateLimit-* headers; nothing else may come).
 */
async function burst(servers: RunningServer[], path: string, headers: Record<string, string> = {}): Promise<Burst> {
  let next = 0;
  let ok = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let i = next++; i < BURST; i = next++) {
      const res = await fetch(`${servers[i % servers.length].baseUrl}${path}`, { headers });
      await res.arrayBuffer();
      if (res.ok) ok++;
      else {
        assert.equal(res.status, 429, `${path}: only 2xx and 429`);
        for (const name of ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) assert.ok(res.headers.get(name), `429 carries ${name}`);
        refused++;
      }
    }
  }));
  return { ok, refused, seconds: (performance.now() - started) / 1000 };
}

/** What one process allows in the burst's time: the full bucket and its refill meanwhile. */
const budgetOf = ({ seconds }: Burst) => PER_MINUTE + (PER_MINUTE / 60) * seconds;

function assertOneBudget(t: TestContext, what: string, across: Burst, alone: Burst): void {
  const report = (b: Burst) => `${b.ok} × 2xx, ${b.refused} × 429 in ${b.seconds.toFixed(2)} s (one process's budget: ${budgetOf(b).toFixed(0)})`;
  t.diagnostic(`${what}: ${SERVERS} processes ${report(across)}; 1 process ${report(alone)}`);
  for (const [processes, b] of [[SERVERS, across], [1, alone]] as const) {
    const error = Math.abs(b.ok - budgetOf(b)) / budgetOf(b);
    assert.ok(error <= TOLERANCE, `${what} on ${processes} process(es): ${b.ok} 2xx is ${(error * 100).toFixed(1)} % off the budget ${budgetOf(b).toFixed(0)}`);
  }
}

describe(`${SERVERS} server processes on one PostgreSQL database behave as one`, { skip: !DIALECTS.includes('postgres') && 'no PostgreSQL' }, () => {
  // Filled as they start, so that a start that fails leaves none of the others running.
  const servers: RunningServer[] = [];
  let owner: Client;
  before(async () => {
    const databaseUrl = await freshDatabaseUrl('postgres');
    const env = { LOOPDESK_RATE_LIMIT: String(PER_MINUTE), LOOPDESK_WIDGET_RATE_LIMIT: String(WIDGET_SCALE) };
    servers.push(await startServer({ databaseUrl, env, firstStart: true }));
    // One at a time: four starting at once on two busy cores can miss the start-up deadline.
    while (servers.length < SERVERS) servers.push(await startServer({ databaseUrl, env }));
    owner = httpClient(servers[0].baseUrl, servers[0].bootstrapKey()!);
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.process.stop()));
  });

  const newKey = async () => {
    const res = await owner.post('/api/v1/api-keys', { label: 'burst' });
    assert.equal(res.status, 201, res.text);
    return { authorization: `Bearer ${res.body.data.key}` };
  };

  it(`gives an API key the budget of one process (${PER_MINUTE} a minute), not ${SERVERS} times it`, async (t) => {
    const across = await burst(servers, '/api/v1/me', await newKey());
    const alone = await burst(servers.slice(0, 1), '/api/v1/me', await newKey());
    assertOneBudget(t, 'GET /api/v1/me, one key', across, alone);
  });

  it(`gives a widget client address the read budget of one process (${120 * WIDGET_SCALE} a minute)`, async (t) => {
    const [product, other] = [await createProduct(owner), await createProduct(owner)];
    const across = await burst(servers, `/widget/v1/${product.widget_key}/config`);
    const alone = await burst(servers.slice(0, 1), `/widget/v1/${other.widget_key}/config`);
    assertOneBudget(t, 'GET /widget/v1/{key}/config, one address', across, alone);
  });

  it('locks an email on every process after 10 failed sign-ins spread over them', async () => {
    const { email, password } = await joinAsMember(owner, httpClient(servers[0].baseUrl, null));
    const signIn = (server: RunningServer, pass: string) => httpClient(server.baseUrl, null).post('/auth/sign-in', { email, password: pass });
    for (let i = 0; i < 10; i++) assert.equal((await signIn(servers[i % SERVERS], `wrong password ${i}`)).status, 401);
    for (const server of servers) {
      const res = await signIn(server, password);
      assert.equal(res.status, 429, 'the right password is refused while the email is locked');
      assert.equal(res.body.error_code, 'forbidden');
      assert.ok(Number(res.headers['retry-after']) > 0);
    }
  });

  it('accepts a solved proof-of-work challenge on one process and refuses it on every other', async () => {
    const product = await createProduct(owner, { widget_config: { proof_of_work: true } });
    const widget = `/widget/v1/${product.widget_key}`;
    const visitors = servers.map((server) => httpClient(server.baseUrl, null));
    const { algorithm, challenge, salt, signature, maxnumber } = (await visitors[0].get(`${widget}/challenge`)).body;
    const solution = await solveChallenge(challenge, salt, algorithm, maxnumber).promise;
    assert.ok(solution);
    const altcha = Buffer.from(JSON.stringify({ algorithm, challenge, number: solution.number, salt, signature })).toString('base64');
    assert.equal((await visitors[1].post(`${widget}/sessions`, { altcha })).status, 201);
    for (const replayed of [visitors[1], visitors[0], visitors[2], visitors[3]]) {
      const res = await replayed.post(`${widget}/sessions`, { altcha });
      assert.equal(res.status, 400);
      assert.ok(res.body.fields.altcha, 'refused as already used');
    }
  });
});
