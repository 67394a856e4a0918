// The outbox's events: written in the transaction of the change they describe.
import type { Executor } from './executor.js';
import type { EventTable } from '../schema.js';

export type EventRow = EventTable;

export function eventRepository(db: Executor) {
  return {
    async insert(row: EventRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('events').values(row).execute();
    },
  };
}

export type EventRepository = ReturnType<typeof eventRepository>;
