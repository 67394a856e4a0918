// Recording an event: one row in `events`, in the transaction of the change it describes, so a
// change that rolls back records nothing and one that commits is never lost. The dispatcher
// (src/events/dispatcher.ts) delivers what was recorded.
import type { EventRepository } from '../db/repositories/event.repository.js';
import type { Executor } from '../db/repositories/executor.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { DomainEvent, EventPayload } from './event-types.js';

export interface OutboxDeps {
  events: Pick<EventRepository, 'insert'>;
  clock: Clock;
}

export function createOutbox({ events, clock }: OutboxDeps) {
  return {
    async record(tx: Executor, event: DomainEvent): Promise<void> {
      const timestamp = clock.now();
      const payload: EventPayload = {
        type: event.type,
        timestamp,
        data: { ...event.data, ...(event.previous ? { previous: event.previous } : {}) },
      };
      await events.insert(
        { id: newId(), workspace_id: event.workspaceId, type: event.type, payload: JSON.stringify(payload), created_at: timestamp, fanned_out_at: null },
        tx,
      );
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
