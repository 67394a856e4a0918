// Issue counts kept per (workspace, product, status, priority, assignee), so a list's
// pagination.total sums a few rows instead of counting every matching issue (1.7 ms for 45,000
// issues on SQLite, growing with the data: docs/benchmarks.md). The issue repository updates them
// in the same transaction as every write that creates an issue or changes one of those fields.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function issueTallies({ uuid, clusteredByKey }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('issue_tallies')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('product_id', uuid, (c) => c.notNull().references('products.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        // The assignee's member id as text, '' for unassigned: a key column cannot be null.
        .addColumn('assignee_key', 'text', (c) => c.notNull())
        .addColumn('issue_count', 'integer', (c) => c.notNull())
        // Status first: the most common filter reads one key range.
        .addPrimaryKeyConstraint('issue_tallies_pk', ['workspace_id', 'status', 'priority', 'product_id', 'assignee_key'])
        .modifyEnd(clusteredByKey)
        .execute();
      await sql`
        insert into issue_tallies (workspace_id, product_id, status, priority, assignee_key, issue_count)
        select workspace_id, product_id, status, priority, coalesce(cast(assignee_id as text), ''), count(*)
        from issues
        group by workspace_id, product_id, status, priority, coalesce(cast(assignee_id as text), '')
      `.execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('issue_tallies').ifExists().execute();
    },
  };
}
