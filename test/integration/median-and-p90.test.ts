// dialect.medianAndP90 (src/db/dialect.ts): the nearest-rank median and 90th percentile (ranks
// ⌈n/2⌉ and ⌈9n/10⌉), exactly, on both databases, for every count from 1 to 60 and a few large
// ones, with ties, values in any order and groups of different sizes in one statement (as the
// reports' summary reads its targets), compared with the ranks counted here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { DIALECTS, migratedDatabaseUrl } from '../helpers/databases.js';

/** The values at ranks ⌈n/2⌉ and ⌈9n/10⌉ of `values`, by sorting here (integers only: no rounding). */
const naive = (values: readonly number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const n = sorted.length;
  return [sorted[Math.floor((n + 1) / 2) - 1]!, sorted[Math.floor((9 * n + 9) / 10) - 1]!];
};

for (const dialect of DIALECTS) {
  describe(`dialect.medianAndP90 [${dialect}]`, () => {
    let database: DatabaseHandle;
    before(async () => {
      database = createDatabase(await migratedDatabaseUrl(dialect));
      await database.migrate();
    });
    after(() => database.close());

    /** Per group of `table` (g, v), in group order: the median and p90 as the dialect reads them. */
    const read = async (table: ReturnType<typeof sql>) => {
      const result = await sql<Record<string, unknown>>`
        select t.g, count(t.v) as n, ${sql.join(database.dialect.medianAndP90.aggregates(sql.ref('t.v')))}
        from (${table}) t group by t.g order by t.g`.execute(database.db);
      return result.rows.map((row) => database.dialect.medianAndP90.read(row, Number(row.n)));
    };
    const tableOf = (groups: number[][]) =>
      sql`${sql.join(groups.flatMap((values, group) => values.map((value) => sql`select cast(${group} as integer) as g, cast(${value} as integer) as v`)), sql` union all `)}`;

    it('reads every count from 1 to 60, in groups of different sizes, ties and any order', async () => {
      for (let count = 1; count <= 60; count += 3) {
        const groups = [0, 1, 2].map((shift) => {
          const n = count + shift;
          // Scattered (7919 is prime to every n here), with ties: the order is the database's to make.
          return Array.from({ length: n }, (_, i) => Math.floor(((i * 7919) % n) / 2) * 1000 + (i % 3));
        });
        assert.deepEqual(await read(tableOf(groups)), groups.map(naive), `counts ${count}…${count + 2}`);
      }
    });

    it('reads large counts, the values large', async () => {
      for (const count of [999, 1000, 1001, 4567, 10_009]) {
        const shuffled = sql`with recursive s(i) as (select 0 union all select i + 1 from s where i < ${count - 1})
          select 0 as g, ((i * 7919) % ${count}) * 86400 + 7 as v from s`;
        const values = Array.from({ length: count }, (_, i) => ((i * 7919) % count) * 86400 + 7);
        assert.deepEqual(await read(shuffled), [naive(values)], `count ${count}`);
      }
    });

    it('leaves out nulls: they are no values', async () => {
      const withNulls = sql`select 0 as g, 5 as v union all select 0, null union all select 0, 1 union all select 0, null union all select 0, 3`;
      const result = await sql<Record<string, unknown>>`select count(t.v) as n, ${sql.join(database.dialect.medianAndP90.aggregates(sql.ref('t.v')))} from (${withNulls}) t`.execute(database.db);
      assert.deepEqual(database.dialect.medianAndP90.read(result.rows[0]!, Number(result.rows[0]!.n)), [3, 5]);
    });
  });
}
