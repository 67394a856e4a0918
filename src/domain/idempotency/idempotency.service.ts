// The rules of `Idempotency-Key` (src/http/plugins/idempotency.ts is its HTTP side): a key is
// claimed by the first request; its 2xx response is stored for 24 h and replayed to retries with
// the same request; the same key with another request is refused; a retry that arrives while the
// first is still running waits for it; a claim whose request never finished is taken over.
import { setTimeout as sleep } from 'node:timers/promises';
import type { IdempotencyRepository, IdempotencyScope } from '../../db/repositories/idempotency.repository.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
// A record still in flight after this long belongs to a request that will never finish (its
// process died): a retry takes the key over instead of waiting forever.
export const IDEMPOTENCY_IN_FLIGHT_TIMEOUT_MS = 60_000;
const POLL_MS = 20;
const PURGE_INTERVAL_MS = 60 * 60_000;
export const IDEMPOTENCY_FIELD = 'idempotency-key';

/** The key is ours from `claimedAt` on, or an earlier identical request's stored response. */
export type Claim = { claimedAt: string } | { status: number; body: string };

export interface IdempotencyServiceDeps {
  records: IdempotencyRepository;
  clock: Clock;
}

export function createIdempotencyService({ records, clock }: IdempotencyServiceDeps) {
  let nextPurgeMs = 0;

  return {
    /** Claims the key for a request with this hash, or returns the stored response of an earlier identical one. */
    async claim(scope: IdempotencyScope, requestHash: string): Promise<Claim> {
      for (;;) {
        const now = clock.now();
        if (await records.claim(scope, requestHash, now)) return { claimedAt: now };
        const existing = await records.find(scope);
        if (!existing) continue;
        const ageMs = Date.parse(now) - Date.parse(existing.created_at);
        const status = existing.response_status;
        if (ageMs >= IDEMPOTENCY_RETENTION_MS || (status === null && ageMs >= IDEMPOTENCY_IN_FLIGHT_TIMEOUT_MS)) {
          await records.remove(scope, existing.created_at);
          continue;
        }
        if (existing.request_hash !== requestHash) {
          throw new AppError(
            'validation_error',
            'Idempotency-Key was already used with a different request (method, path or body); send a new key',
            { fields: { [IDEMPOTENCY_FIELD]: 'already used with a different request' } },
          );
        }
        if (status !== null) return { status, body: existing.response_body ?? '' };
        await sleep(POLL_MS);
      }
    },

    /** Stores a successful response for the retries of the claim made at `claimedAt`. */
    complete: (scope: IdempotencyScope, claimedAt: string, status: number, body: string) =>
      records.complete(scope, claimedAt, status, body),

    /** Gives the key back after a failed request, so the corrected request can use it. */
    release: (scope: IdempotencyScope, claimedAt: string) => records.remove(scope, claimedAt),

    /**
     * An expired record is replaced when its key comes back; this hourly sweep removes the ones
     * whose key never does, so the table holds about a day of POSTs. Returns how many went, or
     * null when the sweep is not due.
     */
    async purgeExpiredIfDue(): Promise<number | null> {
      const nowMs = Date.parse(clock.now());
      if (nowMs < nextPurgeMs) return null;
      nextPurgeMs = nowMs + PURGE_INTERVAL_MS;
      return records.purgeCreatedBefore(new Date(nowMs - IDEMPOTENCY_RETENTION_MS).toISOString());
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
