// Runs the conversation jobs (migration 0016) from the dispatcher's cycle, as the announcer runs
// the release announcements: due jobs are claimed with a lease in a short transaction of their
// own, run in the background (a few at once per process), and each commits its effect in the
// transaction that deletes it. A run whose lease is gone (a newer message asked again, or it
// outlived its lease and another process claimed the job) writes nothing. A run that throws is
// retried on a short schedule, then left `failed` (a wake is retried until it runs); a process that
// dies mid-run leaves the job to fall due again when its lease runs out.
import type { Db } from '../db/database.js';
import type { ClaimedConversationJob, ConversationJobKind, ConversationJobRepository } from '../db/repositories/conversation-job.repository.js';
import type { Clock } from '../lib/clock.js';
import { settledWithin } from '../lib/settle.js';
import { retryOutcome } from './retry-schedule.js';

/** Waits before the retries of a job that threw; after the last, it is left `failed`. */
export const JOB_RETRY_SCHEDULE_MS = Object.freeze([1_000, 5_000, 30_000]);
/** Jobs run at once in one process, all kinds together. */
export const JOB_CONCURRENCY = 4;

export interface ConversationJobHandler {
  /** Does the job and, in the transaction of its effect, `finish`es it. */
  run(job: ClaimedConversationJob): Promise<void>;
  /** How long a run may take at most: its claim's lease. */
  leaseMs: number;
  /**
   * Never left `failed`: after the schedule, retried at its last wait until it runs (a wake, which
   * nothing else would ask for again). Otherwise a job is given up after the schedule.
   */
  retriesUntilDone?: boolean;
}

export interface ConversationJobRunnerDeps {
  db: Db;
  jobs: Pick<ConversationJobRepository, 'claimDue' | 'recordFailure'>;
  handlers: Record<ConversationJobKind, ConversationJobHandler>;
  clock: Clock;
  onError: (error: unknown) => void;
  random?: () => number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

export function createConversationJobRunner({ db, jobs, handlers, clock, onError, random }: ConversationJobRunnerDeps) {
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let claiming: Promise<void> | null = null;
  /** The last claim took every free slot: more jobs may be due, claimed as soon as a slot frees. */
  let backlog = false;
  /** A claim is planned for the event loop's next turn. */
  let claimPlanned = false;

  // A burst of messages is worked through at the jobs' pace, not one claim per poll: the next
  // claim comes after the event loop's turn, since SQLite's statements never leave the microtask
  // queue and a backlog would otherwise keep requests waiting until it is done. One claim a turn,
  // for every slot freed meanwhile: one per finished job would multiply, as on SQLite a job runs to
  // its end within the turn it starts in, so each turn would run four times the jobs of the last.
  function claimNextTurn(): void {
    if (claimPlanned) return;
    claimPlanned = true;
    setImmediate(() => {
      claimPlanned = false;
      if (!stopping) run().catch(onError);
    });
  }

  async function runOne(job: ClaimedConversationJob): Promise<void> {
    try {
      await handlers[job.kind].run(job);
    } catch (error) {
      const attempts = job.attempts + 1;
      const giveUp = !handlers[job.kind].retriesUntilDone && attempts > JOB_RETRY_SCHEDULE_MS.length;
      await jobs.recordFailure(job, retryOutcome(attempts, errorText(error), giveUp, Date.parse(clock.now()), JOB_RETRY_SCHEDULE_MS, random));
    }
  }

  /** Claims due jobs of each kind for the free slots, each claim a short transaction, and starts them. */
  async function claimAndStart(): Promise<void> {
    backlog = false;
    for (const [kind, handler] of Object.entries(handlers) as [ConversationJobKind, ConversationJobHandler][]) {
      const free = JOB_CONCURRENCY - inFlight.size;
      if (stopping || free <= 0) return;
      const nowMs = Date.parse(clock.now());
      const claimed = await jobs.claimDue(kind, iso(nowMs), iso(nowMs + handler.leaseMs), free, db);
      if (claimed.length === free) backlog = true;
      for (const job of claimed) {
        const running: Promise<void> = runOne(job)
          .catch(onError)
          .finally(() => {
            inFlight.delete(running);
            if (backlog && !stopping) claimNextTurn();
          });
        inFlight.add(running);
      }
    }
  }

  /** Claims and starts due jobs; a call while a claim runs joins it. */
  function run(): Promise<void> {
    claiming ??= claimAndStart().finally(() => {
      claiming = null;
    });
    return claiming;
  }

  return {
    /** One cycle's work: claims due jobs for the free slots and starts them. */
    run,

    /**
     * Stops claiming and lets runs in flight finish for up to `graceMs`. One still running then
     * keeps its lease: if the process exits before it commits, the job falls due again when the
     * lease runs out.
     */
    async stop(graceMs: number): Promise<void> {
      stopping = true;
      await settledWithin(inFlight, graceMs);
    },

    /** Jobs running now (for tests and diagnostics). */
    get inFlight(): number {
      return inFlight.size;
    },
  };
}

export type ConversationJobRunner = ReturnType<typeof createConversationJobRunner>;
