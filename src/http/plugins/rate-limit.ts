// Per-API-key rate limiting with a token bucket (token-buckets.ts). It runs after authentication
// (it needs the key), so unauthenticated requests and paths outside /api/v1 are not counted.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { createTokenBuckets } from './token-buckets.js';

export interface RateLimitOptions {
  /** Requests per minute per API key; 0 turns rate limiting off. */
  perMinute: number;
  /** Its time source, so tests can move time forward. */
  clock: Clock;
}

export function registerRateLimit(app: FastifyInstance, { perMinute, clock }: RateLimitOptions): void {
  if (perMinute <= 0) return;
  const buckets = createTokenBuckets({ perMinute, clock });
  app.addHook('onRequest', async (request, reply) => {
    if (!request.actor) return;
    const { allowed, retryAfter } = buckets.take(request.actor.credentialId, reply);
    if (allowed) return;
    throw new AppError(
      'forbidden',
      `rate limit exceeded: this API key may make ${perMinute} requests per minute; retry in ${retryAfter} s`,
      { status: 429 },
    );
  });
}
