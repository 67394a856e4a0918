// The reports' day counts (docs/reports.md, "Storage"): conversations created, contacts' messages
// and agents' replies per UTC day and the conversation's report dimensions, kept by the writes that
// move them (src/db/repositories/reports/report-days.ts), so a summary's volume over a long window
// sums a row per day and key instead of reading every message in it. Filled here from what exists.
import type { Kysely } from 'kysely';
import type { ColumnTypes, DialectName } from '../dialect.js';
import { countAllReportDays } from '../repositories/reports/report-days.js';

export function reportDays({ uuid, clusteredByKey }: ColumnTypes, dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('report_days')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        // The assignee's member id as text, '' for unassigned: a key column cannot be null.
        .addColumn('assignee_key', 'text', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('conversations_created', 'integer', (c) => c.notNull())
        .addColumn('messages_received', 'integer', (c) => c.notNull())
        .addColumn('messages_sent', 'integer', (c) => c.notNull())
        // A window's days are one range of the key; the filters are read on its rows.
        .addPrimaryKeyConstraint('report_days_pk', ['workspace_id', 'day', 'product_id', 'type', 'source', 'assignee_key', 'slot'])
        .modifyEnd(clusteredByKey)
        .execute();
      await countAllReportDays(db, dialect);
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('report_days').ifExists().execute();
    },
  };
}
