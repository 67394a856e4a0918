// Asks for background work on a conversation in the transaction of the write that calls for it
// (docs/triage.md, "The queue"): its summary, after each message of its contact, and its triage,
// after the contact's first; its wake, when it is snoozed (docs/inbox.md, "Snooze"). The job
// is due a kind's delay after the request (a wake: at the snooze's end); a later request pushes a
// waiting job back (the summary's debounce, a new snooze) and supersedes a running one.
import type { Dialect } from '../../db/dialect.js';
import type { ClaimedConversationJob, ConversationJobKind, ConversationJobRepository } from '../../db/repositories/conversation-job.repository.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { holdLock, type Work } from '../shared/unit-of-work.js';
import { conversationLock } from './conversation.writes.js';

export interface ConversationJobQueueDeps {
  jobs: Pick<ConversationJobRepository, 'request' | 'finish'>;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  clock: Clock;
  /** How long after its request each kind of job is due (a wake is due when its request says). */
  delays: Record<DelayedJobKind, number>;
}

/** The kinds of job due a fixed delay after their request. */
export type DelayedJobKind = Exclude<ConversationJobKind, 'wake'>;

/** The write that asks: its conversation and when it happened. */
export interface JobRequest {
  workspace_id: string;
  conversation_id: string;
  created_at: string;
}

export function createConversationJobQueue({ jobs, dialect, clock, delays }: ConversationJobQueueDeps) {
  /** Asks for the job of `kind`, due at `dueAt`. */
  async function requestAt(work: Work, kind: ConversationJobKind, by: JobRequest, dueAt: string): Promise<void> {
    // Taken first by every transaction that writes a conversation's job (the write asking
    // for it, the run committing it), so on PostgreSQL they queue in one order, never deadlock.
    await holdLock(dialect, work, conversationLock(by.conversation_id));
    const now = clock.now();
    await jobs.request({
      id: newId(), workspace_id: by.workspace_id, conversation_id: by.conversation_id, kind, status: 'pending', attempts: 0, last_error: null,
      requested_at: by.created_at, next_attempt_at: dueAt, created_at: now, updated_at: now,
    }, work.tx);
  }

  return {
    /** Asks for the job of `kind`, due its kind's delay from now. */
    async request(work: Work, kind: DelayedJobKind, by: JobRequest): Promise<void> {
      await requestAt(work, kind, by, new Date(Date.parse(clock.now()) + delays[kind]).toISOString());
    },

    requestAt,

    /**
     * Ends a claimed job in the transaction of its effect, under the same lock as `request`; false
     * when its lease is gone (asked for again, or claimed by another process): the run then writes nothing.
     */
    async finish(work: Work, job: ClaimedConversationJob): Promise<boolean> {
      await holdLock(dialect, work, conversationLock(job.conversation_id));
      return jobs.finish(job, work.tx);
    },
  };
}

export type ConversationJobQueue = ReturnType<typeof createConversationJobQueue>;
