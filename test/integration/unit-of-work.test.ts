// One transaction and what waits for its commit (src/domain/shared/unit-of-work.ts): a deadlock's
// victim runs again from the start and commits, once; any other failure is not run again, and the
// work registered for after the commit runs only for the run that committed. Rows staged for the
// transaction's end are written once, in the order staged, a savepoint's only when it returned.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { flushStaged, inSavepoint, inTransaction, stage, type Work } from '../../src/domain/shared/unit-of-work.js';
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

    it('writes what was staged once, at the end, in order: a savepoint\'s when it returned, never when it was rolled back', async () => {
      const writes: string[][] = [];
      const write = async (work: Work, items: readonly string[]) => {
        // Written inside the transaction, before the commit: the workspace the body made is there.
        assert.ok(await work.tx.selectFrom('workspaces').select('id').where('name', '=', 'Staging').executeTakeFirst());
        writes.push([...items]);
      };
      await inTransaction(database.db, async (work) => {
        await work.tx.insertInto('workspaces').values({ id: '01a21f00-0000-7000-8000-000000000002', name: 'Staging', created_at: new Date().toISOString() }).execute();
        stage(work, 'kind', ['first'], write);
        await inSavepoint(work, async (inner) => stage(inner, 'kind', ['kept'], write));
        await assert.rejects(inSavepoint(work, async (inner) => {
          stage(inner, 'kind', ['undone'], write);
          throw new Error('this run failed');
        }), /this run failed/);
        stage(work, 'kind', ['last'], write);
        assert.deepEqual(writes, [], 'nothing written before the body ends');
      });
      assert.deepEqual(writes, [['first', 'kept', 'last']]);
    });

    it('writes what was staged so far when asked (a write that must see it), and the rest at the end', async () => {
      const writes: string[][] = [];
      const write = async (_work: Work, items: readonly string[]) => {
        writes.push([...items]);
      };
      await inTransaction(database.db, async (work) => {
        stage(work, 'kind', ['before'], write);
        await flushStaged(work);
        assert.deepEqual(writes, [['before']]);
        stage(work, 'kind', ['after'], write);
      });
      assert.deepEqual(writes, [['before'], ['after']]);
    });

    it('writes nothing staged when the body fails', async () => {
      let written = 0;
      await assert.rejects(inTransaction(database.db, async (work) => {
        stage(work, 'kind', ['lost'], async () => {
          written++;
        });
        throw new Error('the body failed');
      }), /the body failed/);
      assert.equal(written, 0);
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
