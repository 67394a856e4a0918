// The OpenAPI 3.1 document, collected by @fastify/swagger from the route schemas, and the
// plain-text llms.txt derived from that same document. Nobody writes either by hand.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SHARED_SCHEMAS } from '../schemas/shared.js';
import { SESSION_COOKIE } from '../session-cookie.js';
import { WEBHOOK_EVENTS } from '../schemas/webhook-events.js';
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
  'error_code unauthorized (401), forbidden (403), not_found (404), validation_error (400, 413, 415)',
  'or internal_error (500). Request bodies are JSON; unknown body fields are rejected. Timestamps are',
  'ISO 8601 UTC with milliseconds. Every response carries X-Request-Id.',
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

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    // Named schemas keep their $id as their name in components.schemas.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
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

export interface DiscoveryDocuments {
  /** The OpenAPI document whose `servers` names `origin` (the public URL when configured). */
  json(origin: string): string;
  text(): string;
}

/**
 * The document and its text summary, computed once after all routes are registered. `servers`
 * is the configured public URL, else the origin the client reached this server at.
 */
export function discoveryDocuments(app: FastifyInstance, publicUrl: string | null): DiscoveryDocuments {
  let cached: { document: Record<string, unknown>; text: string; fixedJson: string | null } | null = null;
  const load = () => {
    if (!cached) {
      const document = app.swagger() as unknown as Record<string, unknown>;
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
function serialize(document: Record<string, unknown>, origin: string): string {
  const { openapi, info, ...rest } = document;
  return JSON.stringify({ openapi, info, servers: [{ url: origin, description: 'This Loopdesk server' }], ...rest });
}
