// The deduplicating create reads a product's open issues (its candidates) by workspace, product and
// status: an index with all three, so that no planner walks every issue of the workspace for them
// (SQLite without statistics did, through issues_workspace_created, to spare itself a sort).
import type { Kysely } from 'kysely';

export function issueCandidatesIndex() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('issues_workspace_product_status').on('issues').columns(['workspace_id', 'product_id', 'status', 'created_at']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('issues_workspace_product_status').execute();
    },
  };
}
