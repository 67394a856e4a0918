// Safe upgrades: `loopdesk migrate --check` lists what an upgrade would apply (exit 1 when
// anything is pending), and neither the server nor the CLI touches a database that a newer
// Loopdesk migrated: a clear message, a non-zero exit, nothing changed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { runCli, ServerProcess } from '../helpers/processes.js';

const FUTURE_MIGRATION = '0099_from_a_newer_loopdesk';
const NEWER = new RegExp(`^loopdesk: the database was migrated by a newer Loopdesk \\(migrations this version does not know: ${FUTURE_MIGRATION}\\); .*\\n$`);

/** Runs `fn` on the database at `url`, closing it afterwards. */
async function withDatabase<T>(url: string, fn: (database: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> {
  const database = createDatabase(url);
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** What a refusal must leave as it was: the migrations recorded, the tables, and the (absent) workspaces. */
const stateOf = (url: string) =>
  withDatabase(url, async ({ db }) => ({
    migrations: (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name),
    tables: (await db.introspection.getTables()).map((table) => table.name).sort(),
    workspaces: (await db.selectFrom('workspaces').select('id').execute()).length,
  }));

for (const dialect of DIALECTS) {
  describe(`upgrades [${dialect}]`, () => {
    it('migrate --check lists the pending migrations and exits 1, then 0 with none once migrated, changing nothing itself', async () => {
      const env = { DATABASE_URL: await freshDatabaseUrl(dialect) };
      // An empty database (for SQLite, an empty file).
      const all = await withDatabase(env.DATABASE_URL, async (database) => (await database.migrationStatus()).pending);
      assert.equal(all[0], '0001_init');

      const pending = await runCli(['migrate', '--check', '--json'], env);
      assert.equal(pending.code, 1, pending.stderr);
      assert.deepEqual(JSON.parse(pending.stdout), { pending: all });
      const human = await runCli(['migrate', '--check'], env);
      assert.equal(human.code, 1);
      assert.equal(human.stdout, `pending: ${all.join(', ')}\n`);
      assert.deepEqual(await withDatabase(env.DATABASE_URL, async (database) => (await database.migrationStatus()).applied), [], 'nothing applied');

      assert.equal((await runCli(['migrate'], env)).code, 0);
      const none = await runCli(['migrate', '--check', '--json'], env);
      assert.equal(none.code, 0, none.stderr);
      assert.deepEqual(JSON.parse(none.stdout), { pending: [] });
      assert.equal((await runCli(['migrate', '--check'], env)).stdout, 'up to date: no pending migrations\n');
    });

    it('refuses a database migrated by a newer Loopdesk: serve, migrate and migrate --check exit 1 with one clear line, and nothing changes', async () => {
      const env = { DATABASE_URL: await freshDatabaseUrl(dialect) };
      assert.equal((await runCli(['migrate'], env)).code, 0);
      await withDatabase(env.DATABASE_URL, ({ db }) =>
        sql`insert into kysely_migration (name, timestamp) values (${FUTURE_MIGRATION}, ${new Date().toISOString()})`.execute(db));
      const before = await stateOf(env.DATABASE_URL);

      for (const args of [['migrate'], ['migrate', '--check'], ['migrate', '--json']]) {
        const result = await runCli(args, env);
        assert.equal(result.code, 1, `loopdesk ${args.join(' ')}`);
        assert.equal(result.stdout, '');
        assert.match(result.stderr, NEWER);
      }
      const server = new ServerProcess({ ...env, PORT: '0', HOST: '127.0.0.1', LOOPDESK_DEDUP_PROVIDER: 'lexical' });
      const { code } = await server.exited;
      assert.equal(code, 1, server.stdout);
      assert.match(server.stderr, NEWER);
      assert.doesNotMatch(server.stdout, /Server listening|created workspace/);

      assert.deepEqual(await stateOf(env.DATABASE_URL), before, 'no migration applied, no table created, no first-start workspace');
    });
  });
}

describe('upgrades on a SQLite file that does not exist', () => {
  it('migrate --check exits 1 naming the file, and creates nothing', async () => {
    const url = await freshDatabaseUrl('sqlite');
    const result = await runCli(['migrate', '--check'], { DATABASE_URL: url });
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `loopdesk: no database at ${url.slice('sqlite:'.length)}; set DATABASE_URL\n`);
  });
});
