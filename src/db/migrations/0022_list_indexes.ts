// The lists' indexes hold their filter columns too, so that a page's id query walks the index
// alone, filters included: a deep page is read from the nearer end of its list, but still steps
// over up to half of it (src/db/repositories/paging.ts), and with the filters read from the rows
// each step was a row lookup (20 ms for a status-filtered deep page at 100k issues on SQLite,
// against 0.1 ms for its first page). The new indexes begin as the ones they replace did, so
// they serve every query those served.
import { sql, type Kysely } from 'kysely';

/** The columns the issues' and conversations' list filters read (GET /issues, GET /conversations). */
const ISSUE_FILTERS = 'status, priority, assignee_id, product_id';
const CONVERSATION_FILTERS = 'status, type, priority, assignee_id, product_id';

const replace = async (db: Kysely<any>, drop: string, create: string, table: string, columns: string) => {
  await db.schema.createIndex(create).on(table).expression(sql.raw(columns)).execute();
  await db.schema.dropIndex(drop).execute();
};

export function listIndexes() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await replace(db, 'issues_workspace_created', 'issues_listing', 'issues', `workspace_id, created_at, id, ${ISSUE_FILTERS}`);
      await replace(db, 'conversations_workspace_created', 'conversations_listing', 'conversations', `workspace_id, created_at, id, ${CONVERSATION_FILTERS}`);
      await replace(db, 'conversations_waiting', 'conversations_waiting_listing', 'conversations',
        `workspace_id, (waiting_since is null), waiting_since, id, ${CONVERSATION_FILTERS}`);
    },

    async down(db: Kysely<any>): Promise<void> {
      await replace(db, 'conversations_waiting_listing', 'conversations_waiting', 'conversations', 'workspace_id, (waiting_since is null), waiting_since, id');
      await replace(db, 'conversations_listing', 'conversations_workspace_created', 'conversations', 'workspace_id, created_at, id');
      await replace(db, 'issues_listing', 'issues_workspace_created', 'issues', 'workspace_id, created_at, id');
    },
  };
}
