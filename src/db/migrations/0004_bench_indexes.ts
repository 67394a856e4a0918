// Indexes found missing by `npm run bench` (docs/benchmarks.md). Without statistics, SQLite plans
// `workspace_id = ? AND id IN (...)` on the workspace's listing index and walks every issue of
// the workspace (90 ms per POST /releases at 100k issues); with (workspace_id, id) it seeks each id.
import type { Kysely } from 'kysely';

export function benchIndexes() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('issues_workspace_id').on('issues').columns(['workspace_id', 'id']).execute();
      await db.schema.createIndex('conversations_workspace_id').on('conversations').columns(['workspace_id', 'id']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('conversations_workspace_id').ifExists().execute();
      await db.schema.dropIndex('issues_workspace_id').ifExists().execute();
    },
  };
}
