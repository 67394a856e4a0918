// What every token bucket shares, in memory or leased: a subject may burst up to `perMinute`
// requests and regains perMinute/60 a second; a take's decision and its headers' figures.

/** A bucket refills from empty to full in this long; one idle this long is full, as good as new. */
export const RATE_WINDOW_MS = 60_000;
/** Past this many subjects in one process, those idle for a window are forgotten. */
const FORGET_IDLE_AT = 10_000;

/** What one request's take decided, and what its RateLimit-* headers say. */
export interface RateDecision {
  allowed: boolean;
  /** The bucket's size. */
  limit: number;
  /** Whole requests left. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request will be accepted; 0 when this one was. */
  retryAfter: number;
}

export interface RateLimiter {
  /** Takes one token from `subject`'s bucket; synchronous unless it had to ask the database. */
  take(subject: string): RateDecision | Promise<RateDecision>;
}

/** A bucket's size and refill rate, and the decision for a bucket left holding `tokens`. */
export function bucketShape(perMinute: number) {
  const capacity = perMinute;
  const tokensPerMs = capacity / RATE_WINDOW_MS;
  const secondsUntil = (tokens: number) => Math.ceil(tokens / tokensPerMs / 1000);
  return {
    capacity,
    tokensPerMs,
    decision(allowed: boolean, tokens: number): RateDecision {
      return {
        allowed,
        limit: capacity,
        remaining: Math.floor(tokens),
        resetSeconds: secondsUntil(capacity - tokens),
        retryAfter: allowed ? 0 : Math.max(1, secondsUntil(1 - tokens)),
      };
    },
  };
}

/** Forgets, once `entries` grows past FORGET_IDLE_AT, the subjects idle for a window (their buckets are full). */
export function forgetIdle(entries: Map<string, { usedMs: number }>, nowMs: number): void {
  if (entries.size < FORGET_IDLE_AT) return;
  for (const [subject, entry] of entries) if (nowMs - entry.usedMs >= RATE_WINDOW_MS) entries.delete(subject);
}
