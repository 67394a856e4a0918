// Per-API-key rate limiting (src/domain/rate-limits/). It runs after authentication (it needs the
// key), so unauthenticated requests and paths outside /api/v1 are not counted.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RateLimits } from '../../domain/rate-limits/rate-limits.js';
import type { RateDecision } from '../../domain/rate-limits/token-bucket.js';
import { AppError } from '../../errors.js';

export interface RateLimitOptions {
  /** Requests per minute per API key; 0 turns rate limiting off. */
  perMinute: number;
  rateLimits: RateLimits;
}

/** Sets the RateLimit-* headers of a decision, and Retry-After when it refused; true when it allowed. */
export function sendRateHeaders(reply: FastifyReply, decision: RateDecision): boolean {
  reply.header('RateLimit-Limit', String(decision.limit));
  reply.header('RateLimit-Remaining', String(decision.remaining));
  reply.header('RateLimit-Reset', String(decision.resetSeconds));
  if (!decision.allowed) reply.header('Retry-After', String(decision.retryAfter));
  return decision.allowed;
}

export function registerRateLimit(app: FastifyInstance, { perMinute, rateLimits }: RateLimitOptions): void {
  if (perMinute <= 0) return;
  const limiter = rateLimits.limiter('api', perMinute);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.actor) return;
    const decision = await limiter.take(request.actor.credentialId);
    if (sendRateHeaders(reply, decision)) return;
    throw new AppError(
      'forbidden',
      `rate limit exceeded: this API key may make ${perMinute} requests per minute; retry in ${decision.retryAfter} s`,
      { status: 429 },
    );
  });
}
