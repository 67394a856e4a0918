import { Type, type TObject } from '@sinclair/typebox';
import { PREVIOUS_SECRET_DEFAULT_SECONDS, PREVIOUS_SECRET_MAX_SECONDS, WEBHOOK_DELIVERY_STATUSES } from '../../domain/webhooks/webhook.service.js';
import { EVENT_TYPES } from '../../events/event-types.js';
import { CsvFilter, Nullable, PageQuery, StringEnum, Timestamp, Uuid } from './common.js';

const Subscription = StringEnum(['*', ...EVENT_TYPES]);
const Events = Type.Union(
  [
    Type.Array(Type.Literal('*'), { minItems: 1, maxItems: 1, description: 'Every event type, those added later included' }),
    Type.Array(StringEnum(EVENT_TYPES), { minItems: 1, maxItems: 50, description: 'These event types; repeats are ignored' }),
  ],
  { description: 'The events to receive: ["*"] for all of them, or a list of event types' },
);
const Url = Type.String({
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  maxLength: 2048,
  description:
    'Where deliveries are POSTed: an http:// or https:// URL that must not lead to a loopback, private, link-local, ' +
    'metadata or other reserved address (checked now and at every attempt), unless the server allows private addresses',
});
const Description = Nullable(Type.String({ maxLength: 500 }), { description: 'A note for people, max 500 characters; null clears it' });

const endpointFields = {
  id: Uuid(),
  url: Type.String(),
  events: Type.Array(Subscription),
  description: Nullable(Type.String()),
  enabled: Type.Boolean({ description: 'A disabled endpoint gets no new events, and its pending deliveries wait until it is enabled again' }),
  previous_secret_expires_at: Nullable(Timestamp(
    'Until when the secret before the last rotation still signs every attempt too (a second signature in webhook-signature); ' +
      'null when only the current secret signs',
  )),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};

const example = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80d1', url: 'https://hooks.example.com/loopdesk', events: ['issue.created', 'issue.updated'],
  description: 'Issue sync', enabled: true, previous_secret_expires_at: null, created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
};
const EXAMPLE_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7K8dEJnqSjw=';

export const WebhookEndpoint = Type.Object(endpointFields, {
  $id: 'WebhookEndpoint', additionalProperties: false, description: 'A webhook endpoint (its secret is never shown here)', examples: [example],
});

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description: '`whsec_` + base64 of 32 random bytes: the Standard Webhooks signing secret. Shown only on create and rotate-secret',
    }),
  },
  {
    $id: 'WebhookEndpointWithSecret', additionalProperties: false, description: 'A webhook endpoint with its signing secret',
    examples: [{ ...example, secret: EXAMPLE_SECRET }],
  },
);

export const WebhookDelivery = Type.Object(
  {
    id: Uuid('Also the `webhook-id` header of every attempt'),
    event_id: Uuid(),
    event_type: StringEnum(EVENT_TYPES),
    status: StringEnum(WEBHOOK_DELIVERY_STATUSES, { description: 'pending: an attempt is due or in flight; failed: every retry failed' }),
    attempts: Type.Integer({ description: 'Attempts made so far' }),
    last_status_code: Nullable(Type.Integer(), { description: 'The HTTP status of the last answer; null when none came' }),
    last_error: Nullable(Type.String(), { description: 'Why the last attempt failed; null after a success or before any attempt' }),
    next_attempt_at: Nullable(Timestamp('When the next attempt is due (pending); null once succeeded or failed')),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'WebhookDelivery', additionalProperties: false, description: 'One event sent to one endpoint, with its attempts',
    examples: [{
      id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80e1', event_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80f1', event_type: 'issue.created',
      status: 'pending', attempts: 1, last_status_code: 503, last_error: 'HTTP 503', next_attempt_at: '2026-11-21T10:25:35.000Z',
      created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:05.000Z',
    }],
  },
);

export const CreateWebhookBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description) },
  { additionalProperties: false, examples: [{ url: 'https://hooks.example.com/loopdesk', events: ['*'], description: 'Everything' }] },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ description: 'false pauses the endpoint' })),
  },
  { additionalProperties: false, examples: [{ enabled: false }] },
);

export const RotateSecretQuery = Type.Object({
  previous_secret_expires_in: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: PREVIOUS_SECRET_MAX_SECONDS,
    description:
      `Seconds the replaced secret keeps signing beside the new one, so the receiver can be updated without failing a delivery: ` +
      `0 (stops at once: a leaked secret) to ${PREVIOUS_SECRET_MAX_SECONDS} (7 days); ${PREVIOUS_SECRET_DEFAULT_SECONDS} (a day) when omitted`,
  })),
});

export const DeliveryListQuery = Type.Object({
  status: Type.Optional(CsvFilter('Only deliveries in these statuses', WEBHOOK_DELIVERY_STATUSES)),
  ...PageQuery,
});

/**
 * A resource with `previous`, the changed fields' old values: the `data` of its `*.updated`
 * events, named `<resource>WithPrevious`; `previous` is what the example shows as changed.
 */
export function withPrevious(resource: TObject, previous: Record<string, unknown>) {
  const [example] = resource.examples as Record<string, unknown>[];
  return Type.Object(
    {
      ...resource.properties,
      previous: Type.Partial(Type.Object(resource.properties, { additionalProperties: false }), {
        description: 'The fields this change changed, with their values before it',
      }),
    },
    {
      $id: `${resource.$id}WithPrevious`, additionalProperties: false, description: `${resource.description}, and what the change changed`,
      examples: [{ ...example, previous }],
    },
  );
}
