// buildApp(deps): the HTTP app around the services the composition root (src/services.ts) built:
// the cross-cutting plugins, the probes, /api/v1, the widget API and the team app. Never listens; src/main.ts does.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from './db/database.js';
import { API_PREFIX, apiV1 } from './http/api-v1.js';
import { AUTH_PREFIX, authPlugin } from './http/auth-routes.js';
import { WIDGET_PREFIX, widgetV1 } from './http/widget-v1.js';
import { widgetEmbed } from './http/widget/embed-routes.js';
import { loadWidgetBuild, type WidgetBuild } from './http/widget/widget-build.js';
import { registerBodyParsers } from './http/plugins/body-parsers.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './http/plugins/error-handler.js';
import { registerMetrics } from './http/plugins/metrics.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { registerRequestId, requestLogController } from './http/plugins/request-logging.js';
import { registerRequestTargetCheck } from './http/plugins/request-target.js';
import { registerOptionalBodies, registerValidationOrder } from './http/route.js';
import { HELP_PREFIX, helpCenterPages } from './http/help/help-routes.js';
import { healthRoutes } from './http/routes/health.js';
import { buildSerializer } from './http/serializer.js';
import { validatorCompiler } from './http/validation.js';
import { webApp } from './http/web-app.js';
import type { Services } from './services.js';

export interface AppDeps {
  database: DatabaseHandle;
  /** Built by createServices (src/services.ts) on the same database. */
  services: Services;
  logger?: FastifyServerOptions['logger'];
  /** A pino instance to log with (takes precedence over `logger`). */
  loggerInstance?: FastifyBaseLogger;
  requestTimeoutMs?: number;
  /** Requests per minute per API key (token bucket); 0 or absent: no rate limiting. */
  rateLimitPerMinute?: number;
  /** Scales the widget API's per-address limits (LOOPDESK_WIDGET_RATE_LIMIT); 0 or absent: none. */
  widgetRateLimitScale?: number;
  /** LOOPDESK_PUBLIC_URL: the base URL clients reach this server at, when it differs from what they send. */
  publicUrl?: string | null;
  /** The built widget (loadWidgetBuild); read from dist/web/widget/ when not given. */
  widgetBuild?: WidgetBuild;
  /** LOOPDESK_DEMO=1: /widget/demo/{key} for every product, not only those of the first-start workspace. */
  widgetDemo?: boolean;
  /** The team app's build (dist/web/app), served at /app; absent: no app (tests of the API alone). */
  webAppDir?: string;
  /** LOOPDESK_METRICS_TOKEN: GET /metrics is served to requests bearing it; null or absent: no metrics at all. */
  metricsToken?: string | null;
}
export const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { database, services } = deps;
  const requestTimeoutMs = deps.requestTimeoutMs ?? 0;
  // First: without a built widget the server must not start at all.
  const widgetBuild = deps.widgetBuild ?? loadWidgetBuild();

  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: deps.logger ?? false }),
    logController: requestLogController(),
    bodyLimit: BODY_LIMIT_BYTES,
    // Serializers built once per response schema, each with only the named schemas it refers to.
    schemaController: { compilersFactory: { buildSerializer } },
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

  // Counted by a listener on the server rather than hooks: the cheapest way to see every request
  // from its arrival to its end (`close` comes after the response is finished, or when abandoned).
  const { requestPressure } = services;
  app.server.on('request', (_request, response) => {
    requestPressure.requestStarted();
    response.once('close', requestPressure.requestEnded);
  });
  app.setValidatorCompiler(validatorCompiler);
  registerBodyParsers(app);

  registerRequestId(app);
  registerErrorHandling(app);
  registerRequestTargetCheck(app);
  registerValidationOrder(app);
  registerOptionalBodies(app);
  await registerOpenApi(app);
  // Before the routes, so that its request hook sees every one of them.
  registerMetrics(app, deps.metricsToken ?? null, services.metrics, services.metricSources);

  // Read at each probe: the `auto` matcher switches to the model once it is loaded.
  healthRoutes(app, database, () => ({ dedup: services.issueDedup.detectorName }));
  await app.register(apiV1, {
    prefix: API_PREFIX,
    services,
    rateLimitPerMinute: deps.rateLimitPerMinute ?? 0,
    publicUrl: deps.publicUrl ?? null,
  });
  await app.register(authPlugin, { prefix: AUTH_PREFIX, sessions: services.sessions, invitations: services.invitations, ssoSignIn: services.ssoSignIn, publicUrl: deps.publicUrl ?? null });
  await app.register(widgetV1, {
    prefix: WIDGET_PREFIX,
    services,
    rateLimitScale: deps.widgetRateLimitScale ?? 0,
    publicUrl: deps.publicUrl ?? null,
  });
  await app.register(widgetEmbed, {
    build: widgetBuild, widgets: services.widget, demo: services.widgetDemo, demoEverywhere: deps.widgetDemo ?? false, publicUrl: deps.publicUrl ?? null,
  });
  await app.register(helpCenterPages, { prefix: HELP_PREFIX, pages: services.helpPages, publicUrl: deps.publicUrl ?? null });
  if (deps.webAppDir !== undefined) await app.register(webApp, { root: deps.webAppDir });

  await app.ready();
  return app;
}
