// The outbox: every committed change records its event in the same transaction (`events`); a
// dispatcher in each server process later fans each event out to the workspace's subscribed
// webhook endpoints (`webhook_deliveries`, one row per event and endpoint, whose id is the
// Standard Webhooks `webhook-id`) and makes the attempts, so nothing committed is ever lost.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function events(types: ColumnTypes) {
  const { uuid, timestamp } = types;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('events')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        // The Standard Webhooks payload as delivered: `{ type, timestamp, data }`.
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        // Set once the dispatcher has created the event's deliveries; null: still to fan out.
        .addColumn('fanned_out_at', timestamp)
        .execute();
      await db.schema.createIndex('events_to_fan_out').on('events').columns(['fanned_out_at', 'created_at']).execute();
      await db.schema.createIndex('events_workspace_created').on('events').columns(['workspace_id', 'created_at']).execute();

      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        // JSON array of event types, or ["*"].
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('enabled', 'integer', (c) => c.notNull())
        // `whsec_` + base64 of 32 bytes; kept, since every delivery is signed with it.
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_workspace').on('webhook_endpoints').columns(['workspace_id', 'created_at']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('endpoint_id', uuid, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('event_id', uuid, (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        // pending | succeeded | failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        // When the next attempt is due (pending), null otherwise; an attempt in flight pushes it
        // ahead by its lease, so a process that dies mid-attempt hands it back by itself.
        .addColumn('next_attempt_at', timestamp)
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .addUniqueConstraint('webhook_deliveries_event_endpoint', ['event_id', 'endpoint_id'])
        .execute();
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'created_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('webhook_deliveries').ifExists().execute();
      await db.schema.dropTable('webhook_endpoints').ifExists().execute();
      await db.schema.dropTable('events').ifExists().execute();
    },
  };
}
