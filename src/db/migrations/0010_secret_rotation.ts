// Rotating a webhook endpoint's secret no longer breaks its receiver: the previous secret keeps
// signing, beside the new one, until `previous_secret_expires_at` (docs/events.md, "Secret rotation").
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function secretRotation({ timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // One column a statement: SQLite adds them one at a time.
      await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret', 'text').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret_expires_at', timestamp).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('webhook_endpoints').dropColumn('previous_secret_expires_at').execute();
      await db.schema.alterTable('webhook_endpoints').dropColumn('previous_secret').execute();
    },
  };
}
