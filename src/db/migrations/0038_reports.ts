// Reports (docs/reports.md) read rows written as things happen, never the messages: each stopped
// SLA clock (migration 0036) keeps what it measured, as Chatwoot's reporting events do — its value
// in seconds (null for a response clock the conversation's closing stopped: nobody answered), the
// same in business hours, and the member whose reply stopped a response clock. A conversation
// keeps when its rating was given, which is when CSAT counts it. The indexes serve the report
// queries (test/integration/query-plans): stopped clocks by workspace, target and time; messages
// by time (the volume counts); ratings by workspace and time.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

export function reports({ uuid, timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('sla_clocks').addColumn('value_seconds', 'integer').execute();
      await db.schema.alterTable('sla_clocks').addColumn('business_seconds', 'integer').execute();
      await db.schema.alterTable('sla_clocks').addColumn('answered_by', uuid).execute();
      await db.schema.dropIndex('sla_clocks_stopped').execute();
      // A window of stopped clocks: the tallies, the time series and the members' figures read it whole.
      await db.schema.createIndex('sla_clocks_stopped').on('sla_clocks')
        .columns(['workspace_id', 'stopped_at', 'target', 'value_seconds', 'business_seconds', 'outcome', 'due_at', 'answered_by', 'conversation_id'])
        .where(sql<boolean>`stopped_at is not null`).execute();
      await db.schema.alterTable('conversations').addColumn('rated_at', timestamp).execute();
      // A rating given before this migration counts when the conversation last changed.
      await db.updateTable('conversations').set({ rated_at: sql`updated_at` }).where('rating', 'is not', null).execute();
      await db.schema.createIndex('conversations_rated').on('conversations').columns(['workspace_id', 'rated_at', 'rating'])
        .where(sql<boolean>`rated_at is not null`).execute();
      // By time first: led by workspace_id, SQLite (without statistics) took it for a conversation's
      // messages (`workspace_id = ? and conversation_id = ?`) over messages_conversation_created.
      await db.schema.createIndex('messages_created').on('messages')
        .columns(['created_at', 'workspace_id', 'sender_type', 'internal', 'sender_id', 'conversation_id']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('messages_created').execute();
      await db.schema.dropIndex('conversations_rated').execute();
      await db.schema.alterTable('conversations').dropColumn('rated_at').execute();
      await db.schema.dropIndex('sla_clocks_stopped').execute();
      await db.schema.createIndex('sla_clocks_stopped').on('sla_clocks').columns(['workspace_id', 'target', 'stopped_at']).execute();
      for (const column of ['answered_by', 'business_seconds', 'value_seconds']) await db.schema.alterTable('sla_clocks').dropColumn(column).execute();
    },
  };
}
