import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** Load-balancer probes, outside /api/v1 and without auth; not part of the API document. */
export function healthRoutes(app: FastifyInstance, db: Db, readiness: () => Record<string, unknown>): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok', database: 'ok', ...readiness() };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable', ...readiness() });
    }
  });
}
