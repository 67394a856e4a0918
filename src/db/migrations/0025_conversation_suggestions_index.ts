// A conversation's suggestions by an index whose equality columns are all that triage's reads ask
// for (the conversation, its workspace, the status), so that no statistics are needed to choose it.
// The index it replaces began with the conversation alone; to a planner without current statistics
// (SQLite's, gathered at start and hourly, while a backlog's triage grows the table from nothing)
// it looked no better than the triage queue's indexes, which begin with the workspace: a triage run
// then read every suggestion of the workspace, twice (2.1 and 1.0 ms at 10,000 suggestions, against
// 4 µs by this index; over a third of the server's CPU through the backlog seeding leaves at 100,000
// issues). Its first column stays the conversation, for the rows a deleted conversation takes with it.
import type { Kysely } from 'kysely';

export function conversationSuggestionsIndex() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('suggestions_conversation').execute();
      await db.schema
        .createIndex('suggestions_conversation')
        .on('suggestions')
        .columns(['conversation_id', 'workspace_id', 'status', 'created_at', 'id'])
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('suggestions_conversation').execute();
      await db.schema.createIndex('suggestions_conversation').on('suggestions').columns(['conversation_id', 'created_at', 'id']).execute();
    },
  };
}
