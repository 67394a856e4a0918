// One transaction and what waits for its commit (src/domain/shared/unit-of-work.ts): a deadlock's
// victim runs again from the start and commits, once; any other failure is not run again, and the
// work registered for after the commit runs only for the run that committed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { inTransaction } from '../../src/domain/shared/unit-of-work.js';
import { DIALECTS, migratedDatabaseUrl } from '../helpers/databases.js';

/** A promise and what settles it, for steps of two transactions to wait on each other. */
function signal(): { done: Promise<void>; give(): void } {
  let give!: () => void;
  return { done: new Promise<void>((resolve) => (give = resolve)), give };
}

for (const dialect of DIALECTS) {
  describe(`inTransaction [${dialect}]`, () => {
    let database: DatabaseHandle;
    before(async () => {
      database = createDatabase(await migratedDatabaseUrl(dialect));
      await database.migrate();
    });
    after(() => database.close());

    it('runs a body that fails once, rolls its writes back, and never runs its after-commit work', async () => {
      let runs = 0;
      let afterCommit = 0;
      await assert.rejects(
        inTransaction(database.db, async (work) => {
          runs++;
          await work.tx.insertInto('workspaces').values({ id: '01a21f00-0000-7000-8000-000000000001', name: 'Rolled back', created_at: new Date().toISOString() }).execute();
          work.afterCommit(() => afterCommit++);
          throw new Error('the body failed');
        }),
        /the body failed/,
      );
      assert.deepEqual({ runs, afterCommit }, { runs: 1, afterCommit: 0 });
      assert.equal(await database.db.selectFrom('workspaces').select('id').where('name', '=', 'Rolled back').executeTakeFirst(), undefined);
    });

    if (dialect === 'postgres') {
      it('runs a deadlock\'s victim again: both transactions commit, the victim\'s after-commit work once', async () => {
        const { dialect: sqlDialect } = database;
        const runs = { first: 0, second: 0 };
        const afterCommit = { first: 0, second: 0 };
        const holding = { first: signal(), second: signal() };
        // Each takes its own lock, waits until the other holds its own, then asks for the other's:
        // PostgreSQL finds the circle (after deadlock_timeout, 1 s) and ends one of the two.
        const transaction = (name: 'first' | 'second', mine: string, theirs: string, other: 'first' | 'second') =>
          inTransaction(database.db, async (work) => {
            runs[name]++;
            await sqlDialect.lockKeyInTransaction(work.tx, mine);
            holding[name].give();
            await holding[other].done;
            await sqlDialect.lockKeyInTransaction(work.tx, theirs);
            work.afterCommit(() => afterCommit[name]++);
            return name;
          });
        const results = await Promise.all([
          transaction('first', 'deadlock:a', 'deadlock:b', 'second'),
          transaction('second', 'deadlock:b', 'deadlock:a', 'first'),
        ]);
        assert.deepEqual(results, ['first', 'second']);
        assert.deepEqual(Object.values(runs).sort(), [1, 2], 'the victim ran twice, the other once');
        assert.deepEqual(afterCommit, { first: 1, second: 1 });
      });
    }
  });
}
