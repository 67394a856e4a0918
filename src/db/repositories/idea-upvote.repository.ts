// Upvotes of ideas: one per voter and idea (the primary key), so adding twice or removing what is
// not there changes nothing, whichever process the calls reach. The voter is the contact of a
// verified visitor, the session of any other; the contact is kept beside it, for the team.
import type { Executor } from './executor.js';

export interface UpvoteKey {
  workspaceId: string;
  conversationId: string;
  voterId: string;
}

export function ideaUpvoteRepository(db: Executor) {
  return {
    /** true when this added the upvote, false when it was already there. */
    async add({ workspaceId, conversationId, voterId }: UpvoteKey, contactId: string, now: string, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .insertInto('idea_upvotes')
        .values({ workspace_id: workspaceId, conversation_id: conversationId, voter_id: voterId, contact_id: contactId, created_at: now })
        .onConflict((c) => c.columns(['conversation_id', 'voter_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** true when this removed the upvote, false when there was none. */
    async remove({ workspaceId, conversationId, voterId }: UpvoteKey, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .deleteFrom('idea_upvotes')
        .where('workspace_id', '=', workspaceId)
        .where('conversation_id', '=', conversationId)
        .where('voter_id', '=', voterId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Which of `conversationIds` the voter upvoted. */
    async upvotedAmong(workspaceId: string, voterId: string, conversationIds: readonly string[], tx: Executor = db): Promise<Set<string>> {
      if (conversationIds.length === 0) return new Set();
      const rows = await tx
        .selectFrom('idea_upvotes')
        .select('conversation_id')
        .where('workspace_id', '=', workspaceId)
        .where('voter_id', '=', voterId)
        .where('conversation_id', 'in', conversationIds)
        .execute();
      return new Set(rows.map((row) => row.conversation_id));
    },
  };
}

export type IdeaUpvoteRepository = ReturnType<typeof ideaUpvoteRepository>;
