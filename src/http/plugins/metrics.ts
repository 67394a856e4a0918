// GET /metrics, Prometheus's text format, and the hook that counts every request: both exist only
// when LOOPDESK_METRICS_TOKEN is set. Without the token as a Bearer credential the path answers
// as an unknown one does (404), so a scanner learns nothing. Outside /api/v1 like the probes,
// and like them not part of the API's document.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { serveMetrics, type MetricSources, type Metrics } from '../../lib/metrics.js';
import { notFoundHandler } from './error-handler.js';

/** Requests no route matched, counted under one label value rather than their paths. */
const UNMATCHED = 'unmatched';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function registerMetrics(app: FastifyInstance, token: string | null, metrics: Metrics, sources: MetricSources): void {
  if (token === null) return;
  const observe = serveMetrics(metrics, sources);
  // Route templates (`/api/v1/issues/:id`), never the URL: one series per route and status.
  app.addHook('onResponse', (request, reply, done) => {
    observe(request.method, request.routeOptions.url ?? UNMATCHED, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // Digests of equal length, compared in constant time whatever the length of what was sent.
  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) return notFoundHandler(request, reply);
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
