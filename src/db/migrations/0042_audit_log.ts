// The audit log (docs/audit-log.md): who changed a workspace's settings, signed in or failed to,
// exported or erased a contact, or took a backup. Rows are only ever inserted (in the transaction
// of the change they describe) and deleted by housekeeping once older than the retention; no API
// changes one. Ids are UUIDv7 from the entry's time, so the primary key bounds the purge's scan.
// `actor_id` and `target_id` keep no foreign key: an entry outlives the member, key or record it names.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function auditLog({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // member | api_key | system | rule
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', uuid)
        .addColumn('actor_name', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text')
        // JSON `{ field: [before, after] }`, secrets redacted; null for a creation and for what changes no fields.
        .addColumn('changes', 'text')
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_workspace_created').on('audit_log').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('audit_log_workspace_actor').on('audit_log').columns(['workspace_id', 'actor_id', 'created_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('audit_log').ifExists().execute();
    },
  };
}
