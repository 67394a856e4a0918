// Rate-limit budgets shared by the server processes of one database (docs/reliability.md, "Many
// processes"): one token bucket per (scope, subject), e.g. ('api', an API key's id). Processes
// lease tokens from it in chunks; last_granted is what the latest lease took (for its RETURNING).
// Times are epoch milliseconds rather than timestamps, so that the refill is the same arithmetic
// in SQL on both databases. No index on updated_ms: every lease changes it, and housekeeping's
// hourly scan of a table that holds only recently active subjects is cheap.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function rateLimits({ clusteredByKey }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('rate_limit_buckets')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('tokens', 'double precision', (c) => c.notNull())
        .addColumn('updated_ms', 'bigint', (c) => c.notNull())
        .addColumn('last_granted', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_buckets_pk', ['scope', 'subject'])
        .modifyEnd(clusteredByKey)
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('rate_limit_buckets').ifExists().execute();
    },
  };
}
