// Events as the writes will record them: through the outbox, inside a transaction. Until every
// write of products, issues, conversations, messages and releases records its own event, tests
// produce events here (and afterwards, for events no API write makes on demand).
import type { DatabaseHandle } from '../../src/db/database.js';
import { inTransaction } from '../../src/domain/shared/unit-of-work.js';
import type { DomainEvent } from '../../src/events/event-types.js';
import type { Services } from '../../src/services.js';

export interface RecordedEvent {
  type: string;
  workspace_id: string;
  payload: { type: string; timestamp: string; data: Record<string, any> };
}

/** Events recorded since `mark` (a count of the events table), oldest first. */
async function eventsSince({ database }: Pick<EventContext, 'database'>, mark: number): Promise<RecordedEvent[]> {
  const rows = await database.db.selectFrom('events').select(['id', 'type', 'workspace_id', 'payload', 'created_at']).orderBy('created_at').orderBy('id').execute();
  return rows.slice(mark).map((row) => ({ type: row.type, workspace_id: row.workspace_id, payload: JSON.parse(row.payload) }));
}

const countEvents = async ({ database }: Pick<EventContext, 'database'>) =>
  Number((await database.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** Runs `write` and returns the events it recorded. */
export async function recorded(context: Pick<EventContext, 'database'>, write: () => Promise<unknown>): Promise<RecordedEvent[]> {
  const mark = await countEvents(context);
  await write();
  return eventsSince(context, mark);
}

export interface EventContext {
  database: DatabaseHandle;
  services: Services;
}

/** Records the events in one committed transaction. */
export async function recordEvents({ database, services }: EventContext, events: DomainEvent[]): Promise<void> {
  await inTransaction(database.db, async (work) => {
    for (const event of events) await services.outbox.record(work, event);
  });
}

/** `count` product.updated events of the workspace, each numbered in its data. */
export const numberedEvents = (workspaceId: string, count: number, from = 0): DomainEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'product.updated' as const, workspaceId, data: { number: from + i }, previous: { number: null },
  }));

/** Fans out every event recorded so far, as the dispatcher's first step does. */
export async function fanOutAll({ services }: EventContext): Promise<void> {
  while ((await services.webhookDispatcher.fanOut()) > 0);
}

/**
 * Reads until `done(value)` holds, every 20 ms for at most `timeoutMs`, and returns that value:
 * for state the dispatcher reaches in the background.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not ${what} within ${timeoutMs} ms; last: ${JSON.stringify(value).slice(0, 1000)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
