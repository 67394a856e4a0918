// Secrets stay secret: API keys are stored only as their SHA-256 (the database file or dump holds
// no issued key, but does hold each hash), and nothing logged at any level, trace included,
// carries a key, an Authorization header, a request body, or a token a URL carries (one-time
// links, sessions, widget sessions). Keys are found by hash through a unique index, so no code
// compares a presented key with a stored secret.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { it } from 'node:test';
import pino from 'pino';
import { sha256Hex } from '../../src/lib/tokens.js';
import { invite, joinAsMember } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { findPostgresBin } from '../helpers/postgres.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startSession, widgetPath, widgetProduct } from '../helpers/widget.js';

const MARKER = 'body-marker-7f3a9c';
const logLines: string[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  }),
);

const issuedKeys = ({ a, b }: TestContext) =>
  [a, b].flatMap((w) => [w.key, w.readOnlyKey, w.memberlessKey, w.revokedKey]);

/** The stored bytes of the context's database: the SQLite files (WAL included) or a pg_dump. */
function storedBytes({ dialect, databaseUrl }: TestContext): Buffer {
  if (dialect === 'sqlite') {
    const dir = dirname(databaseUrl.slice('sqlite:'.length));
    return Buffer.concat(readdirSync(dir).map((file) => readFileSync(join(dir, file))));
  }
  const bin = findPostgresBin();
  assert.ok(bin, 'pg_dump is installed next to initdb');
  return execFileSync(join(bin, 'pg_dump'), ['--dbname', databaseUrl, '--no-owner'], { maxBuffer: 256 * 1024 * 1024 });
}

/** Requests that carry every key and a recognizable body, through every path that logs. */
async function exercise(context: TestContext): Promise<void> {
  const { a, app } = context;
  for (const key of [...issuedKeys(context), `ldk_${'Z'.repeat(40)}`]) {
    const api = context.client(key);
    await api.get('/api/v1/me');
    await api.post('/api/v1/products', { name: `Product ${MARKER}` });
    await api.post('/api/v1/issues', { product_id: '00000000-0000-4000-8000-000000000000', title: MARKER, severity: MARKER });
    await api.request('POST', '/api/v1/products', { payload: `{"name": "${MARKER}"`, headers: { 'content-type': 'application/json' } });
    await api.request('POST', '/api/v1/products', { payload: MARKER, headers: { 'content-type': 'text/plain' } });
    await api.get(`/api/v1/issues?status=${MARKER}`);
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  await rawRequest(port, `POST /api/v1/products HTTP/1.1\r\nAuthorization: Bearer ${a.key}\r\nX-Bad\u0001: ${MARKER}\r\n\r\n{"name":"${MARKER}"}`);
  await rawRequest(port, `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.key}\r\nExpect: ${MARKER}\r\n\r\n`);
  await rawRequest(port, `CONNECT ${MARKER}:443 HTTP/1.1\r\nAuthorization: Bearer ${a.key}\r\n\r\n`);
}

/**
 * Requests whose URL carries a token (in its path or its query), real ones and lookalikes: returns
 * the secrets that must not be logged and the redacted paths that must be.
 */
async function exerciseTokensInUrls(context: TestContext): Promise<{ secrets: string[]; redactedPaths: string[] }> {
  const { a } = context;
  const anonymous = context.client(null);
  const invitation = await invite(a.api);
  const { cookie } = await joinAsMember(a.api, anonymous);
  const sessionToken = cookie.split('=')[1];
  const product = await widgetProduct(context);
  const visitor = await startSession(context, product.widget_key);
  const unprefixed = invitation.token.slice('ldi_'.length);
  await anonymous.get(`/auth/invitations/${invitation.token}`);
  await anonymous.post(`/auth/invitations/${invitation.token}`, { name: '' });
  await anonymous.get(`/auth/invitations/${unprefixed}`);
  await anonymous.get(`/auth/invitations/${encodeURIComponent(invitation.token).replace('_', '%5F')}`);
  await anonymous.get(`/app/invite/${invitation.token}`);
  await anonymous.get(`/app/invite/${invitation.token}?from=mail`);
  await anonymous.get(`/api/v1/products/${sessionToken}`);
  await anonymous.get(`/api/v1/issues?token=${sessionToken}`);
  await anonymous.get(widgetPath(product.widget_key, `/conversations/${visitor.token}`));
  await anonymous.get(widgetPath(product.widget_key, `/ideas?session=${visitor.token}`));
  await anonymous.get(`/api/v1/me/${a.key}`);
  return {
    secrets: [invitation.token, unprefixed, sessionToken, visitor.token, a.key].map((token) => token.slice(4)),
    redactedPaths: ['/auth/invitations/ldi_[redacted]', '/auth/invitations/[redacted]', '/app/invite/ldi_[redacted]', '/api/v1/products/lds_[redacted]',
      `/widget/v1/${product.widget_key}/conversations/wst_[redacted]`, '/api/v1/me/ldk_[redacted]'],
  };
}

describeEachDialect('secrets', (ctx) => {
  it('stores API keys only as SHA-256 hashes', async (t) => {
    const context = ctx();
    await exercise(context);
    const bytes = storedBytes(context);
    for (const key of issuedKeys(context)) {
      assert.equal(bytes.indexOf(key), -1, 'an issued key is stored in the clear');
      assert.equal(bytes.indexOf(key.slice('ldk_'.length)), -1, 'the secret part of a key is stored');
      assert.notEqual(bytes.indexOf(sha256Hex(key)), -1, 'its SHA-256 is what is stored');
    }
    t.diagnostic(`secrets [${context.dialect}]: ${issuedKeys(context).length} issued keys, 0 found in ${bytes.length} stored bytes`);
  });

  it('finds keys through a unique index on the hash, never by comparing secrets', async () => {
    const { database, a } = ctx();
    const stored = await database.db.selectFrom('api_keys').select(['workspace_id', 'key_hash']).where('key_hash', '=', sha256Hex(a.key)).execute();
    assert.equal(stored.length, 1);
    const duplicate = { ...stored[0], id: '00000000-0000-4000-8000-0000000000aa', created_at: new Date().toISOString(), read_only: 0, integration: 0 };
    await assert.rejects(database.db.insertInto('api_keys').values(duplicate).execute(), 'key_hash is unique');
  });

  it('logs no key, Authorization header or request body at any level', () => {
    const context = ctx();
    assert.ok(logLines.some((line) => line.includes('"reqId"')), 'requests were logged');
    const secrets = [...issuedKeys(context), MARKER, 'authorization', 'Bearer ldk_'];
    const leaks = logLines.filter((line) => secrets.some((secret) => line.toLowerCase().includes(secret.toLowerCase())));
    assert.deepEqual(leaks, []);
  });

  it('logs the paths of one-time links, sessions and widget sessions with their tokens redacted, at any level', async () => {
    const { secrets, redactedPaths } = await exerciseTokensInUrls(ctx());
    const leaks = logLines.filter((line) => secrets.some((secret) => line.includes(secret)));
    assert.deepEqual(leaks, []);
    const loggedPaths = new Set(logLines.map((line) => JSON.parse(line).path));
    for (const path of redactedPaths) assert.ok(loggedPaths.has(path), `${path} is logged, recognisably`);
  });
}, { loggerInstance: logger });
