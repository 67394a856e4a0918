import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createServices, type Services } from '../../src/services.js';
import { DIALECTS, freshDatabaseUrl, type DialectName } from '../helpers/databases.js';

// A real failure of the bootstrap's last write: the database itself refuses every key insert.
const REFUSE_KEYS: Record<DialectName, string[]> = {
  sqlite: [`create trigger refuse_keys before insert on api_keys begin select raise(abort, 'injected: key insert refused'); end`],
  postgres: [
    `create function refuse_keys() returns trigger language plpgsql as $$ begin raise exception 'injected: key insert refused'; end $$`,
    'create trigger refuse_keys before insert on api_keys for each row execute function refuse_keys()',
  ],
};
const ALLOW_KEYS: Record<DialectName, string[]> = {
  sqlite: ['drop trigger refuse_keys'],
  postgres: ['drop trigger refuse_keys on api_keys', 'drop function refuse_keys()'],
};

for (const dialect of DIALECTS) {
  describe(`first-start bootstrap [${dialect}]`, () => {
    let database: DatabaseHandle;
    let services: Services;
    const runAll = async (statements: string[]) => {
      for (const statement of statements) await sql.raw(statement).execute(database.db);
    };
    const rowCounts = async () => {
      const counts: Record<string, number> = {};
      for (const table of ['workspaces', 'users', 'members', 'api_keys'] as const) {
        const { n } = await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        counts[table] = Number(n);
      }
      return counts;
    };

    before(async () => {
      database = createDatabase(await freshDatabaseUrl(dialect));
      await database.migrate();
      services = createServices(database);
    });
    after(() => database.close());

    it('leaves nothing behind when the key insert fails, and the next attempt bootstraps', async () => {
      await runAll(REFUSE_KEYS[dialect]);
      await assert.rejects(services.admin.bootstrapIfEmpty(), /injected: key insert refused/);
      assert.deepEqual(await rowCounts(), { workspaces: 0, users: 0, members: 0, api_keys: 0 }, 'no workspace or owner without its key');

      await runAll(ALLOW_KEYS[dialect]);
      const issued = await services.admin.bootstrapIfEmpty();
      assert.ok(issued, 'the database was still empty, so it bootstraps');
      assert.deepEqual(await rowCounts(), { workspaces: 1, users: 0, members: 1, api_keys: 1 });
      assert.deepEqual((await services.admin.listWorkspaces()).map((w) => w.name), ['Default']);

      const actor = await services.identity.authenticate(issued.key.key);
      assert.equal(actor?.workspaceId, issued.key.workspace_id);
      assert.equal(actor?.member?.role, 'owner');
      assert.equal(actor?.readOnly, false);
      assert.deepEqual(await services.invitations.describe(issued.ownerInvitation.token), { email: null, workspace_name: 'Default', role: 'owner' });
    });

    it('does nothing once the database has a workspace', async () => {
      assert.equal(await services.admin.bootstrapIfEmpty(), null);
      assert.equal((await rowCounts()).workspaces, 1);
    });
  });
}
