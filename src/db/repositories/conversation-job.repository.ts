// Conversation jobs (migration 0016): asked for by contact messages, claimed with a lease by the
// job runner of any process (FOR UPDATE SKIP LOCKED on PostgreSQL, so processes sharing the
// database never claim the same job), deleted with their effect.
import type { Dialect } from '../dialect.js';
import type { Executor } from './executor.js';
import { compileOnce } from './compiled-query.js';
import { claimDueJobs } from './job-claims.js';
import type { ConversationJobTable } from '../schema.js';

export type ConversationJobRow = ConversationJobTable;
export type ConversationJobKind = ConversationJobTable['kind'];

/** A claimed job: what running it needs, and the lease its outcome is written under. */
export type ClaimedConversationJob = Pick<ConversationJobTable, 'id' | 'workspace_id' | 'conversation_id' | 'kind' | 'attempts' | 'requested_at'> & {
  next_attempt_at: string;
};

const CLAIMED_COLUMNS = ['id', 'workspace_id', 'conversation_id', 'kind', 'attempts', 'requested_at'] as const;

/**
 * A claim's lease: the due time it set and the request it ran for. A later request may set the
 * same due time to the millisecond, but never with the same request time as well.
 */
type Lease = Pick<ClaimedConversationJob, 'id' | 'next_attempt_at' | 'requested_at'>;

/** What a failed run changes. */
export type ConversationJobOutcome = Pick<ConversationJobTable, 'status' | 'attempts' | 'last_error' | 'next_attempt_at' | 'updated_at'>;

const JOB_COLUMNS = [
  'id', 'workspace_id', 'conversation_id', 'kind', 'status', 'attempts', 'last_error', 'requested_at', 'next_attempt_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof ConversationJobRow)[];

export function conversationJobRepository(db: Executor, dialect: Pick<Dialect, 'forUpdateSkipLocked'>) {
  // Every message asks for a job or two: the statement is compiled once.
  const upsert = compileOnce(JOB_COLUMNS, (row: ConversationJobRow) =>
    db
      .insertInto('conversation_jobs')
      .values(row)
      .onConflict((conflict) => conflict.columns(['conversation_id', 'kind']).doUpdateSet((eb) => ({
        status: eb.ref('excluded.status'),
        attempts: eb.ref('excluded.attempts'),
        last_error: eb.ref('excluded.last_error'),
        requested_at: eb.ref('excluded.requested_at'),
        next_attempt_at: eb.ref('excluded.next_attempt_at'),
        updated_at: eb.ref('excluded.updated_at'),
      }))));

  return {
    /**
     * Asks for the job: inserts it, or sets the existing row of its (conversation, kind) pending
     * again, due at the new time, attempts cleared. A run holding the old lease then finds it
     * gone and writes nothing: the new run sees everything the old one would have.
     */
    async request(row: ConversationJobRow, tx: Executor): Promise<void> {
      await upsert(tx, row);
    },

    /**
     * Claims up to `limit` pending jobs of `kind` due at `now`, pushing each one's due time to
     * `leaseUntil`: until then no other claim sees it, and if this process dies the job falls due
     * again by itself.
     */
    async claimDue(kind: ConversationJobKind, now: string, leaseUntil: string, limit: number, tx: Executor): Promise<ClaimedConversationJob[]> {
      return claimDueJobs<ClaimedConversationJob>(dialect, tx, 'conversation_jobs', CLAIMED_COLUMNS, { kind, now, leaseUntil, limit });
    },

    /**
     * Deletes a job whose claim's lease still holds (no later message asked for it again, no other
     * process claimed it since); whether it did. Called in the transaction of the job's effect, a
     * job is finished exactly when its effect is committed.
     */
    async finish(job: Lease, tx: Executor): Promise<boolean> {
      const result = await tx
        .deleteFrom('conversation_jobs')
        .where('id', '=', job.id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '=', job.next_attempt_at)
        .where('requested_at', '=', job.requested_at)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Records a failed run while the claim's lease still holds; whether it was recorded. */
    async recordFailure(job: Lease, outcome: ConversationJobOutcome, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .updateTable('conversation_jobs')
        .set(outcome)
        .where('id', '=', job.id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '=', job.next_attempt_at)
        .where('requested_at', '=', job.requested_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type ConversationJobRepository = ReturnType<typeof conversationJobRepository>;
