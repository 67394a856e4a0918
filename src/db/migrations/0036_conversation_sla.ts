// SLAs applied to conversations (docs/service-levels.md, "Applied to conversations"). Each run of a
// clock is a row of `sla_clocks`: its target, the policy it was measured by, when it started, when
// it is due, when it stopped and how (hit or missed), and when it breached. The conversation keeps
// what its lists show (`sla_*`): the policy, the latest due time of each target, the breached
// targets, the status, and `sla_due_at`, the earliest due time of a running clock (the `due` sort).
// The breach watcher finds running clocks whose due time has passed through `sla_clocks_breach_due`,
// which holds only those still to breach, so it reads the few it needs, never every open conversation.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/** The columns the conversations' list filters read (as migration 0022's listing indexes hold them). */
const CONVERSATION_FILTERS = 'status, type, priority, assignee_id, product_id';

export function conversationSla({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // No foreign key on the policy: a deleted policy leaves the promise it made on record.
      await db.schema.alterTable('conversations').addColumn('sla_policy_id', uuid).execute();
      await db.schema.alterTable('conversations').addColumn('sla_first_response_due_at', timestamp).execute();
      await db.schema.alterTable('conversations').addColumn('sla_next_response_due_at', timestamp).execute();
      await db.schema.alterTable('conversations').addColumn('sla_resolution_due_at', timestamp).execute();
      await db.schema.alterTable('conversations').addColumn('sla_breaches', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      await db.schema.alterTable('conversations').addColumn('sla_status', 'text').execute();
      await db.schema.alterTable('conversations').addColumn('sla_due_at', timestamp).execute();
      await db.schema.createIndex('conversations_due_listing').on('conversations')
        .expression(sql.raw(`workspace_id, (sla_due_at is null), sla_due_at, id, ${CONVERSATION_FILTERS}`)).execute();

      await db.schema
        .createTable('sla_clocks')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        // first_response | next_response | resolution
        .addColumn('target', 'text', (c) => c.notNull())
        // The policy whose target it was measured against when it stopped (or now); null: none applied.
        .addColumn('policy_id', uuid)
        .addColumn('started_at', timestamp, (c) => c.notNull())
        // null: no target (no policy, the policy sets none, or its calendar is never open that long).
        .addColumn('due_at', timestamp)
        // null while it runs.
        .addColumn('stopped_at', timestamp)
        // hit | missed, once stopped with a due time; null otherwise.
        .addColumn('outcome', 'text')
        .addColumn('breached_at', timestamp)
        .execute();
      await db.schema.createIndex('sla_clocks_conversation').on('sla_clocks').columns(['conversation_id', 'started_at', 'id']).execute();
      // The watcher's queue: running clocks not yet breached, by due time.
      await db.schema.createIndex('sla_clocks_breach_due').on('sla_clocks').columns(['due_at', 'id'])
        .where(sql<boolean>`stopped_at is null and breached_at is null and due_at is not null`).execute();
      // The reports' rows: clocks as they stop, per workspace and target.
      await db.schema.createIndex('sla_clocks_stopped').on('sla_clocks').columns(['workspace_id', 'target', 'stopped_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('sla_clocks').execute();
      await db.schema.dropIndex('conversations_due_listing').execute();
      for (const column of ['sla_due_at', 'sla_status', 'sla_breaches', 'sla_resolution_due_at', 'sla_next_response_due_at', 'sla_first_response_due_at', 'sla_policy_id']) {
        await db.schema.alterTable('conversations').dropColumn(column).execute();
      }
    },
  };
}
