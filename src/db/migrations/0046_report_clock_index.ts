// Reports (docs/reports.md): the stopped clocks by workspace, target and time, covering what the
// summary reads of them (both values, due time, outcome). Grouped by target, a window of
// `sla_clocks_stopped` (led by time) had to be sorted by target first, in the tally and in the
// percentiles' read; this index gives each target's window in target order, so neither sorts
// (docs/benchmarks.md, "Reports": SQLite's CPU per statement at 100k conversations about a third).
import { sql, type Kysely } from 'kysely';

export function reportClockIndex() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('sla_clocks_reported').on('sla_clocks')
        .columns(['workspace_id', 'target', 'stopped_at', 'value_seconds', 'business_seconds', 'due_at', 'outcome'])
        .where(sql<boolean>`stopped_at is not null`).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('sla_clocks_reported').execute();
    },
  };
}
