// Reports (docs/reports.md, "Window and filters"): the stopped clocks and the messages carry their
// conversation's product, type, source and assignee, and the indexes the reports read (the ratings'
// too) cover them, so a filtered report reads the window's rows and nothing else. Before this, each row of the
// window looked its conversation up: a year's summary of one product of 100k conversations took
// about four times the unfiltered one (docs/benchmarks.md, "Reports").
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

const DIMENSIONS = ['product_id', 'type', 'source', 'assignee_id'] as const;

export function reportDimensions({ uuid }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const table of ['sla_clocks', 'messages']) {
        await db.schema.alterTable(table).addColumn('product_id', uuid).execute();
        await db.schema.alterTable(table).addColumn('type', 'text').execute();
        await db.schema.alterTable(table).addColumn('source', 'text').execute();
        await db.schema.alterTable(table).addColumn('assignee_id', uuid).execute();
        await sql`update ${sql.table(table)} set product_id = c.product_id, type = c.type, source = c.source, assignee_id = c.assignee_id
          from conversations c where c.id = ${sql.ref(`${table}.conversation_id`)}`.execute(db);
      }
      await db.schema.dropIndex('sla_clocks_reported').execute();
      await db.schema.createIndex('sla_clocks_reported').on('sla_clocks')
        .columns(['workspace_id', 'target', 'stopped_at', 'value_seconds', 'business_seconds', 'due_at', 'outcome', ...DIMENSIONS])
        .where(sql<boolean>`stopped_at is not null`).execute();
      await db.schema.dropIndex('sla_clocks_stopped').execute();
      await db.schema.createIndex('sla_clocks_stopped').on('sla_clocks')
        .columns(['workspace_id', 'stopped_at', 'target', 'value_seconds', 'business_seconds', 'outcome', 'due_at', 'answered_by', 'conversation_id', ...DIMENSIONS])
        .where(sql<boolean>`stopped_at is not null`).execute();
      await db.schema.dropIndex('messages_created').execute();
      await db.schema.createIndex('messages_created').on('messages')
        .columns(['created_at', 'workspace_id', 'sender_type', 'internal', 'sender_id', 'conversation_id', ...DIMENSIONS]).execute();
      // The ratings are the conversations' own: their index covers the same filters.
      await db.schema.dropIndex('conversations_rated').execute();
      await db.schema.createIndex('conversations_rated').on('conversations').columns(['workspace_id', 'rated_at', 'rating', ...DIMENSIONS])
        .where(sql<boolean>`rated_at is not null`).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('conversations_rated').execute();
      await db.schema.createIndex('conversations_rated').on('conversations').columns(['workspace_id', 'rated_at', 'rating'])
        .where(sql<boolean>`rated_at is not null`).execute();
      await db.schema.dropIndex('messages_created').execute();
      await db.schema.createIndex('messages_created').on('messages')
        .columns(['created_at', 'workspace_id', 'sender_type', 'internal', 'sender_id', 'conversation_id']).execute();
      await db.schema.dropIndex('sla_clocks_stopped').execute();
      await db.schema.createIndex('sla_clocks_stopped').on('sla_clocks')
        .columns(['workspace_id', 'stopped_at', 'target', 'value_seconds', 'business_seconds', 'outcome', 'due_at', 'answered_by', 'conversation_id'])
        .where(sql<boolean>`stopped_at is not null`).execute();
      await db.schema.dropIndex('sla_clocks_reported').execute();
      await db.schema.createIndex('sla_clocks_reported').on('sla_clocks')
        .columns(['workspace_id', 'target', 'stopped_at', 'value_seconds', 'business_seconds', 'due_at', 'outcome'])
        .where(sql<boolean>`stopped_at is not null`).execute();
      for (const table of ['messages', 'sla_clocks']) {
        for (const column of DIMENSIONS) await db.schema.alterTable(table).dropColumn(column).execute();
      }
    },
  };
}
