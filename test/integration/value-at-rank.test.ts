// dialect.valueAtRank (src/db/dialect.ts): the value at a nearest rank, exactly, on both databases,
// for every rank of every count from 1 to 40 and a few large counts, with ties and groups of
// different sizes in one statement (as the reports' summary reads its targets).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { DIALECTS, migratedDatabaseUrl } from '../helpers/databases.js';

for (const dialect of DIALECTS) {
  describe(`dialect.valueAtRank [${dialect}]`, () => {
    let database: DatabaseHandle;
    before(async () => {
      database = createDatabase(await migratedDatabaseUrl(dialect));
      await database.migrate();
    });
    after(() => database.close());

    /** Per group (its values, in any order), the values at these ranks, in one statement. */
    const valuesAt = async (groups: number[][], ranksOf: (count: number) => number[]) => {
      const rows = groups.flatMap((values, group) => values.map((value) => sql`select cast(${group} as integer) as g, cast(${value} as integer) as v`));
      return ranked(sql`${sql.join(rows, sql` union all `)}`, groups.map((values) => values.length), ranksOf);
    };

    /** The values at these ranks of `table` (g, v), whose groups 0, 1, … hold `counts` values. */
    const ranked = async (table: ReturnType<typeof sql>, counts: number[], ranksOf: (count: number) => number[]) => {
      const perGroup = (of: (count: number) => number) =>
        sql<number>`case t.g ${sql.join(counts.map((count, group) => sql`when ${group} then ${of(count)}`), sql` `)} end`;
      const ranks = ranksOf(1).map((_, index) => index);
      const result = await sql<Record<string, number>>`
        select t.g, ${sql.join(ranks.map((index) => sql`${database.dialect.valueAtRank(sql.ref('t.v'), perGroup((count) => ranksOf(count)[index]!), perGroup((count) => count))} as ${sql.ref(`at_${index}`)}`))}
        from (${table}) t group by t.g order by t.g`.execute(database.db);
      return result.rows.map((row) => ranks.map((index) => Number(row[`at_${index}`])));
    };

    it('reads every rank of every count from 1 to 40, groups of different sizes in one statement', async () => {
      for (let count = 1; count <= 40; count++) {
        // Descending, with each value twice in the second group: the order and ties are the database's to sort.
        const groups = [Array.from({ length: count }, (_, i) => 10 * (count - i)), Array.from({ length: 2 * count }, (_, i) => Math.floor(i / 2))];
        for (let rank = 1; rank <= count; rank++) {
          const got = await valuesAt(groups, (n) => [n === count ? rank : 2 * rank - 1, n === count ? count - rank + 1 : 2 * rank]);
          assert.deepEqual(got, [[10 * rank, 10 * (count - rank + 1)], [rank - 1, rank - 1]], `count ${count}, rank ${rank}`);
        }
      }
    });

    it('reads the median and p90 ranks of large counts', async () => {
      for (const count of [999, 1000, 1001, 4567]) {
        // Each of 0 … count-1 once, shuffled (7919 is prime to every count here).
        const shuffled = sql`with recursive s(i) as (select 0 union all select i + 1 from s where i < ${count - 1}) select 0 as g, (i * 7919) % ${count} as v from s`;
        const ranks = [Math.ceil(count / 2), Math.ceil((9 * count) / 10)];
        assert.deepEqual(await ranked(shuffled, [count], () => ranks), [ranks.map((rank) => rank - 1)], `count ${count}`);
      }
    });
  });
}
