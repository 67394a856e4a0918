// What a newcomer sees on `npm start`: the key banner first; the server listening at once on the
// lexical matcher while the default model is fetched in the background; one warning line when
// the fetch fails, never a stack trace; the switch to the model once it loads (from a local
// stand-in for the model hub); and log lines for terminals or for machines.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { serveModels } from '../helpers/model-host.js';
import { REFUSED_URL } from '../helpers/ports.js';
import { ServerProcess } from '../helpers/processes.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

const BANNER_START = '\nLoopdesk created workspace "Default" with an owner and this API key (shown only once):\n';
const BANNER_END = /curl -H "Authorization: Bearer (ldk_[0-9A-Za-z]{40})" (http:\/\/127\.0\.0\.1:\d+)\/api\/v1\/me\n/;
const DEFAULT_MODEL = 'Xenova/multilingual-e5-small';
const OWNER_LINK = /\n {4}(http:\/\/127\.0\.0\.1:\d+)\/app\/invite\/(ldi_[0-9A-Za-z]{40})\n/;

const started: ServerProcess[] = [];
after(() => Promise.all(started.map((server) => server.stop('SIGKILL'))));

/** `loopdesk serve` as a newcomer runs it: every setting at its default, and nothing in the model cache. */
function firstStart(databaseUrl: string, env: Record<string, string>): ServerProcess {
  const server = new ServerProcess({
    // Empty means unset: `auto`, info, and the format for a pipe.
    LOOPDESK_DEDUP_PROVIDER: '', LOOPDESK_LOG_LEVEL: '', LOOPDESK_LOG_FORMAT: '',
    // The model cache is under the home directory.
    HOME: mkdtempSync(join(tmpdir(), 'loopdesk-home-')),
    ...env,
    DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1',
  });
  started.push(server);
  return server;
}

interface Started {
  key: string;
  baseUrl: string;
  /** stdout after the banner, so far. */
  logs(): string;
}

/** Waits for the banner and checks that it is the first thing on stdout. */
async function banner(server: ServerProcess): Promise<Started> {
  const [end, key, baseUrl] = await server.waitFor(BANNER_END);
  assert.ok(server.stdout.startsWith(BANNER_START), `stdout starts with the banner:\n${server.stdout}`);
  const logsFrom = server.stdout.indexOf(end) + end.length;
  return { key, baseUrl, logs: () => server.stdout.slice(logsFrom) };
}

const jsonLines = (text: string): Record<string, unknown>[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
const warnings = (started: Started) => jsonLines(started.logs()).filter((line) => (line.level as number) >= 40);

function assertNoStackTrace(server: ServerProcess): void {
  for (const line of `${server.stdout}\n${server.stderr}`.split('\n')) assert.ok(!line.includes('    at '), `a stack trace: ${line}`);
}

const readyz = async (baseUrl: string) => (await fetch(`${baseUrl}/readyz`)).json();

/** Reads until `done` holds; fails after 30 s. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function maybe(started: Started, productId: string, title: string) {
  const res = await fetch(`${started.baseUrl}/api/v1/issues/maybe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${started.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ product_id: productId, title }),
  });
  return { status: res.status, body: await res.json() };
}

async function createProduct(started: Started): Promise<string> {
  const res = await fetch(`${started.baseUrl}/api/v1/products`, {
    method: 'POST',
    headers: { authorization: `Bearer ${started.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'First Start' }),
  });
  assert.equal(res.status, 201);
  return (await res.json()).data.id;
}

// "login" and "signin" have the same vector: the model merges the two reports, lexical does not.
const tiny = writeTinyModel('loopdesk-test/e5-tiny', { login: [1, 0, 0], signin: [1, 0, 0], fails: [0, 1, 0], refund: [0, 0, 1] });

for (const dialect of DIALECTS) {
  describe(`first start [${dialect}]`, () => {
    it('listens on the lexical matcher at once, banner first, with one warning line and no stack trace when the model cannot be fetched', async () => {
      const server = firstStart(await freshDatabaseUrl(dialect), { LOOPDESK_MODELS_URL: `${REFUSED_URL}/`, LOOPDESK_MODEL_RETRY_MS: '3600000' });
      const first = await banner(server);
      assert.deepEqual(await readyz(first.baseUrl), { status: 'ok', database: 'ok', dedup: 'lexical' });
      const productId = await createProduct(first);
      assert.equal((await maybe(first, productId, 'Refund button missing')).status, 201);
      await server.waitFor(/"level":40/);

      const lines = jsonLines(first.logs());
      const fetching = lines.filter((line) => String(line.msg).startsWith('Fetching the model'));
      assert.equal(fetching.length, 1);
      assert.match(String(fetching[0].msg),
        /^Fetching the model Xenova\/multilingual-e5-small in the background \(once, into .*\); duplicate detection uses the lexical matcher until it is ready \(LOOPDESK_DEDUP_PROVIDER=lexical, openai or local chooses a matcher instead\)\.$/);
      const [warning, ...more] = warnings(first);
      assert.deepEqual(more, [], 'one warning');
      assert.match(String(warning.msg),
        /^Could not load the model Xenova\/multilingual-e5-small \(fetch failed: connect ECONNREFUSED 127\.0\.0\.1\); duplicate detection stays on the lexical matcher and tries again in 60 min\.$/);
      assert.deepEqual(Object.keys(warning).sort(), ['hostname', 'level', 'msg', 'pid', 'time'], 'the message alone, no error object');
      assert.ok(lines.some((line) => String(line.msg).startsWith('Server listening at http://127.0.0.1:')));
      assert.equal(server.stderr, '');
      assertNoStackTrace(server);
      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
    });

    it('switches to the model once a later download succeeds, and /readyz tells', async () => {
      let retried!: () => void;
      const retrying = new Promise<void>((resolve) => (retried = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // The first download fails; the second waits until the test has seen the first's warning.
      const host = await serveModels(tiny.modelsDir, async (file, nth) => {
        if (file !== 'config.json') return;
        if (nth === 1) return 503;
        retried();
        await released;
      });
      after(() => host.close());
      const server = firstStart(await freshDatabaseUrl(dialect), {
        LOOPDESK_EMBEDDING_MODEL: tiny.model, LOOPDESK_MODELS_URL: host.url, LOOPDESK_MODEL_RETRY_MS: '100',
      });
      const first = await banner(server);
      assert.equal((await readyz(first.baseUrl)).dedup, 'lexical');
      const productId = await createProduct(first);
      assert.equal((await maybe(first, productId, 'login fails')).status, 201);
      assert.equal((await maybe(first, productId, 'signin fails')).status, 201, 'lexical tells login and signin apart');

      await retrying;
      const [warning, ...more] = warnings(first);
      assert.deepEqual(more, []);
      assert.match(String(warning.msg), /^Could not load the model loopdesk-test\/e5-tiny \(Service unavailable error occurred while trying to load file: "http:\/\/127\.0\.0\.1:\d+\/loopdesk-test\/e5-tiny\/resolve\/main\/config\.json"\); duplicate detection stays on the lexical matcher and tries again in 0\.1 s\.$/);
      release();
      await until(() => readyz(first.baseUrl), (ready) => ready.dedup === 'local:loopdesk-test/e5-tiny', 'the model never answered');
      // The log line may reach stdout a moment after /readyz answers.
      const switchLines = async () => jsonLines(first.logs()).filter((line) => line.msg === 'Duplicate detection uses local:loopdesk-test/e5-tiny.');
      const switched = await until(switchLines, (lines) => lines.length > 0, 'the switch was never logged');
      assert.equal(switched.length, 1);
      assert.equal(warnings(first).length, 1, 'no more warnings');

      const matched = await maybe(first, productId, 'signin fails');
      assert.equal(matched.status, 200, 'the model merges what lexical kept apart');
      assert.equal(matched.body.matched_existing, true);
      assert.ok(host.requested.includes('loopdesk-test/e5-tiny/onnx/model_quantized.onnx'));
      assertNoStackTrace(server);
      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
    });

    it('prints a one-time link with which the owner chooses an email, a name and a password, then signs in', async () => {
      const server = firstStart(await freshDatabaseUrl(dialect), { LOOPDESK_DEDUP_PROVIDER: 'lexical' });
      const first = await banner(server);
      const [, base, token] = OWNER_LINK.exec(server.stdout) ?? assert.fail(`no owner link in:\n${server.stdout}`);
      assert.equal(base, first.baseUrl);
      assert.match(server.stdout, /Sign in to the app: this one-time link lets the owner choose an email, a name and a password \(valid until \S+\):/);
      const shown = await fetch(`${base}/auth/invitations/${token}`);
      assert.deepEqual(await shown.json(), { data: { email: null, workspace_name: 'Default', role: 'owner' } });

      const post = (path: string, body: unknown) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const taken = await post(`/auth/invitations/${token}`, { email: 'owner@example.com', name: 'Grace', password: 'correct horse battery' });
      assert.equal(taken.status, 200);
      const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${first.key}` } });
      assert.equal((await me.json()).data.member.display_name, 'Grace', 'the key\'s owner is now Grace');
      assert.equal((await post('/auth/sign-in', { email: 'owner@example.com', password: 'correct horse battery' })).status, 200);
      assert.equal((await post(`/auth/invitations/${token}`, { email: 'x@example.com', name: 'X', password: 'correct horse battery' })).status, 404, 'once');
      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
      // The banner is for the person at the console; log lines go to collectors and must not carry the link.
      const logged = jsonLines(first.logs());
      assert.equal(logged.filter((line) => line.path === '/auth/invitations/ldi_[redacted]').length, 3, 'its requests are logged, redacted');
      assert.equal(first.logs().includes(token.slice('ldi_'.length)), false, 'the owner link is never logged');
    });

    it('LOOPDESK_LOG_FORMAT=pretty prints readable lines after the banner, flushed at shutdown', async () => {
      const server = firstStart(await freshDatabaseUrl(dialect), { LOOPDESK_LOG_FORMAT: 'pretty', LOOPDESK_DEDUP_PROVIDER: 'lexical' });
      const first = await banner(server);
      await fetch(`${first.baseUrl}/healthz`);
      await server.waitFor(/INFO: request .*"path":"\/healthz"/);
      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
      const lines = first.logs().split('\n').filter(Boolean);
      for (const line of lines) assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN): [A-Za-z]/);
      assert.ok(lines.some((line) => /INFO: Server listening at http:\/\/127\.0\.0\.1:\d+$/.test(line)));
      assert.ok(lines.some((line) => line.includes('INFO: shutting down: finishing in-flight requests')), 'the last lines are flushed');
    });

    it('LOOPDESK_LOG_FORMAT=json prints one JSON object per line after the banner, flushed at shutdown', async () => {
      const server = firstStart(await freshDatabaseUrl(dialect), { LOOPDESK_LOG_FORMAT: 'json', LOOPDESK_DEDUP_PROVIDER: 'lexical' });
      const first = await banner(server);
      await fetch(`${first.baseUrl}/healthz`);
      await server.waitFor(/"path":"\/healthz"/);
      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
      const messages = jsonLines(first.logs()).map((line) => line.msg);
      assert.ok(messages.some((msg) => String(msg).startsWith('Server listening at http://127.0.0.1:')));
      assert.ok(messages.includes('shutting down: finishing in-flight requests'), 'the last lines are flushed');
    });
  });
}
