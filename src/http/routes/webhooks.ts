import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookService } from '../../domain/webhooks/webhook.service.js';
import { enumFilter } from '../filters.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import {
  CreateWebhookBody, DeliveryListQuery, RotateSecretQuery, UpdateWebhookBody, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret,
} from '../schemas/webhook.js';

const WebhookParams = IdParams('Webhook endpoint id (UUID)');
const DeliveryParams = Type.Object(
  { id: Type.String({ description: 'Webhook endpoint id (UUID)' }), delivery_id: Type.String({ description: 'Delivery id (UUID)' }) },
  { additionalProperties: false },
);
const TAGS = ['Webhooks'];
const SETTINGS = ' Needs an owner or admin key, or a key without a member (403 otherwise).';

/**
 * Webhook endpoints and deliveries, a settings operation. Register it as its own plugin: its hook
 * checks the role right after authentication, for its routes only, so an agent's key gets 403
 * before any lookup (404) or validation (400), as a read-only key does.
 */
export async function webhookRoutes(app: TypedApp, webhooks: WebhookService): Promise<void> {
  app.addHook('onRequest', async (request) => webhooks.authorize(request.actor));
  const endpointExists = (request: FastifyRequest) => webhooks.find(request.actor, (request.params as { id: string }).id);

  app.get('/webhooks', {
    schema: {
      operationId: 'listWebhooks', tags: TAGS, summary: '[ext] List webhook endpoints',
      description: `The workspace's webhook endpoints, ordered by created_at ascending (never their secrets).${SETTINGS}`,
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(WebhookEndpoint, 'A page of webhook endpoints'), ...errorResponses(403) },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await webhooks.list(request.actor, page), page);
    },
  });

  app.post('/webhooks', {
    schema: {
      operationId: 'createWebhook', tags: TAGS, summary: '[ext] Create a webhook endpoint',
      description:
        'Subscribes a URL to events. The answer holds the signing secret, shown only here and by rotate-secret. ' +
        `Deliveries follow the Standard Webhooks specification (docs/events.md).${SETTINGS}`,
      body: CreateWebhookBody,
      response: { 201: DataOf(WebhookEndpointWithSecret, 'The created endpoint with its secret'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await webhooks.create(request.actor, request.body) };
    },
  });

  app.get('/webhooks/:id', {
    schema: {
      operationId: 'getWebhook', tags: TAGS, summary: '[ext] Get a webhook endpoint',
      description: `One webhook endpoint (never its secret).${SETTINGS}`,
      params: WebhookParams,
      response: { 200: DataOf(WebhookEndpoint, 'The endpoint'), ...errorResponses(403, 404) },
    },
    handler: async (request) => ({ data: await webhooks.get(request.actor, request.params.id) }),
  });

  app.patch('/webhooks/:id', {
    schema: {
      operationId: 'updateWebhook', tags: TAGS, summary: '[ext] Update a webhook endpoint',
      description: `Changes url, events, description or enabled (false pauses the endpoint).${SETTINGS}`,
      params: WebhookParams,
      body: UpdateWebhookBody,
      response: { 200: DataOf(WebhookEndpoint, 'The updated endpoint'), ...writeErrors(404) },
    },
    config: { ensureExists: endpointExists },
    handler: async (request) => ({ data: await webhooks.update(request.actor, request.params.id, request.body) }),
  });

  app.delete('/webhooks/:id', {
    schema: {
      operationId: 'deleteWebhook', tags: TAGS, summary: '[ext] Delete a webhook endpoint',
      description: `Deletes the endpoint and its deliveries; attempts stop.${SETTINGS}`,
      params: WebhookParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await webhooks.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });

  app.post('/webhooks/:id/rotate-secret', {
    schema: {
      operationId: 'rotateWebhookSecret', tags: TAGS, summary: '[ext] Rotate a webhook endpoint\'s secret',
      description:
        'Replaces the signing secret: every attempt from now on, retries included, is signed with the new one, and for ' +
        '`previous_secret_expires_in` seconds (a day by default) with the replaced one too, so a receiver that still has ' +
        `it keeps verifying while it is updated. A secret from an earlier rotation stops signing.${SETTINGS}`,
      params: WebhookParams,
      querystring: RotateSecretQuery,
      response: { 200: DataOf(WebhookEndpointWithSecret, 'The endpoint with its new secret'), ...writeErrors(404) },
    },
    handler: async (request) => ({
      data: await webhooks.rotateSecret(request.actor, request.params.id, request.query.previous_secret_expires_in),
    }),
  });

  app.get('/webhooks/:id/deliveries', {
    schema: {
      operationId: 'listWebhookDeliveries', tags: TAGS, summary: '[ext] List an endpoint\'s deliveries',
      description: `The endpoint's deliveries (one per event), ordered by created_at descending, optionally by status.${SETTINGS}`,
      params: WebhookParams,
      querystring: DeliveryListQuery,
      response: { 200: ListOf(WebhookDelivery, 'A page of deliveries'), ...errorResponses(403, 404) },
    },
    config: { ensureExists: endpointExists },
    handler: async (request) => {
      const page = pageOf(request.query);
      const statuses = enumFilter('status', request.query.status, WEBHOOK_DELIVERY_STATUSES);
      return listBody(await webhooks.deliveries(request.actor, request.params.id, { statuses }, page), page);
    },
  });

  app.post('/webhooks/:id/deliveries/:delivery_id/retry', {
    schema: {
      operationId: 'retryWebhookDelivery', tags: TAGS, summary: '[ext] Retry a delivery',
      description:
        'Queues the delivery again, due now (status pending), whatever its status: one more attempt, then the ' +
        `schedule's remaining retries if it fails.${SETTINGS}`,
      params: DeliveryParams,
      response: { 202: DataOf(WebhookDelivery, 'The delivery, queued'), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      reply.code(202);
      return { data: await webhooks.retryDelivery(request.actor, request.params.id, request.params.delivery_id) };
    },
  });
}
