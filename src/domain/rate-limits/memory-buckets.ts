// Token buckets in this process's memory: exact, and free of any database work. Used where one
// process owns the database (SQLite), so no other process spends the same budget.
import type { Clock } from '../../lib/clock.js';
import { bucketShape, forgetIdle, type RateDecision, type RateLimiter } from './token-bucket.js';

interface Bucket {
  tokens: number;
  usedMs: number;
}

export function createMemoryBuckets({ perMinute, clock }: { perMinute: number; clock: Clock }): RateLimiter {
  const { capacity, tokensPerMs, decision } = bucketShape(perMinute);
  const buckets = new Map<string, Bucket>();

  return {
    take(subject: string): RateDecision {
      const nowMs = Date.parse(clock.now());
      if (!buckets.has(subject)) forgetIdle(buckets, nowMs);
      const bucket = buckets.get(subject) ?? { tokens: capacity, usedMs: nowMs };
      // A clock that steps backwards refills nothing rather than draining the bucket.
      bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, nowMs - bucket.usedMs) * tokensPerMs);
      bucket.usedMs = nowMs;
      buckets.set(subject, bucket);
      const allowed = bucket.tokens >= 1;
      if (allowed) bucket.tokens -= 1;
      return decision(allowed, bucket.tokens);
    },
  };
}
