// buildApp(deps): the composition root. Wires repositories → services → routes and the
// cross-cutting plugins. Never listens; src/main.ts does.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from './db/database.js';
import { idempotencyRepository } from './db/repositories/idempotency.repository.js';
import type { DuplicateDetector } from './dedup/detector.js';
import { registerAuth } from './http/plugins/auth.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './http/plugins/error-handler.js';
import { registerIdempotency } from './http/plugins/idempotency.js';
import { discoveryDocuments, registerOpenApi } from './http/plugins/openapi.js';
import { registerRateLimit } from './http/plugins/rate-limit.js';
import { registerRequestId, requestLogController } from './http/plugins/request-logging.js';
import { registerValidationOrder } from './http/route.js';
import { conversationRoutes } from './http/routes/conversations.js';
import { discoveryRoutes } from './http/routes/discovery.js';
import { healthRoutes } from './http/routes/health.js';
import { identityRoutes } from './http/routes/identity.js';
import { issueRoutes } from './http/routes/issues.js';
import { productRoutes } from './http/routes/products.js';
import { releaseRoutes } from './http/routes/releases.js';
import { validatorCompiler } from './http/validation.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createServices } from './services.js';

export interface AppDeps {
  database: DatabaseHandle;
  clock?: Clock;
  /** The duplicate detector for POST /issues/maybe; the lexical matcher when not given. */
  detector?: DuplicateDetector;
  logger?: FastifyServerOptions['logger'];
  /** A pino instance to log with (takes precedence over `logger`). */
  loggerInstance?: FastifyBaseLogger;
  requestTimeoutMs?: number;
  /** Requests per minute per API key (token bucket); 0 or absent: no rate limiting. */
  rateLimitPerMinute?: number;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { database } = deps;
  const requestTimeoutMs = deps.requestTimeoutMs ?? 0;

  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: deps.logger ?? false }),
    logController: requestLogController(),
    bodyLimit: BODY_LIMIT_BYTES,
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // A path id of any length reaches its route and is a 404 there (after authentication), never
    // the router's 414: no URL Node accepts (16 KiB of headers) is this long.
    routerOptions: { maxParamLength: 64 * 1024 },
    // While draining, a request that still arrives on an open connection (pipelined behind one
    // in flight) is served and answered with `Connection: close`, not turned away with a bare 503.
    return503OnClosing: false,
    requestTimeout: requestTimeoutMs,
    // Node arms its request and header timeouts only from the options the server is created
    // with (Fastify's later `server.requestTimeout = …` alone never fires), and checks them every
    // 30 s by default: a 1 s check keeps a slow client's cut-off close to the configured limit.
    http: requestTimeoutMs > 0 ? { requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs) } : null,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Only JSON bodies are accepted; anything else is a 415.
  app.removeContentTypeParser('text/plain');

  registerRequestId(app);
  registerErrorHandling(app);
  registerValidationOrder(app);
  await registerOpenApi(app);

  const services = createServices(database, {
    clock: deps.clock,
    detector: deps.detector,
    onBackgroundError: (error) => app.log.warn({ err: error }, 'background write failed'),
  });

  registerAuth(app, services.identity);
  // Both need the authenticated key, so they come after auth and before the routes.
  registerRateLimit(app, { perMinute: deps.rateLimitPerMinute ?? 0, clock: deps.clock ?? systemClock });
  registerIdempotency(app, { records: idempotencyRepository(database.db), clock: deps.clock ?? systemClock });
  // Read at each probe: the `auto` matcher switches to the model once it is loaded.
  healthRoutes(app, database, () => ({ dedup: deps.detector?.name ?? services.issueDedup.detectorName }));
  discoveryRoutes(app, discoveryDocuments(app));
  identityRoutes(app, services.identity);
  productRoutes(app, services.products);
  conversationRoutes(app, services.conversations);
  issueRoutes(app, services.issues, services.issueDedup);
  releaseRoutes(app, services.releases);

  await app.ready();
  return app;
}
