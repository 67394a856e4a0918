// Release announcement jobs (migration 0007) and what creating them reads: the published
// releases among the events being fanned out, and the conversations linked to their issues with
// their contacts. Claims lock their rows with the dialect's FOR UPDATE SKIP LOCKED (PostgreSQL),
// so processes sharing the database never claim the same job.
import type { Dialect } from '../dialect.js';
import type { Executor } from './executor.js';
import { claimDueJobs } from './job-claims.js';
import type { AnnouncementJobTable } from '../schema.js';

export type AnnouncementJobRow = AnnouncementJobTable;
export type AnnouncementKind = AnnouncementJobTable['kind'];

/** A claimed job: what running it needs, and the lease its outcome is written under. */
export type ClaimedJob = Pick<AnnouncementJobTable, 'id' | 'workspace_id' | 'release_id' | 'target_id' | 'content' | 'attempts'> & {
  next_attempt_at: string;
};

const CLAIMED_COLUMNS = ['id', 'workspace_id', 'release_id', 'target_id', 'content', 'attempts'] as const;

/** What a job's run changes. */
export type JobOutcome = Pick<AnnouncementJobTable, 'status' | 'attempts' | 'last_error' | 'next_attempt_at' | 'updated_at'>;

/** A conversation linked to one of the release's issues, with its contact. */
export interface LinkedConversationRow {
  issue_id: string;
  conversation_id: string;
  contact_id: string | null;
  contact_name: string | null;
  contact_email: string | null;
}

// SQLite accepts at most 32,766 parameters a statement; 11 columns a row.
const INSERT_CHUNK = 1000;

export function announcementJobRepository(db: Executor, dialect: Pick<Dialect, 'forUpdateSkipLocked'>) {
  return {
    /** The payloads (`{ type, timestamp, data }`) of the release.published events among `eventIds`. */
    async publishedPayloads(eventIds: readonly string[], tx: Executor): Promise<string[]> {
      if (eventIds.length === 0) return [];
      const rows = await tx
        .selectFrom('events')
        .select('payload')
        .where('id', 'in', eventIds)
        .where('type', '=', 'release.published')
        .orderBy('created_at', 'asc')
        .execute();
      return rows.map((row) => row.payload);
    },

    /** The workspace's conversations linked to any of the issues, oldest first, with their contacts. */
    async conversationsLinkedTo(workspaceId: string, issueIds: readonly string[], tx: Executor): Promise<LinkedConversationRow[]> {
      if (issueIds.length === 0) return [];
      return tx
        .selectFrom('issue_conversations as link')
        .innerJoin('conversations as c', (join) => join.onRef('c.id', '=', 'link.conversation_id').onRef('c.workspace_id', '=', 'link.workspace_id'))
        .leftJoin('contacts as ct', (join) => join.onRef('ct.id', '=', 'c.contact_id').onRef('ct.workspace_id', '=', 'c.workspace_id'))
        .select(['link.issue_id', 'c.id as conversation_id', 'c.contact_id', 'ct.name as contact_name', 'ct.email as contact_email'])
        .where('link.workspace_id', '=', workspaceId)
        .where('link.issue_id', 'in', issueIds)
        .orderBy('c.created_at', 'asc')
        .orderBy('c.id', 'asc')
        .execute();
    },

    /** Inserts jobs; one that exists already for its (release, kind, target) is left as it is. */
    async insertMany(rows: readonly AnnouncementJobRow[], tx: Executor): Promise<void> {
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        await tx
          .insertInto('announcement_jobs')
          .values(rows.slice(start, start + INSERT_CHUNK))
          .onConflict((conflict) => conflict.columns(['release_id', 'kind', 'target_id']).doNothing())
          .execute();
      }
    },

    /**
     * Claims up to `limit` pending jobs of `kind` due at `now`, pushing each one's due time to
     * `leaseUntil`: until then no other claim sees it, and if this process dies the job falls due
     * again by itself.
     */
    async claimDue(kind: AnnouncementKind, now: string, leaseUntil: string, limit: number, tx: Executor): Promise<ClaimedJob[]> {
      return claimDueJobs<ClaimedJob>(dialect, tx, 'announcement_jobs', CLAIMED_COLUMNS, { kind, now, leaseUntil, limit });
    },

    /**
     * Records a run's outcome while the claim's lease still holds (nobody claimed the job again);
     * whether it was recorded. Called in the transaction of the job's effect, a job is done exactly
     * when its effect is committed.
     */
    async recordOutcome(id: string, lease: string, outcome: JobOutcome, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .updateTable('announcement_jobs')
        .set(outcome)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '=', lease)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type AnnouncementJobRepository = ReturnType<typeof announcementJobRepository>;
