import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';

/** Load-balancer probes, outside /api/v1 and without auth; not part of the API document. */
export function healthRoutes(app: FastifyInstance, database: Pick<DatabaseHandle, 'ping'>, readiness: () => Record<string, unknown>): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await database.ping();
      return { status: 'ok', database: 'ok', ...readiness() };
    } catch (error) {
      // An expected condition, polled by load balancers: one line, no stack.
      request.log.warn(`readiness check failed: ${(error as Error)?.message ?? error}`);
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable', ...readiness() });
    }
  });
}
