import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { Migrator, type Kysely } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { idempotencyRepository } from '../../src/db/repositories/idempotency.repository.js';
import { IDEMPOTENCY_IN_FLIGHT_TIMEOUT_MS, IDEMPOTENCY_RETENTION_MS } from '../../src/domain/idempotency/idempotency.service.js';
import { apiKeyIdOf, createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { freshDatabaseUrl } from '../helpers/databases.js';
import { describeEachDialect, unique, type ApiResponse, type Client } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { newPerson, signedInCookie, withSession } from '../helpers/sessions.js';

const clock = manualClock();
const newKey = () => `retry-${randomUUID()}`;
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

const total = async (api: Client, url: string) => (await api.get(url)).body.pagination.total as number;

function assertReplayOf(replay: ApiResponse, first: ApiResponse): void {
  assert.equal(replay.status, first.status, replay.text);
  assert.equal(replay.text, first.text);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.match(String(replay.headers['content-type']), /^application\/json/);
}

/** Sends the same POST twice with one key: the retry must replay the answer and write nothing. */
async function assertRetryIsReplayed(
  api: Client, url: string, body: unknown, count: () => Promise<number>, status = 201,
): Promise<ApiResponse> {
  const key = newKey();
  const before = await count();
  const first = await api.post(url, body, withKey(key));
  assert.equal(first.status, status, first.text);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const afterFirst = await count();
  assert.equal(afterFirst, before + 1);
  assertReplayOf(await api.post(url, body, withKey(key)), first);
  assert.equal(await count(), afterFirst, 'the retry wrote nothing');
  return first;
}

describeEachDialect('Idempotency-Key [ext]: replays on every POST', (ctx) => {
  it('POST /api/v1/products', async () => {
    const { a } = ctx();
    await assertRetryIsReplayed(a.api, '/api/v1/products', { name: unique('Product') }, () => total(a.api, '/api/v1/products?limit=1'));
  });

  it('POST /api/v1/issues, and its deprecated alias /api/v1/actions', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const count = () => total(a.api, `/api/v1/issues?product_id=${product.id}&limit=1`);
    await assertRetryIsReplayed(a.api, '/api/v1/issues', { product_id: product.id, title: 'Crash on start' }, count);
    const alias = await assertRetryIsReplayed(a.api, '/api/v1/actions', { product_id: product.id, title: 'Crash on exit' }, count);
    assert.equal(alias.headers.deprecation, 'true');
  });

  it('POST /api/v1/issues/maybe: no second issue and no second provenance record', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const body = { product_id: product.id, title: 'Dark mode resets after restart' };
    const count = () => total(a.api, `/api/v1/issues?product_id=${product.id}&limit=1`);
    const first = await assertRetryIsReplayed(a.api, '/api/v1/issues/maybe', body, count);
    const sourcesCount = async () => (await a.api.get(`/api/v1/issues/${first.body.data.id}`)).body.data.sources_count;
    assert.equal(await sourcesCount(), 1);

    // The same report under a new key is a new call: it matches and records a second source.
    const fresh = await a.api.post('/api/v1/issues/maybe', body, withKey(newKey()));
    assert.equal(fresh.status, 200);
    assert.notEqual(fresh.body.api_source_id, first.body.api_source_id);
    assert.equal(await sourcesCount(), 2);
  });

  it('POST /api/v1/conversations', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const body = { product_id: product.id, title: 'Refund request', contact: { email: 'pat@example.test' }, body: 'Hello' };
    await assertRetryIsReplayed(a.api, '/api/v1/conversations', body, () => total(a.api, `/api/v1/conversations?product_id=${product.id}&limit=1`));
  });

  it('POST /api/v1/conversations/{id}/messages', async () => {
    const { a } = ctx();
    const conversation = await importConversation(a.api, (await createProduct(a.api)).id);
    const messages = async () => (await a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data.messages.length as number;
    await assertRetryIsReplayed(a.api, `/api/v1/conversations/${conversation.id}/messages`, { body: 'We are on it' }, messages);
  });

  it('POST /api/v1/releases', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id);
    const body = { product_id: product.id, title: 'Spring release', version: '2.0', issue_ids: [issue.id] };
    await assertRetryIsReplayed(a.api, '/api/v1/releases', body, () => total(a.api, `/api/v1/releases?product_id=${product.id}&limit=1`));
  });

  it('POST /api/v1/issues/{id}/conversations (a 200)', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id);
    const conversation = await importConversation(a.api, product.id);
    const links = async () => (await a.api.get(`/api/v1/issues/${issue.id}`)).body.data.linked_conversations.length as number;
    await assertRetryIsReplayed(a.api, `/api/v1/issues/${issue.id}/conversations`, { conversation_id: conversation.id }, links, 200);
  });

  it('treats a body with its fields in another order as the same request', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const key = newKey();
    const first = await a.api.post('/api/v1/issues', { product_id: product.id, title: 'Order', priority: 'high' }, withKey(key));
    const reordered = await a.api.post('/api/v1/issues', { priority: 'high', title: 'Order', product_id: product.id }, withKey(key));
    assertReplayOf(reordered, first);
  });

  it('does nothing special without the header: two POSTs are two writes', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const body = { product_id: product.id, title: 'Twice' };
    const first = await a.api.post('/api/v1/issues', body);
    const second = await a.api.post('/api/v1/issues', body);
    assert.notEqual(first.body.data.id, second.body.data.id);
    assert.equal(second.headers['idempotent-replayed'], undefined);
  });
}, { clock });

describeEachDialect('Idempotency-Key [ext]: mismatches, scope and failures', (ctx) => {
  it('rejects the same key with a different body as a validation_error, writing nothing', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const key = newKey();
    assert.equal((await a.api.post('/api/v1/issues', { product_id: product.id, title: 'One' }, withKey(key))).status, 201);
    const count = await total(a.api, `/api/v1/issues?product_id=${product.id}&limit=1`);
    const other = await a.api.post('/api/v1/issues', { product_id: product.id, title: 'Two' }, withKey(key));
    assert.equal(other.status, 400, other.text);
    assert.equal(other.body.error_code, 'validation_error');
    assert.ok(other.body.fields['idempotency-key']);
    assert.equal(await total(a.api, `/api/v1/issues?product_id=${product.id}&limit=1`), count);
  });

  it('rejects the same key on another path', async () => {
    const { a } = ctx();
    const key = newKey();
    assert.equal((await a.api.post('/api/v1/products', { name: unique('Product') }, withKey(key))).status, 201);
    const product = await createProduct(a.api);
    const res = await a.api.post('/api/v1/issues', { product_id: product.id, title: 'Elsewhere' }, withKey(key));
    assert.equal(res.status, 400);
    assert.ok(res.body.fields['idempotency-key']);
  });

  it('replays for a team member signed in with a session, as for a key', async () => {
    const person = await newPerson(ctx(), ctx().a);
    await assertRetryIsReplayed(person.app, '/api/v1/products', { name: unique('Product') }, () => total(person.app, '/api/v1/products?limit=1'));
  });

  it('scopes keys per credential: another key, a session (even of the key\'s own member), or another workspace runs independently', async () => {
    const { a, b, client } = ctx();
    const key = newKey();
    const body = { name: 'Shared name' };
    const first = await a.api.post('/api/v1/products', body, withKey(key));
    const sameWorkspace = await client(a.memberlessKey).post('/api/v1/products', body, withKey(key));
    const otherWorkspace = await b.api.post('/api/v1/products', body, withKey(key));
    const person = await newPerson(ctx(), a);
    const personKey = await ctx().services.admin.createKey({ workspaceId: a.id, memberId: person.member.id });
    const bySession = await person.app.post('/api/v1/products', body, withKey(key));
    const byTheirKey = await client(personKey.key).post('/api/v1/products', body, withKey(key));
    const byAnotherSession = await withSession(ctx(), await signedInCookie(ctx(), { email: person.email, password: person.password })).post('/api/v1/products', body, withKey(key));
    const answers = [first, sameWorkspace, otherWorkspace, bySession, byTheirKey, byAnotherSession];
    assert.equal(new Set(answers.map((res) => res.body.data.id)).size, answers.length);
    for (const res of answers.slice(1)) {
      assert.equal(res.status, 201);
      assert.equal(res.headers['idempotent-replayed'], undefined);
    }
  });

  it('does not store failures: after a 400 the corrected request runs under the same key', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const key = newKey();
    for (let i = 0; i < 2; i++) {
      const failed = await a.api.post('/api/v1/issues', { product_id: product.id, title: '   ' }, withKey(key));
      assert.equal(failed.status, 400);
      assert.equal(failed.headers['idempotent-replayed'], undefined);
    }
    const fixed = await a.api.post('/api/v1/issues', { product_id: product.id, title: 'Fixed' }, withKey(key));
    assert.equal(fixed.status, 201, fixed.text);
    assertReplayOf(await a.api.post('/api/v1/issues', { product_id: product.id, title: 'Fixed' }, withKey(key)), fixed);
  });

  it('does not store a 404', async () => {
    const { a } = ctx();
    const key = newKey();
    const missing = `/api/v1/conversations/${randomUUID()}/messages`;
    assert.equal((await a.api.post(missing, { body: 'Hi' }, withKey(key))).status, 404);
    const conversation = await importConversation(a.api, (await createProduct(a.api)).id);
    const res = await a.api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'Hi' }, withKey(key));
    assert.equal(res.status, 201);
  });

  it('keeps the answer of a read-only key refusal out of the store (403 before anything)', async () => {
    const { a, client } = ctx();
    const res = await client(a.readOnlyKey).post('/api/v1/products', { name: 'Nope' }, withKey(newKey()));
    assert.equal(res.status, 403);
  });

  describe('the header', () => {
    const invalid: [string, string][] = [['empty', ''], ['over 255 characters', 'k'.repeat(256)], ['with a tab', 'a\tb'], ['non-ASCII', 'clé']];
    for (const [what, value] of invalid) {
      it(`rejects a key ${what} with fields["idempotency-key"]`, async () => {
        const { a } = ctx();
        const res = await a.api.post('/api/v1/products', { name: unique('Product') }, withKey(value));
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.error_code, 'validation_error');
        assert.ok(res.body.fields['idempotency-key'], res.text);
      });
    }

    it('accepts 255 printable ASCII characters', async () => {
      const { a } = ctx();
      const key = `${' !"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'}${'x'.repeat(223)}`;
      const first = await a.api.post('/api/v1/products', { name: unique('Product') }, withKey(key));
      assert.equal(first.status, 201, first.text);
    });

    it('is a 404 before it is a 400 on a missing resource', async () => {
      const { a } = ctx();
      const res = await a.api.post(`/api/v1/conversations/${randomUUID()}/messages`, { body: 'Hi' }, withKey(''));
      assert.equal(res.status, 404);
    });

    it('copes with a body nested deeper than the call stack (400, not 500)', async () => {
      const { a } = ctx();
      const depth = 100_000;
      const payload = `{"product_id":"${randomUUID()}","title":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const headers = { 'content-type': 'application/json', 'idempotency-key': newKey() };
      const res = await a.api.request('POST', '/api/v1/issues', { payload, headers });
      assert.equal(res.status, 400, res.text);
    });

    it('is ignored on other methods', async () => {
      const { a } = ctx();
      const product = await createProduct(a.api);
      const res = await a.api.patch(`/api/v1/products/${product.id}`, { domain: 'example.test' }, withKey('k'.repeat(300)));
      assert.equal(res.status, 200);
    });

    it('is documented as a parameter of every POST operation of /api/v1, and in llms.txt', async () => {
      const { a } = ctx();
      const document = (await a.api.get('/api/v1/openapi.json')).body;
      let posts = 0;
      // /auth (the team app's sign-in) is outside /api/v1 and its idempotency.
      for (const [path, operations] of Object.entries<Record<string, any>>(document.paths).filter(([path]) => path.startsWith('/api/v1/'))) {
        for (const [method, operation] of Object.entries<any>(operations)) {
          const parameter = (operation.parameters ?? []).find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
          assert.equal(Boolean(parameter), method === 'post', `${method} ${path}`);
          if (method !== 'post') continue;
          posts++;
          assert.equal(parameter.required, false);
          assert.equal(parameter.schema.maxLength, 255);
          for (const [status, response] of Object.entries<any>(operation.responses)) {
            if (status.startsWith('2')) assert.ok(response.headers['Idempotent-Replayed'], `${method} ${path} ${status}`);
          }
        }
      }
      assert.ok(posts >= 7);
      assert.match((await a.api.get('/api/v1/llms.txt')).text, /Idempotency-Key/);
    });
  });
}, { clock });

describeEachDialect('Idempotency-Key [ext]: concurrency and expiry', (ctx) => {
  async function parallel(api: Client, url: string, body: unknown, times = 10): Promise<ApiResponse[]> {
    const key = newKey();
    return Promise.all(Array.from({ length: times }, () => api.post(url, body, withKey(key))));
  }

  for (const url of ['/api/v1/issues', '/api/v1/issues/maybe']) {
    it(`runs 10 parallel identical POST ${url} once; all get the same answer`, async () => {
      const { a } = ctx();
      const product = await createProduct(a.api);
      const responses = await parallel(a.api, url, { product_id: product.id, title: 'Parallel report' });
      assert.equal(new Set(responses.map((res) => res.status)).size, 1);
      assert.equal(responses[0].status, 201, responses[0].text);
      assert.equal(new Set(responses.map((res) => res.text)).size, 1);
      assert.equal(responses.filter((res) => res.headers['idempotent-replayed'] === 'true').length, 9);
      assert.equal(await total(a.api, `/api/v1/issues?product_id=${product.id}&limit=1`), 1);
    });
  }

  it('takes over a key whose first request never finished (its process died)', async () => {
    const { a, database } = ctx();
    const key = newKey();
    const scope = { workspaceId: a.id, credential: { kind: 'api_key' as const, id: await apiKeyIdOf(a.api) }, key };
    await idempotencyRepository(database.db).claim(scope, 'lost request', clock.now());
    const body = { name: unique('Product') };
    assert.equal((await a.api.post('/api/v1/products', body, withKey(key))).status, 400, 'still in flight: another body');
    clock.advance(IDEMPOTENCY_IN_FLIGHT_TIMEOUT_MS);
    const res = await a.api.post('/api/v1/products', body, withKey(key));
    assert.equal(res.status, 201, res.text);
  });

  it('replays for 24 hours, then forgets the key', async () => {
    const { a } = ctx();
    const key = newKey();
    const body = { name: unique('Product') };
    const first = await a.api.post('/api/v1/products', body, withKey(key));
    clock.advance(IDEMPOTENCY_RETENTION_MS - 1);
    assertReplayOf(await a.api.post('/api/v1/products', body, withKey(key)), first);

    clock.advance(1);
    const again = await a.api.post('/api/v1/products', { name: unique('Other product') }, withKey(key));
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers['idempotent-replayed'], undefined);
  });

  it('purges expired records from the table as requests come in', async () => {
    const { a, database } = ctx();
    const key = newKey();
    assert.equal((await a.api.post('/api/v1/products', { name: unique('Product') }, withKey(key))).status, 201);
    const stored = () => database.db.selectFrom('idempotency_records').select('idempotency_key').where('idempotency_key', '=', key).execute();
    assert.equal((await stored()).length, 1);
    // Purging runs at most hourly, so move past both the retention and the purge interval.
    clock.advance(IDEMPOTENCY_RETENTION_MS + 60 * 60_000);
    assert.equal((await a.api.post('/api/v1/products', { name: unique('Product') }, withKey(newKey()))).status, 201);
    assert.deepEqual(await stored(), []);
  });
}, { clock });

describeEachDialect('migration 0013_idempotency_credentials', (ctx) => {
  it('keeps the records made per API key, which replay as before, and goes back to them', async () => {
    const { dialect } = ctx();
    const database = createDatabase(await freshDatabaseUrl(dialect));
    try {
      const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations(database.dialect.columnTypes, database.dialect.name) } });
      assert.equal((await migrator.migrateTo('0010_secret_rotation')).error, undefined);
      const { db } = database;
      const workspace = { id: randomUUID(), name: 'Old', created_at: clock.now() };
      await db.insertInto('workspaces').values(workspace).execute();
      const apiKey = { id: randomUUID(), workspace_id: workspace.id, key_hash: 'h', created_at: clock.now(), read_only: 0 };
      await (db as Kysely<any>).insertInto('api_keys').values(apiKey).execute();
      const record = { workspace_id: workspace.id, idempotency_key: 'k', request_hash: 'r', response_status: 201, response_body: '{}', created_at: clock.now() };
      await (db as Kysely<any>).insertInto('idempotency_records').values({ ...record, api_key_id: apiKey.id }).execute();
      await database.migrate();

      const repository = idempotencyRepository(db);
      const scope = { workspaceId: workspace.id, credential: { kind: 'api_key' as const, id: apiKey.id }, key: 'k' };
      assert.deepEqual(await repository.find(scope), { request_hash: 'r', response_status: 201, response_body: '{}', created_at: record.created_at });
      assert.equal(await repository.claim(scope, 'r', clock.now()), false, 'the key is still taken');
      assert.equal(await repository.claim({ ...scope, credential: { kind: 'widget_session', id: apiKey.id } }, 'r', clock.now()), true);

      assert.equal((await migrator.migrateTo('0010_secret_rotation')).error, undefined);
      const restored = await (db as Kysely<any>).selectFrom('idempotency_records').selectAll().execute();
      assert.deepEqual(restored, [{ ...record, api_key_id: apiKey.id }], 'the session\'s record went, the key\'s came back');
    } finally {
      await database.close();
    }
  });
});
