// Webhook deliveries, one per event and endpoint, and the queue the dispatcher works from: events
// still to fan out, deliveries due. Claims lock their rows with the dialect's FOR UPDATE SKIP
// LOCKED (PostgreSQL), so processes sharing the database never claim the same row.
import type { Dialect } from '../dialect.js';
import type { Executor, Page, PageOf } from './executor.js';
import { NEWEST_FIRST, countRows, readPage } from './paging.js';
import type { EventTable, WebhookDeliveryTable } from '../schema.js';

const DELIVERY_COLUMNS = [
  'id', 'workspace_id', 'endpoint_id', 'event_id', 'event_type', 'status', 'attempts', 'last_status_code', 'last_error',
  'next_attempt_at', 'created_at', 'updated_at',
] as const;

export type WebhookDeliveryRow = WebhookDeliveryTable;
export type DeliveryStatus = WebhookDeliveryTable['status'];

/** An event as fan-out needs it. */
export type FanOutEventRow = Pick<EventTable, 'id' | 'workspace_id' | 'type' | 'created_at'>;

/** Everything one attempt needs: the delivery, where it goes, the secrets and the body. */
export interface AttemptRow {
  id: string;
  attempts: number;
  /** The lease the claim set; the attempt's outcome is written only while it still holds. */
  next_attempt_at: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  payload: string;
}

/** What an attempt's outcome changes. */
export type DeliveryOutcome = Pick<WebhookDeliveryTable, 'status' | 'attempts' | 'last_status_code' | 'last_error' | 'next_attempt_at' | 'updated_at'>;

/** An outcome and the lease of the attempt it comes from. */
export interface LeasedOutcome {
  id: string;
  lease: string;
  outcome: DeliveryOutcome;
}

// SQLite accepts at most 32,766 parameters a statement; 12 columns a row.
const INSERT_CHUNK = 1000;

export function webhookDeliveryRepository(db: Executor, dialect: Pick<Dialect, 'forUpdateSkipLocked'>) {
  return {
    /** Locks up to `limit` events no dispatcher has fanned out yet, oldest first. */
    async claimEventsToFanOut(limit: number, tx: Executor): Promise<FanOutEventRow[]> {
      const query = tx
        .selectFrom('events')
        .select(['id', 'workspace_id', 'type', 'created_at'])
        .where('fanned_out_at', 'is', null)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit);
      return dialect.forUpdateSkipLocked(query).execute();
    },

    async markFannedOut(eventIds: readonly string[], at: string, tx: Executor): Promise<void> {
      if (eventIds.length === 0) return;
      await tx.updateTable('events').set({ fanned_out_at: at }).where('id', 'in', eventIds).execute();
    },

    /** Inserts deliveries; one that exists already for its (event, endpoint) is left as it is. */
    async insertMany(rows: readonly WebhookDeliveryRow[], tx: Executor): Promise<void> {
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        await tx
          .insertInto('webhook_deliveries')
          .values(rows.slice(start, start + INSERT_CHUNK))
          .onConflict((conflict) => conflict.columns(['event_id', 'endpoint_id']).doNothing())
          .execute();
      }
    },

    /**
     * Claims up to `limit` pending deliveries due at `now` whose endpoint is enabled (a disabled
     * endpoint's deliveries wait), pushing each one's next attempt to `leaseUntil`: until then no
     * other claim sees it, and if this process dies the delivery falls due again by itself. Returns
     * what the attempts need (URL, secret, payload) from the same query: the claim is a subquery
     * that locks and limits the deliveries alone, joined to endpoints and events afterwards, so no
     * plan reads payloads before the limit (PostgreSQL without statistics would join first).
     */
    async claimDue(now: string, leaseUntil: string, limit: number, tx: Executor): Promise<AttemptRow[]> {
      const due = dialect.forUpdateSkipLocked(
        tx
          .selectFrom('webhook_deliveries as d')
          .select(['d.id', 'd.attempts', 'd.workspace_id', 'd.endpoint_id', 'd.event_id'])
          .where('d.status', '=', 'pending')
          .where('d.next_attempt_at', '<=', now)
          // Not a join: the planner keeps walking the due index in order and stops at the limit.
          .where('d.endpoint_id', 'not in', (eb) => eb.selectFrom('webhook_endpoints').select('id').where('enabled', '=', 0))
          .orderBy('d.next_attempt_at', 'asc')
          .limit(limit),
      );
      const rows = await tx
        .selectFrom(due.as('c'))
        .innerJoin('webhook_endpoints as e', (join) => join.onRef('e.id', '=', 'c.endpoint_id').onRef('e.workspace_id', '=', 'c.workspace_id'))
        .innerJoin('events as ev', (join) => join.onRef('ev.id', '=', 'c.event_id').onRef('ev.workspace_id', '=', 'c.workspace_id'))
        .select(['c.id', 'c.attempts', 'e.url', 'e.secret', 'e.previous_secret', 'e.previous_secret_expires_at', 'ev.payload'])
        .execute();
      if (rows.length === 0) return [];
      await tx.updateTable('webhook_deliveries').set({ next_attempt_at: leaseUntil }).where('id', 'in', rows.map((row) => row.id)).execute();
      return rows.map((row) => ({ ...row, next_attempt_at: leaseUntil }));
    },

    /**
     * Marks deliveries succeeded whose attempts, all made under one claim's `lease`, answered
     * `statusCode`, each only while that lease still holds (nobody claimed it again, no manual
     * retry requeued it): one statement for what a busy dispatcher mostly writes. The attempt count
     * goes up by one, which is what the claim saw plus this attempt, since a lease that holds
     * means nothing else touched the delivery. How many were recorded.
     */
    async recordSuccesses(ids: readonly string[], lease: string, statusCode: number, at: string, tx: Executor): Promise<number> {
      if (ids.length === 0) return 0;
      const result = await tx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: 'succeeded', attempts: eb('attempts', '+', 1), last_status_code: statusCode, last_error: null, next_attempt_at: null, updated_at: at,
        }))
        .where('id', 'in', ids)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '=', lease)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /**
     * Records attempts' outcomes one by one, each only while its attempt's lease still holds; how
     * many were recorded.
     */
    async recordOutcomes(outcomes: readonly LeasedOutcome[], tx: Executor): Promise<number> {
      let recorded = 0;
      for (const { id, lease, outcome } of outcomes) {
        const result = await tx
          .updateTable('webhook_deliveries')
          .set(outcome)
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where('next_attempt_at', '=', lease)
          .executeTakeFirst();
        recorded += Number(result.numUpdatedRows);
      }
      return recorded;
    },

    /** Makes claimed deliveries due at `now` again, without counting an attempt (their leases still holding). */
    async handBack(leases: readonly { id: string; lease: string }[], now: string, tx: Executor): Promise<void> {
      for (const { id, lease } of leases) {
        await tx
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: now })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where('next_attempt_at', '=', lease)
          .execute();
      }
    },

    /** An endpoint's deliveries, newest first. */
    async list(workspaceId: string, endpointId: string, filters: { statuses?: DeliveryStatus[] }, page: Page, tx: Executor = db): Promise<PageOf<WebhookDeliveryRow>> {
      let scoped = tx.selectFrom('webhook_deliveries').where('workspace_id', '=', workspaceId).where('endpoint_id', '=', endpointId);
      if (filters.statuses) scoped = scoped.where('status', 'in', filters.statuses);
      return readPage(NEWEST_FIRST, page, () => countRows(scoped), (read) => read.sliced(scoped).select(DELIVERY_COLUMNS).execute());
    },

    async findById(workspaceId: string, endpointId: string, id: string, tx: Executor = db): Promise<WebhookDeliveryRow | undefined> {
      return tx
        .selectFrom('webhook_deliveries')
        .select(DELIVERY_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('endpoint_id', '=', endpointId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Queues a delivery again: pending and due at `now`, its attempt count kept. */
    async requeue(workspaceId: string, id: string, now: string, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: now, updated_at: now })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute();
    },
  };
}

export type WebhookDeliveryRepository = ReturnType<typeof webhookDeliveryRepository>;
