// What erasing a contact deletes besides the rows its write units own (docs/privacy.md): every
// table that holds copies of the person's data, each found by the ids that name them (the
// contact's, their conversations' and their widget sessions'; for stored answers also the team's
// messages in their conversations). Texts that quote them (events' payloads, stored idempotent
// answers) are found by those ids inside the text: a scan of the workspace's recent rows,
// acceptable for an operation this rare.
import { sql } from 'kysely';
import type { Executor } from './executor.js';

/** The ids naming the person's data: their contact, conversations and widget sessions. */
export interface ErasedIds {
  contactId: string;
  conversationIds: readonly string[];
  sessionIds: readonly string[];
}

const needlesOf = ({ contactId, conversationIds, sessionIds }: ErasedIds) => [contactId, ...conversationIds, ...sessionIds];

/** `column` mentions any of the ids. */
const mentionsAny = (column: string, ids: readonly string[]) =>
  sql<boolean>`(${sql.join(ids.map((id) => sql`${sql.ref(column)} like ${`%${id}%`}`), sql` or `)})`;

/** Ids a statement looks for at once: SQLite refuses an expression deeper than 1,000 terms. */
const IDS_PER_SCAN = 100;
const scansOf = (ids: readonly string[]) => Array.from({ length: Math.ceil(ids.length / IDS_PER_SCAN) }, (_, i) => ids.slice(i * IDS_PER_SCAN, (i + 1) * IDS_PER_SCAN));

export interface ContactUpvoteRow {
  conversation_id: string;
  title: string;
  created_at: string;
}

export function erasureRepository(db: Executor) {
  return {
    /** The ideas the contact upvoted (each once per voter), oldest upvote first. */
    async upvotesOf(workspaceId: string, contactId: string, tx: Executor = db): Promise<(ContactUpvoteRow & { votes: number })[]> {
      const rows = await tx.selectFrom('idea_upvotes as u').innerJoin('conversations as c', 'c.id', 'u.conversation_id')
        .select(['u.conversation_id', 'c.title', (eb) => eb.fn.min<string>('u.created_at').as('created_at'), (eb) => eb.fn.countAll<number>().as('votes')])
        .where('u.workspace_id', '=', workspaceId).where('u.contact_id', '=', contactId)
        .groupBy(['u.conversation_id', 'c.title'])
        .orderBy('created_at').execute();
      return rows.map((row) => ({ ...row, votes: Number(row.votes) }));
    },

    async sessionsOf(workspaceId: string, contactId: string, tx: Executor = db) {
      return tx.selectFrom('widget_sessions').select(['id', 'product_id', 'verified', 'created_at', 'last_used_at'])
        .where('workspace_id', '=', workspaceId).where('contact_id', '=', contactId).orderBy('created_at').orderBy('id').execute();
    },

    /** Copies of the person's data kept beside the records: events (their deliveries cascade), stored answers, jobs, drafts. */
    async deleteCopies(workspaceId: string, ids: ErasedIds, tx: Executor): Promise<void> {
      const needles = needlesOf(ids);
      for (const scan of scansOf(needles)) await tx.deleteFrom('events').where('workspace_id', '=', workspaceId).where(mentionsAny('payload', scan)).execute();
      if (ids.sessionIds.length) {
        await tx.deleteFrom('idempotency_records').where('workspace_id', '=', workspaceId)
          .where('credential_kind', '=', 'widget_session').where('credential_id', 'in', ids.sessionIds).execute();
      }
      // The answer to the team's reply or note (it addresses the person) names only the message.
      const teamMessages = ids.conversationIds.length === 0 ? [] : await tx.selectFrom('messages').select('id')
        .where('workspace_id', '=', workspaceId).where('conversation_id', 'in', ids.conversationIds).where('sender_type', '=', 'agent').execute();
      for (const scan of scansOf([...needles, ...teamMessages.map(({ id }) => id)])) {
        await tx.deleteFrom('idempotency_records').where('workspace_id', '=', workspaceId)
          .where('response_body', 'is not', null).where(mentionsAny('response_body', scan)).execute();
      }
      await tx.deleteFrom('announcement_jobs').where('workspace_id', '=', workspaceId).where('kind', '=', 'email').where('target_id', '=', ids.contactId).execute();
      if (ids.conversationIds.length) {
        await tx.deleteFrom('conversation_jobs').where('workspace_id', '=', workspaceId).where('conversation_id', 'in', ids.conversationIds).execute();
        await tx.deleteFrom('suggestions').where('workspace_id', '=', workspaceId).where('conversation_id', 'in', ids.conversationIds).execute();
      }
    },

    /** The contact with their upvotes and widget sessions (their conversations were detached first). */
    async deleteContact(workspaceId: string, contactId: string, tx: Executor): Promise<void> {
      await tx.deleteFrom('idea_upvotes').where('workspace_id', '=', workspaceId).where('contact_id', '=', contactId).execute();
      await tx.deleteFrom('widget_sessions').where('workspace_id', '=', workspaceId).where('contact_id', '=', contactId).execute();
      await tx.deleteFrom('contacts').where('workspace_id', '=', workspaceId).where('id', '=', contactId).execute();
    },
  };
}

export type ErasureRepository = ReturnType<typeof erasureRepository>;
