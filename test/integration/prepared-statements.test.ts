// PostgreSQL: a statement with parameters is parsed and planned once per connection and then
// only executed (a named prepared statement), where unnamed it was parsed and planned at every
// run. SQLite's counterpart, every value bound as `+?` so that no statement is prepared again at
// each run, is checked on the hot statements in test/reliability/query-plans.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { DIALECTS, migratedDatabaseUrl } from '../helpers/databases.js';

if (DIALECTS.includes('postgres')) {
  describe('statements on PostgreSQL', () => {
    let database: DatabaseHandle;

    before(async () => {
      database = createDatabase(await migratedDatabaseUrl('postgres'));
      await database.migrate();
    });
    after(() => database.close());

    it('prepares a statement with parameters once per connection, then only executes it', async () => {
      await database.db.connection().execute(async (connection) => {
        const lookup = (id: string) => connection.selectFrom('workspaces').select('name').where('id', '=', id).execute();
        const text = connection.selectFrom('workspaces').select('name').where('id', '=', '').compile().sql;
        for (const id of ['0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8092', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093']) {
          assert.deepEqual(await lookup(id), []);
        }
        const { rows } = await sql<{ name: string; runs: number }>`
          select name, generic_plans + custom_plans as runs from pg_prepared_statements where statement = ${text}`.execute(connection);
        assert.equal(rows.length, 1, `one prepared statement for: ${text}`);
        assert.match(rows[0]!.name, /^loopdesk_\d+$/);
        assert.equal(Number(rows[0]!.runs), 3);
      });
    });

    it('sends a statement without parameters as it is (transaction control, DDL)', async () => {
      await database.db.connection().execute(async (connection) => {
        await sql`select 1 as one`.execute(connection);
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement = 'select 1 as one'`.execute(connection);
        assert.equal(rows[0]!.n, 0);
      });
    });
  });
}
