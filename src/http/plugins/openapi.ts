// The OpenAPI 3.1 document, collected by @fastify/swagger from the route schemas, and the
// plain-text llms.txt derived from that same document. Nobody writes either by hand.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SHARED_SCHEMAS } from '../schemas/shared.js';
import { SESSION_COOKIE } from '../session-cookie.js';
import { WEBHOOK_EVENTS } from '../schemas/webhook-events.js';
import { WIDGET_SCHEMAS } from '../widget/schemas.js';
import { OPTIONAL_BODY } from '../route.js';
import { declaringNulRefusal } from '../validation.js';
import { renderLlmsTxt } from './llms-txt.js';

export const API_DESCRIPTION = [
  'Loopdesk is a self-hosted customer support platform. A workspace keeps products, conversations',
  'with customers (tickets, ideas, feedback, chats) and their messages, issues distilled from them',
  '(shortcodes like APP-12, a status flow, priority, assignee) and releases that ship done issues.',
  '',
  'Authenticate every request under /api/v1 with `Authorization: Bearer ldk_…`; a key belongs to one',
  'workspace and everything it reads or writes is confined to that workspace. [ext] The team app signs',
  'people in under /auth (tag Sessions) and sends its session cookie instead; such requests other than',
  'GET and HEAD must carry an Origin header of this server.',
  '',
  'Single resources come as `{ data }`, lists as `{ data, pagination: { total, limit, offset } }`',
  '(limit 1–200, default 50; offset ≥ 0), errors as `{ error_code, detail, fields? }` with',
  'error_code unauthorized (401), forbidden (403), not_found (404; 405 with an Allow header for a method',
  'the path does not serve), validation_error (400, 413, 415) or internal_error (500; 503 with Retry-After when the database stayed busy). Request bodies',
  'are JSON; unknown body fields are rejected, and so is U+0000 (NUL) in any string or key of a body (a',
  '400 on that field; each body string\'s `pattern` says so). Timestamps are ISO 8601 UTC with',
  'milliseconds. Every response carries X-Request-Id.',
  '',
  'Rate limit [ext]: each API key has a token bucket of LOOPDESK_RATE_LIMIT requests per minute',
  '(default 6000). Responses carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds',
  'until the bucket is full); an empty bucket answers 429 with error_code forbidden, a detail saying',
  'the rate limit was exceeded, and Retry-After (seconds until the next request is accepted).',
  '',
  'Retries [ext]: send `Idempotency-Key: <1–255 printable ASCII chars>` on any POST. A retry with the',
  'same key and the same body within 24 h (per API key) returns the first response, status and body,',
  'with `Idempotent-Replayed: true` and without writing again; a retry sent while the first request is',
  'still running waits for it. The same key with a different method, path or body is a 400',
  'validation_error with fields["idempotency-key"]. Only 2xx responses are stored, so after a 4xx or',
  '5xx the corrected request can be retried with the same key.',
].join('\n');

/** The terms the software (and so this document) is distributed under: package.json's `license`. */
const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Loopdesk-Proprietary' };

export const WIDGET_DESCRIPTION = [
  'The public API of the Loopdesk widget: what a product\'s visitors use, from the embeddable widget or',
  'any client of their own. Every path starts with the product\'s widget_key; no API key plays a part.',
  '',
  'Visitors start a session (POST /sessions: anonymous, with an email, or vouched for by an identity',
  'token the host site signs) and send its token as `Authorization: Bearer wst_…`. Without a session',
  'only the configuration, proof-of-work challenges, public ideas, forms and the changelog are',
  'reachable. With proof_of_work on, POST /sessions and POST /forms need a solved ALTCHA challenge.',
  '',
  'Same envelopes, error codes and body rules (no U+0000 in a string or key) as /api/v1; every response',
  'carries X-Request-Id. A method a path does not serve is a 405 with Allow. An unknown widget',
  'key is 404; a disabled widget, or an Origin outside the product\'s domain, is 403. Each client',
  'address may start 10 sessions, make 30 writes and 120 reads per minute and widget key (429 with',
  'Retry-After beyond). docs/widget.md describes the security model.',
].join('\n');

/** Named schemas only the widget API uses: in the widget's document, not the API's. */
const WIDGET_SCHEMA_NAMES = new Set(WIDGET_SCHEMAS.map((schema) => schema.$id!));

const WIDGET_SESSION_SCHEME = {
  type: 'http' as const,
  scheme: 'bearer',
  bearerFormat: 'wst_ followed by 40 base62 characters',
  description: 'A visitor session token from POST /widget/v1/{widget_key}/sessions',
};

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of [...SHARED_SCHEMAS, ...WIDGET_SCHEMAS]) app.addSchema(schema);
  await app.register(swagger, {
    // Named schemas keep their $id as their name in components.schemas.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // Body strings state the NUL refusal validation applies to every body (src/http/validation.ts).
    transform: ({ schema, url }) => ({ schema: schema?.body ? { ...schema, body: declaringNulRefusal(schema.body as Record<string, unknown>) } : schema, url }),
    transformObject: (document) => withOptionalBodies((document as { openapiObject: Json }).openapiObject),
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Loopdesk API', version: '1.0.0', description: API_DESCRIPTION, license: LICENSE },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'ldk_ followed by 40 base62 characters',
            description: 'An API key issued with `loopdesk key create` (the first start prints one).',
          },
          widgetSession: WIDGET_SESSION_SCHEME,
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description:
              '[ext] The team app\'s session, set by POST /auth/sign-in. With it, every request but GET and HEAD must carry an ' +
              'Origin header of this server (403 otherwise). An Authorization header, when present, wins over the cookie.',
          },
        },
      },
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
      // What Loopdesk sends to webhook endpoints (docs/events.md).
      webhooks: WEBHOOK_EVENTS,
    },
  });
}

/** Operations marked OPTIONAL_BODY: their request body becomes optional, and the mark goes. */
function withOptionalBodies<T extends Json>(document: T): T {
  for (const operations of Object.values(document.paths ?? {}) as Json[]) {
    for (const operation of Object.values(operations) as Json[]) {
      if (operation[OPTIONAL_BODY] !== true) continue;
      delete operation[OPTIONAL_BODY];
      operation.requestBody.required = false;
    }
  }
  return document;
}

export interface DiscoveryDocuments {
  /** The OpenAPI document whose `servers` names `origin` (the public URL when configured). */
  json(origin: string): string;
  text(): string;
}

type Json = Record<string, any>;

/** The names of the component schemas `value` refers to, directly or through other components. */
function referencedSchemas(value: unknown, schemas: Json): Set<string> {
  const found = new Set<string>();
  const pending = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null) continue;
    const ref = (current as Json).$ref;
    const name = typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : null;
    if (name !== null && !found.has(name)) {
      found.add(name);
      pending.push(schemas[name]);
    }
    pending.push(...Object.values(current));
  }
  return found;
}

const WIDGET_PATHS = '/widget/v1/';
const pathsWhere = (document: Json, keep: (path: string) => boolean): Json =>
  Object.fromEntries(Object.entries(document.paths as Json).filter(([path]) => keep(path)));

/**
 * One collected document (every route) split by surface: the API's (/api/v1 and /auth), for key
 * holders and the team app, with the webhooks and without the widget's schemas and scheme; and the
 * widget API's own.
 */
function documentOf(full: Json, surface: 'api' | 'widget'): Json {
  const { schemas, securitySchemes } = full.components;
  if (surface === 'api') {
    const { widgetSession: _widgetOnly, ...apiSchemes } = securitySchemes;
    const apiSchemas = Object.fromEntries(Object.entries(schemas as Json).filter(([name]) => !WIDGET_SCHEMA_NAMES.has(name)));
    const paths = pathsWhere(full, (path) => !path.startsWith(WIDGET_PATHS));
    return { ...full, paths, components: { ...full.components, schemas: apiSchemas, securitySchemes: apiSchemes } };
  }
  const paths = pathsWhere(full, (path) => path.startsWith(WIDGET_PATHS));
  const used = referencedSchemas(paths, schemas);
  return {
    openapi: full.openapi,
    info: { title: 'Loopdesk widget API', version: '1.0.0', description: WIDGET_DESCRIPTION, license: LICENSE },
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas as Json).filter(([name]) => used.has(name))),
      securitySchemes: { widgetSession: securitySchemes.widgetSession },
    },
  };
}

/**
 * A surface's document and its text summary, computed once after all routes are registered.
 * `servers` is the configured public URL, else the origin the client reached this server at.
 */
export function discoveryDocuments(app: FastifyInstance, publicUrl: string | null, surface: 'api' | 'widget' = 'api'): DiscoveryDocuments {
  let cached: { document: Json; text: string; fixedJson: string | null } | null = null;
  const load = () => {
    if (!cached) {
      const document = documentOf(app.swagger() as unknown as Json, surface);
      cached = { document, text: renderLlmsTxt(document as never), fixedJson: publicUrl === null ? null : serialize(document, publicUrl) };
    }
    return cached;
  };
  return {
    json: (origin) => load().fixedJson ?? serialize(load().document, origin),
    text: () => load().text,
  };
}

/** `servers` goes right after `info`, where readers look for it. */
function serialize(document: Json, origin: string): string {
  const { openapi, info, ...rest } = document;
  return JSON.stringify({ openapi, info, servers: [{ url: origin, description: 'This Loopdesk server' }], ...rest });
}
