// Token buckets keyed by anything (an API key, a client IP and widget key): a key may burst up
// to `perMinute` requests and regains perMinute/60 a second. Kept in this process's memory: N
// processes allow N × the limit (docs/reliability.md, "Rate limiting").
import type { FastifyReply } from 'fastify';
import type { Clock } from '../../lib/clock.js';

const WINDOW_MS = 60_000;
/** Past this many keys, full buckets (keys idle for a minute) are forgotten. */
const SWEEP_AT = 10_000;

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export interface Take {
  allowed: boolean;
  /** Seconds until the next request will be accepted (when refused). */
  retryAfter: number;
}

export function createTokenBuckets({ perMinute, clock }: { perMinute: number; clock: Clock }) {
  const capacity = perMinute;
  const tokensPerMs = capacity / WINDOW_MS;
  const buckets = new Map<string, Bucket>();
  const secondsUntil = (tokens: number) => Math.ceil(tokens / tokensPerMs / 1000);

  const refill = (bucket: Bucket, nowMs: number) => {
    // A clock that steps backwards refills nothing rather than draining the bucket.
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, nowMs - bucket.updatedMs) * tokensPerMs);
    bucket.updatedMs = nowMs;
  };

  function sweep(nowMs: number): void {
    for (const [key, bucket] of buckets) {
      refill(bucket, nowMs);
      if (bucket.tokens >= capacity) buckets.delete(key);
    }
  }

  return {
    /** Takes one token from `key`'s bucket and sets the RateLimit-* headers (and Retry-After when refused). */
    take(key: string, reply: FastifyReply): Take {
      const nowMs = Date.parse(clock.now());
      if (buckets.size >= SWEEP_AT && !buckets.has(key)) sweep(nowMs);
      const bucket = buckets.get(key) ?? { tokens: capacity, updatedMs: nowMs };
      refill(bucket, nowMs);
      buckets.set(key, bucket);
      const allowed = bucket.tokens >= 1;
      if (allowed) bucket.tokens -= 1;
      reply.header('RateLimit-Limit', String(capacity));
      reply.header('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
      // Seconds until the bucket is full again, i.e. until Remaining is back at Limit.
      reply.header('RateLimit-Reset', String(secondsUntil(capacity - bucket.tokens)));
      if (allowed) return { allowed, retryAfter: 0 };
      const retryAfter = Math.max(1, secondsUntil(1 - bucket.tokens));
      reply.header('Retry-After', String(retryAfter));
      return { allowed, retryAfter };
    },
  };
}
