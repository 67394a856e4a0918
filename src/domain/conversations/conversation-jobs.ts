// Asks for background work on a conversation in the transaction of the write that calls for it
// (docs/triage.md, "The queue"): today its summary, after each message of its contact. The job
// is due a kind's delay after the request; a later request pushes a waiting job back (the
// summary's debounce) and supersedes a running one.
import type { Dialect } from '../../db/dialect.js';
import type { ConversationJobKind, ConversationJobRepository } from '../../db/repositories/conversation-job.repository.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Work } from '../shared/unit-of-work.js';

export interface ConversationJobQueueDeps {
  jobs: Pick<ConversationJobRepository, 'request'>;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  clock: Clock;
  /** How long after its request each kind of job is due. */
  delays: Record<ConversationJobKind, number>;
}

/** The write that asks: its conversation and when it happened. */
export interface JobRequest {
  workspace_id: string;
  conversation_id: string;
  created_at: string;
}

export function createConversationJobQueue({ jobs, dialect, clock, delays }: ConversationJobQueueDeps) {
  return {
    async request(work: Work, kind: ConversationJobKind, by: JobRequest): Promise<void> {
      // Taken first by every transaction that writes a conversation's job (the write asking
      // for it, the run committing it), so on PostgreSQL they queue in one order, never deadlock.
      await dialect.lockKeyInTransaction(work.tx, `conversation:${by.conversation_id}`);
      const now = clock.now();
      await jobs.request({
        id: newId(), workspace_id: by.workspace_id, conversation_id: by.conversation_id, kind, status: 'pending', attempts: 0, last_error: null,
        requested_at: by.created_at, next_attempt_at: new Date(Date.parse(now) + delays[kind]).toISOString(), created_at: now, updated_at: now,
      }, work.tx);
    },
  };
}

export type ConversationJobQueue = ReturnType<typeof createConversationJobQueue>;
