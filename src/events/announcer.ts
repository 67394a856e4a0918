// Runs the release announcement jobs (migration 0007) from the dispatcher's cycle. Jobs come into
// being in the transaction that fans a release.published event out (`plan`). Message jobs are
// claimed with a lease and each posted in the transaction that marks it done: exactly once.
// Email jobs are claimed with a lease (the SMTP timeout + a margin), sent after the claim commits,
// and marked sent right after the SMTP server accepts: a process that dies in between (kill -9)
// leaves the job to fall due again when its lease runs out, so an email is sent twice only if the
// process dies in the instant between the server's acceptance and that one-row update.
import type { AnnouncementJobRepository, AnnouncementKind, ClaimedJob, JobOutcome } from '../db/repositories/announcement-job.repository.js';
import type { Executor } from '../db/repositories/executor.js';
import type { FanOutEventRow } from '../db/repositories/webhook-delivery.repository.js';
import type { AnnouncementService, EmailContent } from '../domain/releases/announcement.service.js';
import { settledWithin } from '../lib/settle.js';
import { retryOutcome } from './retry-schedule.js';
import type { MailCycleDeps } from './job-mailer.js';
import type { SendResult } from './mailer.js';

/** Message jobs claimed per transaction. */
const MESSAGE_BATCH = 100;
/** A message job's lease: its own short transaction, with room to spare. */
const MESSAGE_LEASE_MS = 30_000;
/** Emails in flight at once in one process (one SMTP connection each). */
export const MAIL_CONCURRENCY = 4;
/** How much longer than the SMTP timeout an email's lease lasts: time to record the outcome. */
const LEASE_MARGIN_MS = 5_000;

const iso = (ms: number) => new Date(ms).toISOString();
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** What every kind of queued mail is sent with (without SMTP no email jobs are created), and the announcements. */
export interface AnnouncerDeps extends MailCycleDeps {
  announcementJobs: AnnouncementJobRepository;
  announcements: AnnouncementService;
}

export function createAnnouncer({ db, announcementJobs, announcements, mailer, mailTimeoutMs, retryScheduleMs, clock, onError, random }: AnnouncerDeps) {
  const inFlight = new Set<Promise<void>>();
  let stopping = false;

  /** Writes a failed run's outcome while the claim's lease holds. */
  async function recordFailure(job: ClaimedJob, error: string, permanent: boolean): Promise<void> {
    const outcome = retryOutcome(job.attempts + 1, error, permanent, Date.parse(clock.now()), retryScheduleMs, random);
    await announcementJobs.recordOutcome(job.id, job.next_attempt_at, outcome);
  }

  /** Claims due jobs of a kind with a lease (one statement, committed at once). */
  function claim(kind: AnnouncementKind, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const nowMs = Date.parse(clock.now());
    return announcementJobs.claimDue(kind, iso(nowMs), iso(nowMs + leaseMs), limit, db);
  }

  /** Posts the due system messages, each in the transaction that marks its job done. */
  async function postMessages(): Promise<void> {
    for (;;) {
      const jobs = await claim('message', MESSAGE_BATCH, MESSAGE_LEASE_MS);
      for (const job of jobs) {
        try {
          await announcements.post(job);
        } catch (error) {
          await recordFailure(job, errorText(error), false);
        }
      }
      if (jobs.length < MESSAGE_BATCH || stopping) return;
    }
  }

  async function send(job: ClaimedJob): Promise<void> {
    const result: SendResult = await mailer!.send(JSON.parse(job.content) as EmailContent);
    if (!result.ok) {
      await recordFailure(job, result.error ?? 'not sent', result.permanent);
      return;
    }
    const sent: JobOutcome = { status: 'done', attempts: job.attempts + 1, last_error: null, next_attempt_at: null, updated_at: clock.now() };
    await announcementJobs.recordOutcome(job.id, job.next_attempt_at, sent);
  }

  /** Claims due emails for the free slots and starts sending them. */
  async function sendEmails(): Promise<void> {
    const free = MAIL_CONCURRENCY - inFlight.size;
    if (!mailer || free <= 0) return;
    for (const job of await claim('email', free, mailTimeoutMs + LEASE_MARGIN_MS)) {
      const sending: Promise<void> = send(job)
        .catch(onError)
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    }
  }

  return {
    /** In the fan-out's transaction: the jobs of the release.published events among `events`; whether there were any. */
    async plan(events: readonly FanOutEventRow[], tx: Executor): Promise<boolean> {
      const published = events.filter((event) => event.type === 'release.published').map((event) => event.id);
      if (published.length > 0) await announcements.plan(published, mailer !== null, tx);
      return published.length > 0;
    },

    /** One cycle's work: the due messages, then the due emails (sent in the background). */
    async run(): Promise<void> {
      if (stopping) return;
      await postMessages();
      await sendEmails();
    },

    /**
     * Stops claiming and lets emails in flight finish for up to `graceMs`. One still sending then
     * keeps its lease: it falls due again when the lease runs out (it may have been accepted, in
     * which case it is sent twice; handing it back at once would not change that).
     */
    async stop(graceMs: number): Promise<void> {
      stopping = true;
      await settledWithin(inFlight, graceMs);
      mailer?.close();
    },

    /** Emails being sent now (for tests and diagnostics). */
    get inFlight(): number {
      return inFlight.size;
    },
  };
}

export type Announcer = ReturnType<typeof createAnnouncer>;
