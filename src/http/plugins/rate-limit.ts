// Per-API-key rate limiting with a token bucket: a key may burst up to `perMinute` requests and
// regains perMinute/60 requests per second. It runs after authentication (it needs the key), so
// unauthenticated requests and paths outside /api/v1 are not counted. Buckets live in this
// process's memory: N processes allow N × the limit (docs/reliability.md, "Rate limiting").
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';

const WINDOW_MS = 60_000;

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export interface RateLimitOptions {
  /** Requests per minute per API key; 0 turns rate limiting off. */
  perMinute: number;
  /** Its time source, so tests can move time forward. */
  clock: Clock;
}

export function registerRateLimit(app: FastifyInstance, { perMinute, clock }: RateLimitOptions): void {
  if (perMinute <= 0) return;
  const capacity = perMinute;
  const tokensPerMs = capacity / WINDOW_MS;
  const buckets = new Map<string, Bucket>();
  const secondsUntil = (tokens: number) => Math.ceil(tokens / tokensPerMs / 1000);

  const setHeaders = (reply: FastifyReply, bucket: Bucket) => {
    reply.header('RateLimit-Limit', String(capacity));
    reply.header('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
    // Seconds until the bucket is full again, i.e. until Remaining is back at Limit.
    reply.header('RateLimit-Reset', String(secondsUntil(capacity - bucket.tokens)));
  };

  app.addHook('onRequest', async (request, reply) => {
    if (!request.actor) return;
    const nowMs = Date.parse(clock.now());
    const bucket = buckets.get(request.actor.credentialId) ?? { tokens: capacity, updatedMs: nowMs };
    // A clock that steps backwards refills nothing rather than draining the bucket.
    const elapsedMs = Math.max(0, nowMs - bucket.updatedMs);
    bucket.tokens = Math.min(capacity, bucket.tokens + elapsedMs * tokensPerMs);
    bucket.updatedMs = nowMs;
    buckets.set(request.actor.credentialId, bucket);

    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      setHeaders(reply, bucket);
      return;
    }
    setHeaders(reply, bucket);
    const retryAfter = Math.max(1, secondsUntil(1 - bucket.tokens));
    reply.header('Retry-After', String(retryAfter));
    throw new AppError(
      'forbidden',
      `rate limit exceeded: this API key may make ${capacity} requests per minute; retry in ${retryAfter} s`,
      { status: 429 },
    );
  });
}
