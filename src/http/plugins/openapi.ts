// The OpenAPI 3.1 document, collected by @fastify/swagger from the route schemas, and the
// plain-text llms.txt derived from that same document. Nobody writes either by hand.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { renderLlmsTxt } from './llms-txt.js';

export const API_DESCRIPTION = [
  'Loopdesk is a self-hosted customer support platform. A workspace keeps products, conversations',
  'with customers (tickets, ideas, feedback, chats) and their messages, issues distilled from them',
  '(shortcodes like APP-12, a status flow, priority, assignee) and releases that ship done issues.',
  '',
  'Authenticate every request under /api/v1 with `Authorization: Bearer ldk_…`; a key belongs to one',
  'workspace and everything it reads or writes is confined to that workspace.',
  '',
  'Single resources come as `{ data }`, lists as `{ data, pagination: { total, limit, offset } }`',
  '(limit 1–200, default 50; offset ≥ 0), errors as `{ error_code, detail, fields? }` with',
  'error_code unauthorized (401), forbidden (403), not_found (404), validation_error (400, 413, 415)',
  'or internal_error (500). Request bodies are JSON; unknown body fields are rejected. Timestamps are',
  'ISO 8601 UTC with milliseconds. Every response carries X-Request-Id.',
].join('\n');

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Loopdesk API', version: '1.0.0', description: API_DESCRIPTION },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'ldk_ followed by 40 base62 characters',
            description: 'An API key issued with `loopdesk key create` (the first start prints one).',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
  });
}

/** The document and its text summary, computed once after all routes are registered. */
export function discoveryDocuments(app: FastifyInstance) {
  let cached: { json: string; text: string } | null = null;
  return () => {
    if (!cached) {
      const document = app.swagger() as unknown as Record<string, unknown>;
      cached = { json: JSON.stringify(document), text: renderLlmsTxt(document as never) };
    }
    return cached;
  };
}
