// Service levels (docs/service-levels.md): calendars of business hours, and SLA policies in the
// order they are tried. A calendar's weekly hours and holidays are JSON text, as the API shows them;
// a policy's conditions likewise. A policy's position is 1…n within its workspace, kept contiguous by
// the policy service under the workspace's lock (no unique index: a move shifts many rows at once).
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function serviceLevels({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('calendars')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('hours', 'text', (c) => c.notNull())
        .addColumn('holidays', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('calendars_workspace_created').on('calendars').columns(['workspace_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('sla_policies')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('conditions', 'text', (c) => c.notNull())
        .addColumn('first_response_seconds', 'integer')
        .addColumn('next_response_seconds', 'integer')
        .addColumn('resolution_seconds', 'integer')
        // null: round the clock. A calendar in use cannot be deleted (the service refuses first; this backs it).
        .addColumn('calendar_id', uuid, (c) => c.references('calendars.id'))
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sla_policies_workspace_position').on('sla_policies').columns(['workspace_id', 'position', 'created_at', 'id']).execute();
      await db.schema.createIndex('sla_policies_calendar').on('sla_policies').column('calendar_id').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('sla_policies').execute();
      await db.schema.dropTable('calendars').execute();
    },
  };
}
