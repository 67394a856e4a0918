// Records SLA breaches (docs/service-levels.md, "Breaches") from the dispatcher's cycle, a few
// times a second: it reads the running clocks whose due time has passed and that have not breached
// yet, earliest first, through the index that holds only those (sla_clocks_breach_due), and records
// each breach in a transaction of its own under its conversation's lock, with its event. The record
// claims the clock (a conditional update), so with several processes on PostgreSQL one of them
// records it and the others find it done. Nothing is kept in memory: a breach that fell due while
// no server ran is found by the first cycle after the start.
import type { Db } from '../db/database.js';
import type { SlaClockRepository } from '../db/repositories/service-levels/sla-clock.repository.js';
import type { ConversationWrites } from '../domain/conversations/conversation.writes.js';
import { inTransaction } from '../domain/shared/unit-of-work.js';
import type { Clock } from '../lib/clock.js';

/** Breaches read per run; more wait for the next cycle. */
export const BREACH_BATCH = 100;

export interface SlaBreachWatcherDeps {
  db: Db;
  slaClocks: Pick<SlaClockRepository, 'dueForBreach'>;
  writes: Pick<ConversationWrites, 'recordBreach'>;
  clock: Clock;
  onError: (error: unknown) => void;
}

export function createSlaBreachWatcher({ db, slaClocks, writes, clock, onError }: SlaBreachWatcherDeps) {
  let running: Promise<number> | null = null;
  let stopping = false;

  async function recordDue(): Promise<number> {
    let recorded = 0;
    for (const due of await slaClocks.dueForBreach(clock.now(), BREACH_BATCH)) {
      if (stopping) break;
      // One clock that cannot be recorded (reported) does not hold back the others.
      if (await inTransaction(db, (work) => writes.recordBreach(work, due)).catch((error) => (onError(error), false))) recorded++;
    }
    return recorded;
  }

  return {
    /** Records the breaches due now (a batch); how many this process recorded. A call while a run is on joins it. */
    run(): Promise<number> {
      if (stopping) return Promise.resolve(0);
      running ??= recordDue().finally(() => {
        running = null;
      });
      return running;
    },

    /** Stops after the breach being recorded. */
    async stop(_graceMs: number): Promise<void> {
      stopping = true;
      await running?.catch(() => {});
    },
  };
}

export type SlaBreachWatcher = ReturnType<typeof createSlaBreachWatcher>;
