// Recording an event: one row in `events`, in the transaction of the change it describes, so a
// change that rolls back records nothing and one that commits is never lost. The dispatcher
// (src/events/dispatcher.ts) delivers what was recorded to webhooks; the live channel
// (src/events/live.ts) hands it to the open streams once the transaction commits. Both start
// here, the one place every write records its events, so no write path can forget either.
import type { EventRepository } from '../db/repositories/event.repository.js';
import type { Work } from '../domain/shared/unit-of-work.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { DomainEvent, EventPayload } from './event-types.js';
import { conversationOf, type LiveChannel } from './live.js';

export interface OutboxDeps {
  events: Pick<EventRepository, 'insert'>;
  live: Pick<LiveChannel, 'announce'>;
  clock: Clock;
}

export function createOutbox({ events, live, clock }: OutboxDeps) {
  return {
    /** Records the events in the order given: one insert and one announcement for all of them. */
    async record(work: Work, ...recorded: DomainEvent[]): Promise<void> {
      if (recorded.length === 0) return;
      const rows = recorded.map((event) => {
        const timestamp = clock.now();
        const payload: EventPayload = {
          type: event.type,
          timestamp,
          data: { ...event.data, ...(event.previous ? { previous: event.previous } : {}) },
          ...(work.actor && { actor: work.actor }),
        };
        return { id: newId(), workspaceId: event.workspaceId, type: event.type, timestamp, payload };
      });
      await events.insert(
        rows.map(({ id, workspaceId, type, timestamp, payload }) => ({
          id, workspace_id: workspaceId, type, payload: JSON.stringify(payload), created_at: timestamp,
        })),
        work.tx,
      );
      await live.announce(work, rows.map(({ id, workspaceId, type, payload }) => ({
        id, workspaceId, type, conversationId: conversationOf(type, payload.data), payload,
      })));
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
