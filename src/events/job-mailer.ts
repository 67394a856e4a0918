// The cycle every kind of queued mail runs in (agents' replies, members' notifications): claim the
// due jobs for the free slots with a lease (the SMTP timeout and a margin), send each after the
// claim commits, record the outcome while the lease holds (done once the SMTP server accepts;
// failures retried on the webhook schedule, then failed; a refused recipient fails at once).
import type { Db } from '../db/database.js';
import type { Executor } from '../db/repositories/executor.js';
import type { Clock } from '../lib/clock.js';
import { settledWithin } from '../lib/settle.js';
import type { Mailer, SendResult } from './mailer.js';
import { retryOutcome, type JobRetry } from './retry-schedule.js';

/** Mails in flight at once in one process (one SMTP connection each). */
const MAIL_CONCURRENCY = 4;
/** How much longer than the SMTP timeout a claim's lease lasts: time to record the outcome. */
const LEASE_MARGIN_MS = 5_000;

const iso = (ms: number) => new Date(ms).toISOString();

export type MailOutcome = JobRetry | { status: 'done'; attempts: number; last_error: null; next_attempt_at: null; updated_at: string };

/** What every kind of queued mail is sent with. */
export interface MailCycleDeps {
  db: Db;
  /** null: no SMTP configured; nothing is claimed. */
  mailer: Mailer | null;
  mailTimeoutMs: number;
  retryScheduleMs: readonly number[];
  clock: Clock;
  onError: (error: unknown) => void;
  random?: () => number;
}

export interface JobMailerDeps<Job extends { attempts: number }> extends MailCycleDeps {
  claim(now: string, leaseUntil: string, limit: number, tx: Executor): Promise<Job[]>;
  /** Composes and sends the job's mail with `mailer`; what the SMTP server said. */
  send(job: Job, mailer: Mailer): Promise<SendResult>;
  record(job: Job, outcome: MailOutcome): Promise<unknown>;
}

export function createJobMailer<Job extends { attempts: number }>(deps: JobMailerDeps<Job>) {
  const { db, mailer, mailTimeoutMs, retryScheduleMs, clock, onError, random } = deps;
  const inFlight = new Set<Promise<void>>();
  let stopping = false;

  async function send(job: Job, to: Mailer): Promise<void> {
    const attempts = job.attempts + 1;
    const result = await deps.send(job, to);
    const outcome: MailOutcome = result.ok
      ? { status: 'done', attempts, last_error: null, next_attempt_at: null, updated_at: clock.now() }
      : retryOutcome(attempts, result.error ?? 'not sent', result.permanent || attempts > retryScheduleMs.length, Date.parse(clock.now()), retryScheduleMs, random);
    await deps.record(job, outcome);
  }

  return {
    /** Claims due jobs for the free slots and starts sending them. */
    async run(): Promise<void> {
      const free = MAIL_CONCURRENCY - inFlight.size;
      if (!mailer || stopping || free <= 0) return;
      const nowMs = Date.parse(clock.now());
      const jobs = await deps.claim(iso(nowMs), iso(nowMs + mailTimeoutMs + LEASE_MARGIN_MS), free, db);
      for (const job of jobs) {
        const sending: Promise<void> = send(job, mailer)
          .catch(onError)
          .finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
    },

    /** Stops claiming and lets mails in flight finish for up to `graceMs`; one still sending keeps its lease. */
    async stop(graceMs: number): Promise<void> {
      stopping = true;
      await settledWithin(inFlight, graceMs);
      mailer?.close();
    },
  };
}

export type JobMailer = ReturnType<typeof createJobMailer>;
