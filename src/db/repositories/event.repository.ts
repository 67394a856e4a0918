// The outbox's events: written in the transaction of the change they describe, read back by the
// live channel (src/events/live.ts) to fan them out and to replay what a stream missed.
import { columnsOf, compileByShape, rowsOf, type Columns } from './compiled-query.js';
import type { Executor } from './executor.js';
import type { EventTable } from '../schema.js';

export type EventRow = EventTable;

const LIVE_COLUMNS = ['id', 'workspace_id', 'type', 'payload'] as const;

/** What a live stream needs of an event. */
export type LiveEventRow = Pick<EventRow, (typeof LIVE_COLUMNS)[number]>;

/** An event as recorded: not fanned out yet. */
type RecordedEvent = Omit<EventRow, 'fanned_out_at'>;
const RECORDED_COLUMNS = ['id', 'workspace_id', 'type', 'payload', 'created_at'] as const satisfies readonly (keyof RecordedEvent)[];

export function eventRepository(db: Executor) {
  // Every write records its events: the insert is compiled once per number of rows, its values bound column by column.
  const insertRows = compileByShape((columns: Columns<RecordedEvent>) =>
    db.insertInto('events').values(rowsOf(columns).map((row) => ({ ...row, fanned_out_at: null }))));

  return {
    /** One statement for all the rows: a write that records many events (a release's issues) sends one insert. */
    async insert(rows: readonly RecordedEvent[], tx: Executor = db): Promise<void> {
      if (rows.length === 0) return;
      await insertRows(tx, columnsOf(rows, RECORDED_COLUMNS));
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
