// Upvotes of ideas: one per contact and idea (the primary key), so adding twice or removing what
// is not there changes nothing, whichever process the calls reach.
import type { Executor } from './executor.js';

export interface UpvoteKey {
  workspaceId: string;
  conversationId: string;
  contactId: string;
}

export function ideaUpvoteRepository(db: Executor) {
  return {
    /** true when this added the upvote, false when it was already there. */
    async add({ workspaceId, conversationId, contactId }: UpvoteKey, now: string, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .insertInto('idea_upvotes')
        .values({ workspace_id: workspaceId, conversation_id: conversationId, contact_id: contactId, created_at: now })
        .onConflict((c) => c.columns(['conversation_id', 'contact_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** true when this removed the upvote, false when there was none. */
    async remove({ workspaceId, conversationId, contactId }: UpvoteKey, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .deleteFrom('idea_upvotes')
        .where('workspace_id', '=', workspaceId)
        .where('conversation_id', '=', conversationId)
        .where('contact_id', '=', contactId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Which of `conversationIds` the contact upvoted. */
    async upvotedAmong(workspaceId: string, contactId: string, conversationIds: readonly string[], tx: Executor = db): Promise<Set<string>> {
      if (conversationIds.length === 0) return new Set();
      const rows = await tx
        .selectFrom('idea_upvotes')
        .select('conversation_id')
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('conversation_id', 'in', conversationIds)
        .execute();
      return new Set(rows.map((row) => row.conversation_id));
    },
  };
}

export type IdeaUpvoteRepository = ReturnType<typeof ideaUpvoteRepository>;
