// compileOnce: a query compiled once must run with each call's arguments wherever the compiler
// placed them, keep the query's own constants, and refuse a build whose argument never became a
// parameter (its value would be frozen into the SQL). compileByShape: one compiled query per shape
// (values set or not, list lengths, choices), each answering as the query built for the call would.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, SqliteDialect, sql } from 'kysely';
import Database from 'better-sqlite3';
import { columnsOf, compileByShape, compileOnce, rowsOf, type Columns } from '../../src/db/repositories/compiled-query.js';

interface Tables {
  notes: { id: number; owner: string; body: string; kind: string };
}

describe('compileOnce and compileByShape', () => {
  let db: Kysely<Tables>;

  before(async () => {
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    await sql`create table notes (id integer primary key, owner text not null, body text not null, kind text not null)`.execute(db);
    await db.insertInto('notes').values([
      { id: 1, owner: 'ann', body: 'ann', kind: 'memo' },
      { id: 2, owner: 'ann', body: 'other', kind: 'memo' },
      { id: 3, owner: 'bob', body: 'bob', kind: 'memo' },
      { id: 4, owner: 'bob', body: 'bob', kind: 'draft' },
    ]).execute();
  });
  after(() => db.destroy());

  it('puts each argument in every position it was used, and keeps constants', async () => {
    const selfNamed = compileOnce(['who'], ({ who }: { who: string }) =>
      db.selectFrom('notes').select('id').where('owner', '=', who).where('body', '=', who).where('kind', '=', 'memo').orderBy('id'),
    );
    assert.deepEqual(await selfNamed(db, { who: 'ann' }), [{ id: 1 }]);
    assert.deepEqual(await selfNamed(db, { who: 'bob' }), [{ id: 3 }]);
    assert.deepEqual(await selfNamed(db, { who: 'nobody' }), []);
  });

  it('runs writes, inside a transaction too', async () => {
    const insert = compileOnce(['id', 'owner', 'body', 'kind'], (row: Tables['notes']) => db.insertInto('notes').values(row));
    await db.transaction().execute((tx) => insert(tx, { id: 5, owner: 'cy', body: 'hello', kind: 'memo' }));
    assert.deepEqual(await db.selectFrom('notes').select(['owner', 'body']).where('id', '=', 5).execute(), [{ owner: 'cy', body: 'hello' }]);
  });

  it('refuses an argument that did not become a parameter', () => {
    assert.throws(
      () => compileOnce(['who', 'unused'], ({ who }: { who: string; unused: string }) => db.selectFrom('notes').select('id').where('owner', '=', who)),
      /unused did not become query parameters/,
    );
    assert.throws(
      () => compileOnce(['who'], ({ who }: { who: string }) => db.selectFrom('notes').select('id').where('owner', '=', sql.lit(who))),
      /who did not become query parameters/,
    );
  });

  it('compiles once per shape and answers every call as the query built for it', async () => {
    type Values = { owner?: string; kinds?: string[]; limit: number };
    type Choices = { newestFirst: boolean; withoutDrafts: boolean };
    const build = (values: Values, choices: Choices) => {
      let query = db.selectFrom('notes').select('id');
      if (values.owner !== undefined) query = query.where('owner', '=', values.owner);
      if (values.kinds?.length) query = query.where('kind', 'in', values.kinds);
      if (choices.withoutDrafts) query = query.where('kind', '<>', 'draft');
      return query.orderBy('id', choices.newestFirst ? 'desc' : 'asc').limit(values.limit);
    };
    let built = 0;
    const shaped = compileByShape((values: Values, choices: Choices) => (built++, build(values, choices)));
    const calls: [Values, Choices][] = [
      [{ owner: 'ann', limit: 5 }, { newestFirst: false, withoutDrafts: false }],
      [{ owner: 'bob', limit: 1 }, { newestFirst: false, withoutDrafts: false }],
      [{ owner: 'bob', limit: 5 }, { newestFirst: true, withoutDrafts: false }],
      [{ owner: 'bob', limit: 5 }, { newestFirst: false, withoutDrafts: true }],
      [{ kinds: ['draft'], limit: 5 }, { newestFirst: false, withoutDrafts: false }],
      [{ kinds: ['memo', 'draft'], limit: 2 }, { newestFirst: true, withoutDrafts: false }],
      [{ kinds: ['draft', 'memo'], limit: 9 }, { newestFirst: true, withoutDrafts: false }],
      [{ kinds: [], limit: 9 }, { newestFirst: false, withoutDrafts: false }],
      [{ limit: 9 }, { newestFirst: false, withoutDrafts: false }],
      [{ owner: 'ann', limit: 5 }, { newestFirst: false, withoutDrafts: false }],
    ];
    for (const [values, choices] of calls) {
      assert.deepEqual(await shaped(db, values, choices), await build(values, choices).execute(), JSON.stringify([values, choices]));
    }
    // Shapes: an owner (3 choices), one kind, two kinds, no list, no list again ([] and missing), an owner again.
    assert.equal(built, 7);
  });

  it('inserts rows bound column by column, compiled once per number of rows', async () => {
    let built = 0;
    const insert = compileByShape((columns: Columns<Tables['notes']>) =>
      (built++, db.insertInto('notes').values(rowsOf(columns))));
    const batches: Tables['notes'][][] = [
      [{ id: 10, owner: 'dee', body: 'one', kind: 'memo' }],
      [{ id: 11, owner: 'eve', body: 'two', kind: 'memo' }, { id: 12, owner: 'fay', body: 'three', kind: 'draft' }],
      [{ id: 13, owner: 'gil', body: 'four', kind: 'draft' }, { id: 14, owner: 'hal', body: 'five', kind: 'memo' }],
    ];
    for (const rows of batches) await insert(db, columnsOf(rows, ['id', 'owner', 'body', 'kind']));
    assert.deepEqual(await db.selectFrom('notes').selectAll().where('id', '>=', 10).orderBy('id').execute(), batches.flat());
    assert.equal(built, 2, 'one row, then two rows twice');
  });
});
