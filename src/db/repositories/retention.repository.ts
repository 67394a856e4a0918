// Housekeeping across all workspaces (src/domain/housekeeping/housekeeping.ts): deletes what has outlived its
// use (rows, and secrets that stopped signing), up to `limit` rows a statement, so that no delete holds the database for long. Each
// method returns how many rows went; fewer than `limit` means there are no more.
import type { DeleteResult, UpdateResult } from 'kysely';
import { uuidv7Floor } from '../../lib/ids.js';
import type { Executor } from './executor.js';

const deleted = (result: DeleteResult) => Number(result.numDeletedRows);
const updated = (result: UpdateResult) => Number(result.numUpdatedRows);

export function retentionRepository(db: Executor) {
  return {
    /**
     * Finished deliveries (succeeded or failed) last changed before `cutoff`. Their ids are UUIDv7
     * from their creation, so the primary key bounds the scan to the old rows. The outer statement
     * checks again: on PostgreSQL, a delivery retried meanwhile (pending again) is then kept.
     */
    async deleteFinishedDeliveries(cutoff: string, limit: number, tx: Executor = db): Promise<number> {
      const result = await tx.deleteFrom('webhook_deliveries')
        .where('id', 'in', (eb) => eb.selectFrom('webhook_deliveries')
          .select('id')
          .where('id', '<', uuidv7Floor(cutoff))
          .where('status', '!=', 'pending')
          .where('updated_at', '<', cutoff)
          .limit(limit))
        .where('status', '!=', 'pending')
        .where('updated_at', '<', cutoff)
        .executeTakeFirst();
      return deleted(result);
    },

    /**
     * Events fanned out before `cutoff` that no delivery needs any more (a delivery's retry sends
     * its event's payload); the fan-out index bounds the scan.
     */
    async deleteDeliveredEvents(cutoff: string, limit: number, tx: Executor = db): Promise<number> {
      const result = await tx.deleteFrom('events')
        .where('id', 'in', (eb) => eb.selectFrom('events as e')
          .select('e.id')
          .where('e.fanned_out_at', '<', cutoff)
          .where((inner) => inner.not(inner.exists(inner.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))))
          .limit(limit))
        .executeTakeFirst();
      return deleted(result);
    },

    /** The team's sessions that expired or were revoked by `now`: their tokens never work again. */
    async deleteEndedSessions(now: string, limit: number, tx: Executor = db): Promise<number> {
      const result = await tx.deleteFrom('sessions')
        .where('id', 'in', (eb) => eb.selectFrom('sessions')
          .select('id')
          .where((inner) => inner.or([inner('expires_at', '<=', now), inner('revoked_at', 'is not', null)]))
          .limit(limit))
        .executeTakeFirst();
      return deleted(result);
    },

    /** Visitor sessions last used before `unusedSince`: expired, their tokens never work again. */
    async deleteUnusedWidgetSessions(unusedSince: string, limit: number, tx: Executor = db): Promise<number> {
      const result = await tx.deleteFrom('widget_sessions')
        .where('id', 'in', (eb) => eb.selectFrom('widget_sessions').select('id').where('last_used_at', '<=', unusedSince).limit(limit))
        .executeTakeFirst();
      return deleted(result);
    },

    /** Invitations never taken that expired by `now`: their links never work again. */
    async deleteExpiredInvitations(now: string, limit: number, tx: Executor = db): Promise<number> {
      const result = await tx.deleteFrom('invitations')
        .where('id', 'in', (eb) => eb.selectFrom('invitations').select('id').where('accepted_at', 'is', null).where('expires_at', '<=', now).limit(limit))
        .executeTakeFirst();
      return deleted(result);
    },

    /**
     * Rate-limit buckets not leased from since `idleSinceMs` (epoch ms): a bucket idle for a whole
     * window is full again, and a missing one is created full, so deleting it changes nothing.
     */
    async deleteIdleRateLimitBuckets(idleSinceMs: number, limit: number, tx: Executor = db): Promise<number> {
      const result = await tx.deleteFrom('rate_limit_buckets')
        .where(({ eb, refTuple, selectFrom }) => eb(refTuple('scope', 'subject'), 'in', selectFrom('rate_limit_buckets')
          .select(['scope', 'subject'])
          .where('updated_ms', '<=', idleSinceMs)
          .limit(limit)
          .$asTuple('scope', 'subject')))
        .where('updated_ms', '<=', idleSinceMs)
        .executeTakeFirst();
      return deleted(result);
    },

    /** Forgets webhook secrets replaced by a rotation once they stopped signing: none is stored longer than it is used. */
    async forgetExpiredSecrets(now: string, limit: number, tx: Executor = db): Promise<number> {
      const result = await tx.updateTable('webhook_endpoints')
        .set({ previous_secret: null, previous_secret_expires_at: null })
        .where('id', 'in', (eb) => eb.selectFrom('webhook_endpoints')
          .select('id')
          .where('previous_secret', 'is not', null)
          .where('previous_secret_expires_at', '<=', now)
          .limit(limit))
        .executeTakeFirst();
      return updated(result);
    },
  };
}

export type RetentionRepository = ReturnType<typeof retentionRepository>;
