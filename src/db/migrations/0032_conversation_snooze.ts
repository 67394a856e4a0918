// Snooze (docs/inbox.md, "Snooze"): `snoozed_until`, when a snoozed conversation wakes (null: not
// snoozed). The wake itself is a conversation job of kind `wake`, due at that instant, so the
// jobs' due-time index (conversation_jobs_due, migration 0016) finds it and the job runner claims
// it: no scan of the conversations. The lists' indexes (migration 0022) take `snoozed_until` among
// their filter columns, so the inbox's views (`snoozed=false`, the Snoozed view's `snoozed=true`)
// still walk an index alone, filters included. Their names stay: the plans and the docs name them.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

const CONVERSATION_FILTERS = 'status, type, priority, assignee_id, product_id';
const LISTINGS = {
  conversations_listing: 'workspace_id, created_at, id',
  conversations_waiting_listing: 'workspace_id, (waiting_since is null), waiting_since, id',
};

/** Builds the two listing indexes again over `filters`. */
async function rebuildListings(db: Kysely<any>, filters: string): Promise<void> {
  for (const [name, order] of Object.entries(LISTINGS)) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('conversations').expression(sql.raw(`${order}, ${filters}`)).execute();
  }
}

export function conversationSnooze({ timestamp }: ColumnTypes) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('conversations').addColumn('snoozed_until', timestamp).execute();
      await rebuildListings(db, `${CONVERSATION_FILTERS}, snoozed_until`);
    },

    async down(db: Kysely<any>): Promise<void> {
      await rebuildListings(db, CONVERSATION_FILTERS);
      await db.schema.alterTable('conversations').dropColumn('snoozed_until').execute();
      await db.deleteFrom('conversation_jobs').where('kind', '=', 'wake').execute();
    },
  };
}
