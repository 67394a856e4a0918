import { Type } from '@sinclair/typebox';
import { publicOrigin } from '../origin.js';
import type { DiscoveryDocuments } from '../plugins/openapi.js';
import type { TypedApp } from '../route.js';
import { errorResponses } from '../schemas/common.js';

export function discoveryRoutes(app: TypedApp, documents: DiscoveryDocuments): void {
  app.get('/openapi.json', {
    schema: {
      operationId: 'getOpenApiDocument',
      tags: ['Discovery'],
      summary: 'The OpenAPI 3.1 description of this API',
      description: 'Generated from the route schemas; every route, its parameters, bodies, responses and errors.',
      response: {
        200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document' }),
        ...errorResponses(),
      },
    },
    // Without a Host header (HTTP/1.0) the origin is unknown: `/` names the server the document came from.
    handler: async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(documents.json(publicOrigin(request, null) || '/')),
  });

  app.get('/llms.txt', {
    schema: {
      operationId: 'getLlmsTxt',
      tags: ['Discovery'],
      summary: 'A plain-text summary of this API for language models',
      description: 'What the service is, how to authenticate, the envelopes and every endpoint, as text/plain.',
      response: {
        200: { description: 'The summary', content: { 'text/plain': { schema: Type.String() } } },
        ...errorResponses(),
      },
    },
    handler: async (_request, reply) => reply.type('text/plain; charset=utf-8').send(documents.text()),
  });
}
