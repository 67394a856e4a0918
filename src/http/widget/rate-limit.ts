// The widget API's limits per client address and widget key (docs/widget.md, "Abuse"): 10
// sessions, 30 writes and 120 reads per minute, each scaled by LOOPDESK_WIDGET_RATE_LIMIT (0:
// off). Token buckets as for API keys (src/domain/rate-limits/), one scope per kind of request.
import type { FastifyRequest } from 'fastify';
import type { RateLimits } from '../../domain/rate-limits/rate-limits.js';
import type { RateLimiter } from '../../domain/rate-limits/token-bucket.js';
import { AppError } from '../../errors.js';
import { sendRateHeaders } from '../plugins/rate-limit.js';
import type { TypedApp } from '../route.js';

export const WIDGET_LIMITS_PER_MINUTE = { sessions: 10, writes: 30, reads: 120 } as const;
type Kind = keyof typeof WIDGET_LIMITS_PER_MINUTE;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counted as a session start rather than as a write. */
    widgetSessionStart?: boolean;
  }
}

const READS = new Set(['GET', 'HEAD']);

const kindOf = (request: FastifyRequest): Kind =>
  request.routeOptions.config.widgetSessionStart ? 'sessions' : READS.has(request.method) ? 'reads' : 'writes';

export function registerWidgetRateLimit(app: TypedApp, { scale, rateLimits }: { scale: number; rateLimits: RateLimits }): void {
  if (scale <= 0) return;
  const limits = Object.fromEntries(
    Object.entries(WIDGET_LIMITS_PER_MINUTE).map(([kind, perMinute]) => [kind, Math.max(1, Math.round(perMinute * scale))]),
  ) as Record<Kind, number>;
  const limiters = Object.fromEntries(
    Object.entries(limits).map(([kind, perMinute]) => [kind, rateLimits.limiter(`widget-${kind}`, perMinute)]),
  ) as Record<Kind, RateLimiter>;

  app.addHook('onRequest', async (request, reply) => {
    if (!request.widgetProduct || request.method === 'OPTIONS') return;
    const kind = kindOf(request);
    const decision = await limiters[kind].take(`${request.ip} ${request.widgetProduct.id}`);
    if (sendRateHeaders(reply, decision)) return;
    throw new AppError(
      'forbidden',
      `rate limit exceeded: one address may make ${limits[kind]} ${kind === 'sessions' ? 'session starts' : kind} per minute on this widget; retry in ${decision.retryAfter} s`,
      { status: 429 },
    );
  });
}
