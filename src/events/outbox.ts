// Recording an event: one row in `events`, in the transaction of the change it describes, so a
// change that rolls back records nothing and one that commits is never lost. The dispatcher
// (src/events/dispatcher.ts) delivers what was recorded to webhooks; the live channel
// (src/events/live.ts) hands it to the open streams once the transaction commits. Both start
// here, the one place every write records its events, so no write path can forget either.
import type { EventRepository } from '../db/repositories/event.repository.js';
import { stage, type Work } from '../domain/shared/unit-of-work.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { DomainEvent, EventPayload } from './event-types.js';
import { conversationOf, type LiveChannel } from './live.js';

export interface OutboxDeps {
  events: Pick<EventRepository, 'insert'>;
  live: Pick<LiveChannel, 'announce'>;
  clock: Clock;
}

/** An event as recorded, before it is written: its row's text made then, as the data stood. */
interface Recorded {
  id: string;
  workspaceId: string;
  type: DomainEvent['type'];
  timestamp: string;
  payload: EventPayload;
  text: string;
}

/** SQLite takes at most 32,766 parameters a statement: 5 a row. */
const INSERT_CHUNK = 1000;

export function createOutbox({ events, live, clock }: OutboxDeps) {
  /** A transaction's events: inserted in order, then announced once. */
  async function write(work: Work, rows: readonly Recorded[]): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await events.insert(rows.slice(start, start + INSERT_CHUNK).map(({ id, workspaceId, type, timestamp, text }) => ({
        id, workspace_id: workspaceId, type, payload: text, created_at: timestamp,
      })), work.tx);
    }
    await live.announce(work, rows.map(({ id, workspaceId, type, payload }) => ({
      id, workspaceId, type, conversationId: conversationOf(type, payload.data), payload,
    })));
  }

  return {
    /**
     * Records the events in the order given. They are written when the transaction ends, in one
     * insert and one announcement with every other event it recorded (a rule job's runs, a
     * conversation created with its first message), the order kept.
     */
    async record(work: Work, ...recorded: DomainEvent[]): Promise<void> {
      if (recorded.length === 0) return;
      stage(work, 'events', recorded.map((event) => {
        const timestamp = clock.now();
        const payload: EventPayload = {
          type: event.type,
          timestamp,
          data: { ...event.data, ...(event.previous ? { previous: event.previous } : {}) },
          ...(work.actor && { actor: work.actor }),
        };
        return { id: newId(), workspaceId: event.workspaceId, type: event.type, timestamp, payload, text: JSON.stringify(payload) };
      }), write);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
