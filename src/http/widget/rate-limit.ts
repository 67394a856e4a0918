// The widget API's limits per client address and widget key (platform.md §1, "Abuse"): 10
// sessions, 30 writes and 120 reads per minute, each scaled by LOOPDESK_WIDGET_RATE_LIMIT (0:
// off). Token buckets in this process's memory, as for API keys (token-buckets.ts).
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { createTokenBuckets } from '../plugins/token-buckets.js';
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

export function registerWidgetRateLimit(app: TypedApp, { scale, clock }: { scale: number; clock: Clock }): void {
  if (scale <= 0) return;
  const limits = Object.fromEntries(
    Object.entries(WIDGET_LIMITS_PER_MINUTE).map(([kind, perMinute]) => [kind, Math.max(1, Math.round(perMinute * scale))]),
  ) as Record<Kind, number>;
  const buckets = Object.fromEntries(
    Object.entries(limits).map(([kind, perMinute]) => [kind, createTokenBuckets({ perMinute, clock })]),
  ) as Record<Kind, ReturnType<typeof createTokenBuckets>>;

  app.addHook('onRequest', async (request, reply) => {
    if (!request.widgetProduct || request.method === 'OPTIONS') return;
    const kind = kindOf(request);
    const { allowed, retryAfter } = buckets[kind].take(`${request.ip} ${request.widgetProduct.id}`, reply);
    if (allowed) return;
    throw new AppError(
      'forbidden',
      `rate limit exceeded: one address may make ${limits[kind]} ${kind === 'sessions' ? 'session starts' : kind} per minute on this widget; retry in ${retryAfter} s`,
      { status: 429 },
    );
  });
}
