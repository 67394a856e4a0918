// The rule runs events ask for (migration 0037): one job per event, created when the event is fanned
// out, claimed with a lease by any process (FOR UPDATE SKIP LOCKED on PostgreSQL), deleted by the
// transaction that runs its rules while the lease holds (or at once when none of them holds).
// `rules_done` is only read: a job's rules now run in one transaction (a job an older version left
// part-run resumes after the rules it recorded).
import type { Dialect } from '../../dialect.js';
import type { Executor } from '../executor.js';
import { claimDueJobs } from '../job-claims.js';
import type { AutomationJobTable } from '../../schema.js';

export type AutomationJobRow = AutomationJobTable;

const CLAIMED_COLUMNS = ['id', 'workspace_id', 'conversation_id', 'event_type', 'rule_ids', 'rules_done', 'attempts'] as const;

/** A claimed job: what running it needs, and the lease (`next_attempt_at`) its writes are made under. */
export type ClaimedAutomationJob = Pick<AutomationJobTable, (typeof CLAIMED_COLUMNS)[number]> & { next_attempt_at: string };

type Lease = Pick<ClaimedAutomationJob, 'id' | 'next_attempt_at'>;

/** What a failed run changes. */
export type AutomationJobOutcome = Pick<AutomationJobTable, 'status' | 'attempts' | 'last_error' | 'next_attempt_at' | 'updated_at'>;

export function automationJobRepository(db: Executor, dialect: Pick<Dialect, 'forUpdateSkipLocked'>) {
  const leased = (tx: Executor, job: Lease) =>
    tx.updateTable('automation_jobs').where('id', '=', job.id).where('status', '=', 'pending').where('next_attempt_at', '=', job.next_attempt_at);

  return {
    /** One row per event; an event already planned (the same id) is left as it is. */
    async insertMany(rows: readonly AutomationJobRow[], tx: Executor): Promise<void> {
      if (rows.length === 0) return;
      await tx.insertInto('automation_jobs').values([...rows]).onConflict((conflict) => conflict.column('id').doNothing()).execute();
    },

    /** Which of these conversations have a job waiting to run (or running). */
    async pendingFor(conversationIds: readonly string[], tx: Executor): Promise<Set<string>> {
      if (conversationIds.length === 0) return new Set();
      const rows = await tx.selectFrom('automation_jobs').select('conversation_id')
        .where('kind', '=', 'rules').where('status', '=', 'pending').where('conversation_id', 'in', conversationIds)
        .execute();
      return new Set(rows.map((row) => row.conversation_id));
    },

    claimDue: (now: string, leaseUntil: string, limit: number, tx: Executor): Promise<ClaimedAutomationJob[]> =>
      claimDueJobs<ClaimedAutomationJob>(dialect, tx, 'automation_jobs', CLAIMED_COLUMNS, { kind: 'rules', now, leaseUntil, limit }),

    /**
     * Deletes the jobs whose lease still holds (the jobs of one claim share it: one statement); the
     * ids it deleted. Those none of whose rules held go at once; for the others it is the first
     * statement of the transaction that runs their rules: the rows stay locked until the rules'
     * effects commit with their deletion, so the rules run once per event however many processes
     * share the queue (one whose lease ran out and was claimed again deletes nothing and runs nothing).
     */
    async finish(jobs: readonly Lease[], tx: Executor = db): Promise<Set<string>> {
      const deleted = new Set<string>();
      for (const lease of new Set(jobs.map((job) => job.next_attempt_at))) {
        const ids = jobs.filter((job) => job.next_attempt_at === lease).map((job) => job.id);
        const rows = await tx.deleteFrom('automation_jobs').where('id', 'in', ids).where('status', '=', 'pending').where('next_attempt_at', '=', lease)
          .returning('id').execute();
        for (const row of rows) deleted.add(row.id);
      }
      return deleted;
    },

    /** Records a failed run while the lease holds. */
    async recordFailure(job: Lease, outcome: AutomationJobOutcome, tx: Executor = db): Promise<void> {
      await leased(tx, job).set(outcome).execute();
    },
  };
}

export type AutomationJobRepository = ReturnType<typeof automationJobRepository>;
