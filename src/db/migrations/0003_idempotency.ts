// Stored responses for `Idempotency-Key` retries: one row per (API key, key). A row with a null
// response_status is a request still in flight; its created_at also starts the 24 h retention.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function idempotency(types: ColumnTypes) {
  const { uuid, timestamp } = types;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('idempotency_records')
        .addColumn('api_key_id', uuid, (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_records_pk', ['api_key_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('idempotency_records_created').on('idempotency_records').columns(['created_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('idempotency_records').ifExists().execute();
    },
  };
}
