import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { SlaPolicyService } from '../../domain/service-levels/sla-policy.service.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { CreateSlaPolicyBody, SlaPolicy, UpdateSlaPolicyBody } from '../schemas/service-levels.js';

const PolicyParams = IdParams('SLA policy id (UUID)');
const TAGS = ['SLA policies'];
const WRITERS = ' Needs an owner or admin key or session, or a key without a member (403 otherwise).';

/** [ext] SLA policies: everyone reads them, the settings role writes them (docs/service-levels.md). */
export function slaPolicyRoutes(app: TypedApp, policies: SlaPolicyService): void {
  // Right after authentication, like the settings plugins' hook: an agent gets 403 before any lookup or validation.
  const writer = { onRequest: async (request: FastifyRequest) => policies.authorizeWrite(request.actor) };
  const ensureExists = (request: FastifyRequest) => policies.ensureExists(request.actor, (request.params as { id: string }).id);

  app.get('/sla-policies', {
    schema: {
      operationId: 'listSlaPolicies', tags: TAGS, summary: '[ext] List SLA policies',
      description: 'The workspace\'s SLA policies in the order they are tried: position (then created_at, then id).',
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(SlaPolicy, 'A page of SLA policies'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await policies.list(request.actor, page), page);
    },
  });

  app.post('/sla-policies', {
    ...writer,
    schema: {
      operationId: 'createSlaPolicy', tags: TAGS, summary: '[ext] Create an SLA policy',
      description: 'Targets (at least one) for the conversations its conditions match, in a calendar or round the clock. It goes ' +
        `to the end of the order, or to \`position\` (the policies from there on move down one).${WRITERS}`,
      body: CreateSlaPolicyBody,
      response: { 201: DataOf(SlaPolicy, 'The created SLA policy'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await policies.create(request.actor, request.body) };
    },
  });

  app.get('/sla-policies/:id', {
    schema: {
      operationId: 'getSlaPolicy', tags: TAGS, summary: '[ext] Get an SLA policy',
      description: 'One SLA policy.',
      params: PolicyParams,
      response: { 200: DataOf(SlaPolicy, 'The SLA policy'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await policies.get(request.actor, request.params.id) }),
  });

  app.patch('/sla-policies/:id', {
    ...writer,
    schema: {
      operationId: 'updateSlaPolicy', tags: TAGS, summary: '[ext] Update an SLA policy',
      description: 'Changes the fields given (`conditions` replaced whole); a new `position` moves it there and shifts the policies ' +
        `between its old and new places by one. updated_at changes only when a value changes.${WRITERS}`,
      params: PolicyParams,
      body: UpdateSlaPolicyBody,
      response: { 200: DataOf(SlaPolicy, 'The updated SLA policy'), ...writeErrors(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await policies.update(request.actor, request.params.id, request.body) }),
  });

  app.delete('/sla-policies/:id', {
    ...writer,
    schema: {
      operationId: 'deleteSlaPolicy', tags: TAGS, summary: '[ext] Delete an SLA policy',
      description: `Deletes it; the policies after it move up one place.${WRITERS}`,
      params: PolicyParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await policies.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });
}
