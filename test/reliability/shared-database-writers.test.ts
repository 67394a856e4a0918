// docs/operations.md ("Several processes on one SQLite file"): two server processes writing one
// database at once (on SQLite, one file; the admin CLI and `loopdesk backup` share it the same
// way) answer every write: no 500 while the other holds the write lock, every write kept. On
// SQLite, a process waiting for the lock goes on serving, and a lock held past the wait is a 503;
// on PostgreSQL, so is a connection the server refuses (too many connections).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { httpClient } from '../helpers/http-client.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';
import { prepareLoad, startWriteLoad } from '../helpers/write-load.js';

/** Writes each process must have answered before the load stops (or LOAD_LIMIT_MS passes). */
const WRITES_PER_PROCESS = 250;
const LOAD_LIMIT_MS = 60_000;
const WORKERS_PER_PROCESS = 3;
/** The widget's per-address limits off: every session of the test comes from one address. */
const UNLIMITED_WIDGET = { LOOPDESK_WIDGET_RATE_LIMIT: '0' };
/** Health checks answered, one after another, while a write waits for the lock. */
const CHECKS_WHILE_WAITING = 50;
/** Requests sent at once to a server that may open no more connections. */
const REQUESTS_AT_ONCE = 30;

/** Products on one process and widget sessions on the other, one request at a time, until stopped. */
async function productsAndSessions(first: RunningServer, second: RunningServer, key: string, widgetKey: string, running: () => boolean) {
  const api = httpClient(first.baseUrl, key);
  const visitor = httpClient(second.baseUrl, null);
  const outcome = { answered: 0, failed: [] as string[] };
  for (let round = 0; running(); round++) {
    const product = await api.post('/api/v1/products', { name: `Shared ${round}` });
    const session = await visitor.post(`/widget/v1/${widgetKey}/sessions`, { name: `Visitor ${round}` });
    for (const [what, res] of [['POST /api/v1/products', product], ['POST widget session', session]] as const) {
      if (res.status === 201) outcome.answered++;
      else outcome.failed.push(`${what} → ${res.status} ${res.text.slice(0, 300)}`);
    }
  }
  return outcome;
}

for (const dialect of DIALECTS) {
  describe(`two server processes writing one database [${dialect}]`, () => {
    let databaseUrl: string;
    let first: RunningServer;
    let second: RunningServer;
    before(async () => {
      databaseUrl = await freshDatabaseUrl(dialect);
      first = await startServer({ databaseUrl, firstStart: true, env: UNLIMITED_WIDGET });
      second = await startServer({ databaseUrl, env: UNLIMITED_WIDGET });
    });
    after(async () => {
      await Promise.all([first?.process.stop(), second?.process.stop()]);
    });

    it(`answers ${WRITES_PER_PROCESS} concurrent writes on each process without an error, and keeps every one`, async (t) => {
      const key = first.bootstrapKey()!;
      const setup = await prepareLoad(first.baseUrl, key);
      const shop = await httpClient(first.baseUrl, key).post('/api/v1/products', { name: 'Shop', widget_config: { proof_of_work: false } });
      assert.equal(shop.status, 201, shop.text);

      const loads = [startWriteLoad(setup, WORKERS_PER_PROCESS), startWriteLoad({ ...setup, baseUrl: second.baseUrl }, WORKERS_PER_PROCESS)];
      let running = true;
      const mixedDone = productsAndSessions(first, second, key, shop.body.data.widget_key, () => running);
      const limit = new Promise((resolve) => setTimeout(resolve, LOAD_LIMIT_MS).unref());
      await Promise.race([Promise.all(loads.map((load) => load.acknowledged(WRITES_PER_PROCESS))), limit]);
      running = false;
      const [mixed] = await Promise.all([mixedDone, ...loads.map((load) => load.stop())]);

      const journals = loads.map((load) => load.journal);
      const failed = [...journals.flatMap((journal) => journal.failed), ...mixed.failed];
      const [onFirst, onSecond] = journals.map((journal) => journal.acknowledged.length);
      t.diagnostic(`answered: ${onFirst} writes on the first process, ${onSecond} on the second, ${mixed.answered} products and widget sessions; failed: ${failed.length}`);
      assert.deepEqual(failed, []);
      assert.deepEqual(journals.flatMap((journal) => journal.unknown), []);
      for (const load of loads) assert.ok(load.journal.acknowledged.length >= WRITES_PER_PROCESS, `each process answered ${WRITES_PER_PROCESS} writes`);

      // Every acknowledged issue is in the database, whichever process took it.
      const created = journals.flatMap((journal) => journal.acknowledged.filter((write) => write.path === '/api/v1/issues').map((write) => write.response.data.id));
      const database = createDatabase(databaseUrl);
      try {
        const stored = await database.db.selectFrom('issues').select('id').where('id', 'in', created).execute();
        assert.equal(stored.length, created.length);
      } finally {
        await database.close();
      }
    });
  });
}

describe('a SQLite file whose write lock another process holds [sqlite]', () => {
  let server: RunningServer;
  let file: string;
  let key: string;
  before(async () => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    file = databaseUrl.slice('sqlite:'.length);
    server = await startServer({ databaseUrl, firstStart: true });
    key = server.bootstrapKey()!;
  });
  after(async () => {
    await server?.process.stop();
  });

  /** The write lock of the file, taken as any other process (`loopdesk` admin commands) takes it. */
  function holdWriteLock(): { release(): void } {
    const other = new Database(file);
    other.exec('begin immediate');
    return {
      release() {
        other.exec('commit');
        other.close();
      },
    };
  }

  it('waits for the lock while it goes on answering other requests, then writes', async () => {
    const lock = holdWriteLock();
    let answered = false;
    const write = httpClient(server.baseUrl, key).post('/api/v1/products', { name: 'Waited for' }).finally(() => (answered = true));
    try {
      // Requests without database work are answered meanwhile: the wait does not stop the process
      // (database work queues behind the write on the process's one connection).
      for (let check = 0; check < CHECKS_WHILE_WAITING; check++) assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
      assert.equal(answered, false, `the write waited while ${CHECKS_WHILE_WAITING} health checks were answered`);
    } finally {
      lock.release();
    }
    const res = await write;
    assert.equal(res.status, 201, res.text);
  });

  it('answers 503 with Retry-After, changing nothing, when the lock is held past the wait', async () => {
    const api = httpClient(server.baseUrl, key);
    const lock = holdWriteLock();
    let res;
    try {
      res = await api.post('/api/v1/products', { name: 'Never written' });
    } finally {
      lock.release();
    }
    assert.equal(res.status, 503, res.text);
    assert.equal(res.headers['retry-after'], '1');
    assert.equal(res.body.error_code, 'internal_error');
    assert.match(res.body.detail, /database is busy/);
    const products = await api.get('/api/v1/products');
    assert.ok(!products.body.data.some((product: any) => product.name === 'Never written'));
  });
});

if (DIALECTS.includes('postgres')) {
  describe('a PostgreSQL server that refuses more connections [postgres]', () => {
    const role = `loopdesk_busy_${process.pid}`;
    let databaseUrl: string;
    let server: RunningServer;

    /** One statement as the run's superuser on the test's database. */
    async function asSuperuser(statement: string): Promise<any[]> {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(statement)).rows;
      } finally {
        await client.end();
      }
    }

    before(async () => {
      databaseUrl = await freshDatabaseUrl('postgres');
      const migrated = createDatabase(databaseUrl);
      await migrated.migrate();
      await migrated.close();
      // A role of its own, not a superuser: its connection limit applies to it.
      await asSuperuser(`create role ${role} login; grant pg_read_all_data, pg_write_all_data to ${role}; grant create on schema public to ${role}`);
      const url = new URL(databaseUrl);
      url.username = role;
      server = await startServer({ databaseUrl: url.toString(), firstStart: true });
    });
    after(async () => {
      await server?.process.stop();
      await asSuperuser(`drop owned by ${role}; drop role ${role}`);
    });

    it('answers 503 with Retry-After, never a 500, to requests that find no connection', async () => {
      const [{ open }] = await asSuperuser(`select count(*)::int as open from pg_stat_activity where usename = '${role}'`);
      await asSuperuser(`alter role ${role} connection limit ${open}`);
      const api = httpClient(server.baseUrl, server.bootstrapKey()!);
      const answers = await Promise.all(Array.from({ length: REQUESTS_AT_ONCE }, () => api.get('/api/v1/issues')));
      const statuses = answers.map((res) => res.status);
      assert.deepEqual(statuses.filter((status) => status !== 200 && status !== 503), [], statuses.join(' '));
      const busy = answers.filter((res) => res.status === 503);
      assert.ok(busy.length > 0, `some of ${REQUESTS_AT_ONCE} requests needed a connection more: ${statuses.join(' ')}`);
      for (const res of busy) {
        assert.equal(res.headers['retry-after'], '1');
        assert.equal(res.body.error_code, 'internal_error');
      }
    });
  });
}
