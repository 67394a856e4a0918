// Background work on one conversation (docs/triage.md, "The queue"): at most one row per
// (conversation, kind) while that work is due, running or failed; a finished job's row is
// deleted in the transaction that commits its effect. `kind` is `summary` or `triage`. A contact's message asks for the work in its own transaction (an insert, or an
// update that pushes a waiting job back: the debounce), so a committed message is never left
// without it and a rolled-back one asks for nothing.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function conversationJobs({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('conversation_jobs')
        .addColumn('id', uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('conversation_id', uuid, (c) => c.notNull().references('conversations.id').onDelete('cascade'))
        // summary | triage
        .addColumn('kind', 'text', (c) => c.notNull())
        // pending | failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        // The latest message that asked for the work (what its latency is measured from).
        .addColumn('requested_at', timestamp, (c) => c.notNull())
        // When the job is due (pending), null once failed; a claim pushes it ahead by a lease.
        .addColumn('next_attempt_at', timestamp)
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('updated_at', timestamp, (c) => c.notNull())
        .addUniqueConstraint('conversation_jobs_conversation_kind', ['conversation_id', 'kind'])
        .execute();
      await db.schema.createIndex('conversation_jobs_due').on('conversation_jobs').columns(['kind', 'status', 'next_attempt_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('conversation_jobs').ifExists().execute();
    },
  };
}
