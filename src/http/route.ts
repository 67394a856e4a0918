// How routes are mounted: the typed app, deprecated aliases served by the same handlers, and
// the check order "resource lookup (404) before validation (400)".
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifySchema, RawReplyDefaultExpression,
  RawRequestDefaultExpression, RawServerDefault,
} from 'fastify';

export type TypedApp = FastifyInstance<
  RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Throws not_found when the addressed resource does not exist. Runs before the request's
     * validation errors are reported, so a bad body sent to a missing resource is a 404.
     */
    ensureExists?: (request: FastifyRequest) => Promise<unknown>;
  }
}

export interface Mount {
  /** Where the resource lives on this mount, e.g. `/issues` or its alias, relative to /api/v1. */
  readonly path: string;
  /** The route's schema as this mount documents it (aliases are marked deprecated). */
  schema<S extends FastifySchema & { operationId: string }>(schema: S): S;
}

/**
 * Registers a resource's routes at `path` and, when given, again at the deprecated `aliasPath`
 * with the same handlers. Alias responses carry `Deprecation: true` and a `Link` to the same
 * path under its successor name, echoed as requested.
 */
export function mountWithAlias(
  app: TypedApp,
  path: string,
  aliasPath: string | null,
  define: (app: TypedApp, mount: Mount) => void,
): void {
  define(app, { path, schema: (schema) => schema });
  if (!aliasPath) return;
  app.register(async (scoped) => {
    const typed = scoped.withTypeProvider<TypeBoxTypeProvider>();
    // Paths are relative to the enclosing prefix (/api/v1); the Link names the full path.
    const prefix = scoped.prefix;
    typed.addHook('onSend', async (request, reply) => {
      const requested = request.url.split('?')[0];
      reply.header('Deprecation', 'true');
      reply.header('Link', `<${prefix}${path}${requested.slice(prefix.length + aliasPath.length)}>; rel="successor-version"`);
    });
    define(typed, {
      path: aliasPath,
      schema: (schema) => ({
        ...schema,
        operationId: `${schema.operationId}ViaDeprecatedAlias`,
        summary: `${schema.summary ?? ''} (deprecated alias of ${prefix}${path})`.trim(),
        tags: ['Deprecated aliases'],
        deprecated: true,
      }),
    });
  });
}

/**
 * Marks a route's schema whose JSON body may be left out: a request without one is validated as
 * `{}`, and the OpenAPI document says the body is not required (src/http/plugins/openapi.ts).
 */
export const OPTIONAL_BODY = 'x-optional-body';

export function registerOptionalBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if ((route.schema as Record<string, unknown> | undefined)?.[OPTIONAL_BODY] !== true) return;
    const fillEmptyBody = async (request: FastifyRequest) => {
      request.body ??= {};
    };
    route.preValidation = [...[route.preValidation ?? []].flat(), fillEmptyBody];
  });
}

/** Applies the check order of docs/api.md to every route: lookup (404) before validation (400). */
export function registerValidationOrder(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.attachValidation = true;
  });
  app.addHook('preHandler', async (request) => {
    if (!request.validationError) return;
    await request.routeOptions.config.ensureExists?.(request);
    throw request.validationError;
  });
}
