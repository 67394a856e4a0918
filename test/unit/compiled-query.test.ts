// compileOnce: a query compiled once must run with each call's arguments wherever the compiler
// placed them, keep the query's own constants, and refuse a build whose argument never became a
// parameter (its value would be frozen into the SQL).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, SqliteDialect, sql } from 'kysely';
import Database from 'better-sqlite3';
import { compileOnce } from '../../src/db/repositories/compiled-query.js';

interface Tables {
  notes: { id: number; owner: string; body: string; kind: string };
}

describe('compileOnce', () => {
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
});
