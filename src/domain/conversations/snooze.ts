// Snooze (docs/inbox.md, "Snooze"): a conversation set aside until an instant. It wakes
// (snoozed_until null, one conversation.updated) when that instant comes, by a conversation job of
// kind `wake` due then, or when its contact writes, whichever is first. Only a conversation still
// to be dealt with sleeps: snoozing a resolved or dismissed one is refused, and resolving or
// dismissing one ends its snooze (there is nothing left to come back to).
import type { Db } from '../../db/database.js';
import type { ClaimedConversationJob } from '../../db/repositories/conversation-job.repository.js';
import type { ConversationChanges, ConversationRepository, ConversationWithContactRow } from '../../db/repositories/conversation.repository.js';
import { invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { ConversationStatus } from '../shared/enums.js';
import { canonicalInstant } from '../shared/instants.js';
import { inTransaction } from '../shared/unit-of-work.js';
import type { ConversationJobQueue } from './conversation-jobs.js';
import type { ConversationWrites } from './conversation.writes.js';

/** The statuses of a conversation that has been dealt with: it has no snooze. */
const CLOSED: readonly string[] = ['resolved', 'dismissed'] satisfies ConversationStatus[];

/** A PATCH's snoozed_until, canonical: null wakes the conversation, an instant must be later than `now`. */
export function snoozeOf(value: string | null, now: string): string | null {
  if (value === null) return null;
  const until = canonicalInstant('snoozed_until', value);
  if (Date.parse(until) <= Date.parse(now)) throw invalidField('snoozed_until', `must be in the future (it is ${now} now)`);
  return until;
}

/** Refuses a snooze of a conversation that is, or the same request makes it, resolved or dismissed. */
export function checkSnoozable(status: string, snoozedUntil: string | null | undefined): void {
  if (snoozedUntil && CLOSED.includes(status)) {
    throw invalidField('snoozed_until', `a ${status} conversation cannot be snoozed; reopen it (status open or in_progress), in the same request if you like`);
  }
}

/** The changes as written: resolving or dismissing a snoozed conversation ends its snooze too. */
export function withSnoozeRule(current: Pick<ConversationWithContactRow, 'snoozed_until'>, changes: ConversationChanges): ConversationChanges {
  const closing = changes.status !== undefined && CLOSED.includes(changes.status);
  return closing && current.snoozed_until !== null && changes.snoozed_until === undefined ? { ...changes, snoozed_until: null } : changes;
}

export interface WakeJobDeps {
  db: Db;
  conversations: Pick<ConversationRepository, 'findById'>;
  jobs: Pick<ConversationJobQueue, 'finish'>;
  writes: Pick<ConversationWrites, 'update'>;
  clock: Clock;
}

/**
 * The wake job: in the transaction that ends it, under the conversation's lock, wakes a
 * conversation still snoozed. Its lease is gone when a later snooze asked for it again (that one
 * wakes later), so it writes nothing then; one woken meanwhile (its contact wrote, an agent woke or
 * resolved it) is left as it is.
 */
export function createWakeJob({ db, conversations, jobs, writes, clock }: WakeJobDeps) {
  return {
    async run(job: ClaimedConversationJob): Promise<void> {
      await inTransaction(db, async (work) => {
        if (!(await jobs.finish(work, job))) return;
        const current = await conversations.findById(job.workspace_id, job.conversation_id, work.tx);
        if (current?.snoozed_until) await writes.update(work, current, { snoozed_until: null, updated_at: clock.now() });
      });
    },
  };
}
