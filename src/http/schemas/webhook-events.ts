// The event payloads as the OpenAPI document's top-level `webhooks` (OpenAPI 3.1): one entry per
// event type, each a POST with the Standard Webhooks headers and `{ type, timestamp, data }`,
// `data` a reference to the resource's named schema (`<resource>WithPrevious` on `*.updated`).
import type { TObject } from '@sinclair/typebox';
// The types @fastify/swagger's own declarations use for the document.
import type { OpenAPIV3_1 } from 'openapi-types';
import { EVENT_TYPES, type EventType } from '../../events/event-types.js';
import { ConversationDetail, ConversationSlaBreach, MessageEvent } from './conversation.js';
import { Article } from './help-center.js';
import { Issue } from './issue.js';
import { Product } from './product.js';
import { ReleaseDetail } from './release.js';
import { Suggestion } from './suggestion.js';
import { withPrevious } from './webhook.js';

/** `shown`: where the API shows the resource as `data` carries it; its GET /api/v1 detail unless said. */
const RESOURCES: Record<string, { schema: TObject; noun: string; shown?: string }> = {
  product: { schema: Product, noun: 'a product' },
  issue: { schema: Issue, noun: 'an issue' },
  conversation: { schema: ConversationDetail, noun: 'a conversation' },
  message: { schema: MessageEvent, noun: 'a message' },
  release: { schema: ReleaseDetail, noun: 'a release' },
  suggestion: { schema: Suggestion, noun: 'a triage suggestion', shown: 'GET /api/v1/conversations/{id}/suggestions lists it' },
  article: { schema: Article, noun: 'a help center article' },
};

/** Events whose `data` is not the resource alone: what it is, and when the event is sent. */
const OWN_DATA: Partial<Record<EventType, { schema: TObject; when: string }>> = {
  'conversation.sla_breached': {
    schema: ConversationSlaBreach,
    when: 'a running SLA clock of a conversation passed its due time (once per clock run; docs/service-levels.md)',
  },
};

/** The `data` of `*.updated` events: the resources that can be updated, with `previous`. */
export const UPDATED_RESOURCES = [
  withPrevious(Product, { name: 'Acme App' }),
  withPrevious(Issue, { status: 'in_progress' }),
  withPrevious(ConversationDetail, { status: 'in_progress' }),
  withPrevious(ReleaseDetail, { released_at: null }),
  withPrevious(Suggestion, { status: 'open', updated_at: '2026-11-21T10:25:01.000Z' }),
  withPrevious(Article, { status: 'draft', published_at: null }),
];

const WHAT: Record<string, string> = {
  created: 'was created',
  updated: 'changed; `data.previous` holds the changed fields\' old values',
  published: 'was published (a release created with released_at or given one by PATCH; an article created or PATCHed with status published)',
};

const reference = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const header = (name: string, description: string, schema: OpenAPIV3_1.ParameterObject['schema']): OpenAPIV3_1.ParameterObject =>
  ({ name, in: 'header', required: true, description, schema });

const SIGNATURE_HEADERS = [
  header('webhook-id', 'The delivery id: one per event and endpoint, the same on every retry (deduplicate on it)', { type: 'string', format: 'uuid' }),
  header('webhook-timestamp', 'When this attempt was signed, in Unix seconds', { type: 'string', pattern: '^[0-9]+$' }),
  header('webhook-signature', '`v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the secret after `whsec_`', {
    type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+$',
  }),
];

function eventEntry(type: EventType): OpenAPIV3_1.PathItemObject {
  const [resource, action] = type.split('.');
  const { schema, noun, shown = 'its GET /api/v1 detail returned it' } = RESOURCES[resource];
  const own = OWN_DATA[type];
  const data = own ? own.schema.$id! : action === 'updated' ? `${schema.$id}WithPrevious` : schema.$id!;
  const camelAction = action.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return {
    post: {
      operationId: `${resource}${camelAction}Event`,
      tags: ['Webhook events'],
      summary: type,
      description: `Sent to each enabled endpoint subscribed to \`${type}\` (or \`*\`) when ${own ? own.when : `${noun} ${WHAT[action]}`}.`,
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['type', 'timestamp', 'data'],
              properties: {
                type: { type: 'string', enum: [type] },
                timestamp: { type: 'string', format: 'date-time', description: 'When the change was recorded' },
                data: { ...reference(data), description: own ? own.schema.description : `The ${resource} as ${shown} after the change` },
                actor: {
                  type: 'object', additionalProperties: false, required: ['type', 'id'],
                  description: '[ext] Who made the change, where known: an automation rule, or who ran a macro (docs/automation.md)',
                  properties: { type: { type: 'string', enum: ['rule', 'member', 'api_key'] }, id: { type: 'string', format: 'uuid' } },
                },
              },
            },
          },
        },
      },
      responses: {
        '200': { description: 'Any 2xx within the timeout (10 s) acknowledges the delivery' },
        '400': { description: 'Any other answer, or none in time, is a failure: the delivery is retried on the schedule' },
      },
    },
  };
}

/** The document's `webhooks`: one entry per event type. */
export const WEBHOOK_EVENTS: Record<string, OpenAPIV3_1.PathItemObject> = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventEntry(type)]));
