// The outbox's events: written in the transaction of the change they describe, read back by the
// live channel (src/events/live.ts) to fan them out and to replay what a stream missed.
import type { Executor } from './executor.js';
import type { EventTable } from '../schema.js';

export type EventRow = EventTable;

const LIVE_COLUMNS = ['id', 'workspace_id', 'type', 'payload'] as const;

/** What a live stream needs of an event. */
export type LiveEventRow = Pick<EventRow, (typeof LIVE_COLUMNS)[number]>;

export function eventRepository(db: Executor) {
  return {
    /** One statement for all the rows: a write that records many events (a release's issues) sends one insert. */
    async insert(rows: readonly EventRow[], tx: Executor = db): Promise<void> {
      if (rows.length === 0) return;
      await tx.insertInto('events').values([...rows]).execute();
    },

    /** The workspace's events among `ids` (those that exist), in no particular order. */
    findMany: (workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<LiveEventRow[]> =>
      tx.selectFrom('events').select(LIVE_COLUMNS).where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute(),

    /**
     * Up to `limit` of the workspace's events whose id comes after `afterId`, of the given types
     * (all when null), in id order: ids are UUIDv7, so that is the order they were recorded in.
     */
    listAfter(workspaceId: string, afterId: string, types: readonly string[] | null, limit: number, tx: Executor = db): Promise<LiveEventRow[]> {
      let query = tx.selectFrom('events').select(LIVE_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '>', afterId);
      if (types) query = query.where('type', 'in', types);
      return query.orderBy('id', 'asc').limit(limit).execute();
    },
  };
}

export type EventRepository = ReturnType<typeof eventRepository>;
