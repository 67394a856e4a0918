// Token buckets shared by the server processes of one database. The bucket lives in the database
// (rate-limit.repository.ts); each process leases tokens from it in chunks of at most 1 % of the
// budget and spends them from memory, so a request writes nothing unless its process has run out.
// A lease that finds the bucket empty is remembered until the bucket will hold a token again, so
// refused requests write nothing either. Tokens a process leased and has not spent are missing from
// the shared bucket, so N processes allow at most the budget plus N % of it (when unspent leases
// outlive a refill) and never strand more than N % of it (docs/reliability.md, "Many processes").
import type { RateLimitRepository } from '../../db/repositories/rate-limit.repository.js';
import type { Clock } from '../../lib/clock.js';
import { bucketShape, forgetIdle, type RateDecision, type RateLimiter } from './token-bucket.js';

/** A lease takes at most this share of the budget. */
const LEASE_SHARE = 0.01;

/** What this process holds of one subject's bucket, and what it last saw of it. */
interface Holding {
  /** Leased tokens not yet spent. */
  local: number;
  /** The shared bucket's tokens after the last lease, and when that was. */
  shared: number;
  sharedAtMs: number;
  /** No lease before then: the last one found the bucket empty. */
  refusedUntilMs: number;
  /** The lease in flight: requests arriving meanwhile wait for it rather than send their own. */
  leasing: Promise<number> | null;
  usedMs: number;
}

export interface LeasedBucketDeps {
  /** Names the kind of request, so each kind has its own buckets in the shared table. */
  scope: string;
  perMinute: number;
  clock: Clock;
  buckets: RateLimitRepository;
}

export function createLeasedBuckets({ scope, perMinute, clock, buckets }: LeasedBucketDeps): RateLimiter {
  const { capacity, tokensPerMs, decision } = bucketShape(perMinute);
  const maxLease = Math.max(1, Math.floor(capacity * LEASE_SHARE));
  const holdings = new Map<string, Holding>();
  const nowMs = () => Date.parse(clock.now());

  const sharedAt = (holding: Holding, atMs: number) =>
    Math.min(capacity, holding.shared + Math.max(0, atMs - holding.sharedAtMs) * tokensPerMs);
  /** What the subject has left as this process knows it: its own tokens and the shared bucket as last seen, refilled since. */
  const left = (holding: Holding, atMs: number) => Math.min(capacity, holding.local + sharedAt(holding, atMs));

  async function lease(subject: string, holding: Holding): Promise<number> {
    const atMs = nowMs();
    const want = Math.min(maxLease, Math.max(1, Math.floor(sharedAt(holding, atMs))));
    const { granted, tokens } = await buckets.lease({ scope, subject, capacity, tokensPerMs, want, nowMs: atMs });
    holding.local += granted;
    holding.shared = tokens;
    holding.sharedAtMs = atMs;
    // Rounded down: at worst one lease comes a moment early and finds the bucket empty again.
    if (granted === 0) holding.refusedUntilMs = atMs + Math.floor((1 - tokens) / tokensPerMs);
    return granted;
  }

  function take(subject: string): RateDecision | Promise<RateDecision> {
    const atMs = nowMs();
    let holding = holdings.get(subject);
    if (!holding) {
      forgetIdle(holdings, atMs);
      holding = { local: 0, shared: capacity, sharedAtMs: atMs, refusedUntilMs: 0, leasing: null, usedMs: atMs };
      holdings.set(subject, holding);
    }
    holding.usedMs = atMs;
    if (holding.local >= 1) {
      holding.local -= 1;
      return decision(true, left(holding, atMs));
    }
    if (holding.refusedUntilMs > atMs) return decision(false, left(holding, atMs));
    const current = holding;
    current.leasing ??= lease(subject, current).finally(() => {
      current.leasing = null;
    });
    // Granted tokens may have gone to the requests that waited alongside: then this one tries again.
    return current.leasing.then((granted) => (granted > 0 ? take(subject) : decision(false, left(current, nowMs()))));
  }

  return { take };
}
