// Totals across every workspace for the operator's metrics (GET /metrics): how far the outbox and
// the deliveries are behind. Only counts leave, never a workspace's data.
import type { Executor } from './executor.js';

export interface StatusCount {
  status: string;
  count: number;
}

export function operationsRepository(db: Executor) {
  const byStatus = (rows: { status: string; count: number | string | bigint }[]): StatusCount[] =>
    rows.map((row) => ({ status: row.status, count: Number(row.count) }));
  return {
    /** Events the dispatcher has not fanned out yet, and when the oldest of them was recorded. */
    async outboxBacklog(): Promise<{ count: number; oldestCreatedAt: string | null }> {
      const row = await db.selectFrom('events')
        .select((eb) => [eb.fn.countAll().as('count'), eb.fn.min('created_at').as('oldest')])
        .where('fanned_out_at', 'is', null)
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), oldestCreatedAt: row.oldest };
    },

    async webhookDeliveriesByStatus(): Promise<StatusCount[]> {
      return byStatus(await db.selectFrom('webhook_deliveries').select((eb) => ['status', eb.fn.countAll().as('count')]).groupBy('status').execute());
    },

    /** Release announcement emails, the mail Loopdesk sends. */
    async mailByStatus(): Promise<StatusCount[]> {
      return byStatus(await db.selectFrom('announcement_jobs')
        .select((eb) => ['status', eb.fn.countAll().as('count')])
        .where('kind', '=', 'email')
        .groupBy('status')
        .execute());
    },
  };
}

export type OperationsRepository = ReturnType<typeof operationsRepository>;
