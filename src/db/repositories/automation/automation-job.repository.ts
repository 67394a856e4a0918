// The rule runs events ask for (migration 0037): one job per event, created when the event is fanned
// out, claimed with a lease by any process (FOR UPDATE SKIP LOCKED on PostgreSQL), advanced by each
// rule's transaction while the lease holds, deleted once its last rule has run.
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

    claimDue: (now: string, leaseUntil: string, limit: number, tx: Executor): Promise<ClaimedAutomationJob[]> =>
      claimDueJobs<ClaimedAutomationJob>(dialect, tx, 'automation_jobs', CLAIMED_COLUMNS, { kind: 'rules', now, leaseUntil, limit }),

    /**
     * Marks the rules up to number `to` (exclusive, 0-based) as run, from `from` (what this claim
     * recorded last: the rules between were found not to hold), while the claim's lease holds and
     * no one advanced it since; whether it did. The first statement of a rule's transaction: it
     * locks the job's row until the rule's effects commit with it, so a rule is run once per
     * event, however many processes share the queue.
     */
    async advance(job: Lease, from: number, to: number, at: string, tx: Executor): Promise<boolean> {
      const result = await leased(tx, job).set({ rules_done: to, updated_at: at }).where('rules_done', '=', from).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Deletes a job whose lease still holds: every rule has run. */
    async finish(job: Lease, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('automation_jobs').where('id', '=', job.id).where('next_attempt_at', '=', job.next_attempt_at).execute();
    },

    /** Records a failed run while the lease holds. */
    async recordFailure(job: Lease, outcome: AutomationJobOutcome, tx: Executor = db): Promise<void> {
      await leased(tx, job).set(outcome).execute();
    },
  };
}

export type AutomationJobRepository = ReturnType<typeof automationJobRepository>;
