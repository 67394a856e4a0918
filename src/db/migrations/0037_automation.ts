// Automation (docs/automation.md): rules that act on conversations when events happen, macros an
// agent runs, and the queue of rule runs. A rule's conditions and actions, and a macro's actions,
// are JSON text as the API shows them; a rule's position is 1…n in its workspace, kept contiguous by
// the rule service under the workspace's lock. `automation_jobs` holds one row per event that
// active rules listen to, created when the dispatcher fans the event out (so once per event, on
// any number of processes) and deleted when its last rule has run; `rules_done` counts the rules
// already run, advanced in each rule's own transaction, so a rule runs at most once per event.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function automation({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('automation_rules')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('conditions', 'text', (c) => c.notNull())
        .addColumn('actions', 'text', (c) => c.notNull())
        .addColumn('runs', 'integer', (c) => c.notNull())
        .addColumn('last_run_at', timestamp)
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('automation_rules_workspace_position').on('automation_rules').columns(['workspace_id', 'position', 'created_at', 'id']).execute();

      await db.schema
        .createTable('macros')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('actions', 'text', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('macros_workspace_created').on('macros').columns(['workspace_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('automation_jobs')
        // The triggering event's id: one job per event (its payload holds the contact's message a condition may read).
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        // Always `rules` (the claim helper shares its shape with the other job tables).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        // JSON array of the rule ids to run, in order, as they stood when the event was fanned out.
        .addColumn('rule_ids', 'text', (c) => c.notNull())
        .addColumn('rules_done', 'integer', (c) => c.notNull())
        // pending | failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', timestamp)
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('automation_jobs_due').on('automation_jobs').columns(['kind', 'status', 'next_attempt_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('automation_jobs').ifExists().execute();
      await db.schema.dropTable('macros').ifExists().execute();
      await db.schema.dropTable('automation_rules').ifExists().execute();
    },
  };
}
