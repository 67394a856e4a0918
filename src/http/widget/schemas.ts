// TypeBox schemas of the widget API (docs/widget.md): what visitors send and what they are shown.
// Named schemas (with a $id) are listed in WIDGET_SCHEMAS and appear in /widget/v1/openapi.json only.
import { Type } from '@sinclair/typebox';
import { MESSAGE_BODY_MAX } from '../../domain/conversations/conversation.service.js';
import { CONVERSATION_STATUSES, CONVERSATION_TYPES, SENDER_TYPES } from '../../domain/shared/enums.js';
import { FORM_FIELDS_MAX_BYTES, VISITOR_TITLE_MAX } from '../../domain/widget/visitor.shapes.js';
import { WIDGET_ARTICLE_SCHEMAS } from './article-schemas.js';
import { NOT_BLANK, Nullable, PageQuery, Ref, StringEnum, Timestamp, TrimmedString, Uuid, errorResponsesOf } from '../schemas/common.js';

const T = '2026-11-21T10:25:00.000Z';
const EXAMPLE_IDS = { conversation: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1', message: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80c1', contact: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80a1' };

/** The widget key of every path: it names the product, and so the workspace. */
export const WidgetKeyParams = Type.Object(
  { widget_key: Type.String({ description: "The product's widget_key (`wk_` + 24 base62 characters)", examples: ['wk_3fG7hJ2kL9mN4pQ8rS1tU6vW'] }) },
  { additionalProperties: false },
);
export const WidgetItemParams = Type.Object(
  { ...WidgetKeyParams.properties, id: Type.String({ description: 'Conversation id (UUID)' }) },
  { additionalProperties: false },
);

export const WidgetConfig = Type.Object(
  {
    product: Type.Object({ name: Type.String() }, { additionalProperties: false }),
    greeting: Nullable(Type.String(), { description: 'widget_config.greeting; null when not set' }),
    color: Nullable(Type.String({ pattern: '^#[0-9a-fA-F]{3,8}$' }), { description: 'widget_config.color when it is a CSS hex colour; else null' }),
    require_identity: Type.Boolean({ description: 'POST /sessions needs an identity_token signed by the host site' }),
    proof_of_work: Type.Boolean({ description: 'POST /sessions and POST /forms need a solved challenge (altcha)' }),
    ideas_public: Type.Boolean({ description: 'GET /ideas works without a session' }),
  },
  {
    $id: 'WidgetConfig', additionalProperties: false, description: 'What the widget shows and asks for',
    examples: [{ product: { name: 'Acme Mobile App' }, greeting: 'Hi! How can we help?', color: '#3366ff', require_identity: false, proof_of_work: true, ideas_public: true }],
  },
);

export const AltchaChallenge = Type.Object(
  {
    algorithm: Type.Literal('SHA-256'),
    challenge: Type.String({ description: 'Hex SHA-256 of salt + the hidden number' }),
    salt: Type.String({ description: 'Carries the expiry (`?expires=<unix seconds>&`): 20 minutes' }),
    signature: Type.String({ description: 'HMAC of the challenge with a key only the server knows' }),
    maxnumber: Type.Integer({ description: 'The hidden number is at most this' }),
  },
  {
    $id: 'AltchaChallenge', additionalProperties: false,
    description: 'A proof-of-work challenge in the ALTCHA format. Find the number n ≤ maxnumber with SHA-256(salt + n) = challenge, then send ' +
      'base64(JSON {algorithm, challenge, number, salt, signature}) as `altcha`; each solution is accepted once',
    examples: [{ algorithm: 'SHA-256', challenge: 'a8a9d11e…', salt: '8b196ead4cef049d2fd24d40?expires=1795441749&', signature: '2f85de73…', maxnumber: 100000 }],
  },
);

const Altcha = Type.String({ maxLength: 4096, description: 'The base64 ALTCHA payload of a solved challenge (GET /challenge); required when proof_of_work is on' });
const Name = Type.String({ maxLength: 200, pattern: NOT_BLANK, description: 'Trimmed; not blank' });
const Email = Type.String({ format: 'email', maxLength: 320, description: 'Stored lowercased' });

export const StartSessionBody = Type.Object(
  {
    name: Type.Optional(Name),
    email: Type.Optional(Email),
    identity_token: Type.Optional(Type.String({
      minLength: 1, maxLength: 8192,
      description: 'A JWT (HS256) the host site signed with the product\'s identity secret: sub, aud (the widget key) and exp (at most 24 h ahead) required',
    })),
    altcha: Type.Optional(Altcha),
  },
  { additionalProperties: false, examples: [{ name: 'Ada', email: 'ada@example.com', altcha: 'eyJhbGdvcml0aG0iOiJTSEEtMjU2Ii…' }] },
);

export const SessionContact = Type.Object(
  {
    id: Uuid('The verified visitor\'s contact; for an anonymous or unverified visitor, this session\'s own id (whether the typed email is known is not told)'),
    name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    verified: Type.Boolean({ description: 'true when an identity token vouched for the visitor' }),
  },
  { $id: 'WidgetSessionContact', additionalProperties: false, description: 'Who the session speaks as (for an unverified visitor: what they typed)' },
);

export const WidgetSession = Type.Object(
  {
    token: Type.String({ description: '`wst_` + 40 base62 characters; send as `Authorization: Bearer wst_…`. Shown only here' }),
    expires_at: Timestamp('The session stays valid until 30 days after its last use; this is that moment as of now'),
    contact: Ref(SessionContact),
  },
  {
    $id: 'WidgetSession', additionalProperties: false, description: 'A visitor session',
    examples: [{ token: 'wst_Q2x8…', expires_at: T, contact: { id: EXAMPLE_IDS.contact, name: 'Ada', email: 'ada@example.com', verified: false } }],
  },
);

const EXAMPLE_MESSAGE = { id: EXAMPLE_IDS.message, sender_type: 'contact', sender_name: 'Ada', body: 'The export button does nothing.', created_at: T };

export const VisitorMessage = Type.Object(
  {
    id: Uuid(),
    sender_type: StringEnum(SENDER_TYPES, { description: 'contact (the visitor), agent (the team) or system' }),
    sender_name: Nullable(Type.String()),
    body: Type.String(),
    created_at: Timestamp(),
  },
  { $id: 'VisitorMessage', additionalProperties: false, description: 'A message as the visitor sees it', examples: [EXAMPLE_MESSAGE] },
);

const visitorConversationFields = {
  id: Uuid(),
  type: StringEnum(CONVERSATION_TYPES),
  status: StringEnum(CONVERSATION_STATUSES),
  title: Type.String(),
  rating: Nullable(Type.Integer({ minimum: 1, maximum: 5 })),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};
const EXAMPLE_CONVERSATION = { id: EXAMPLE_IDS.conversation, type: 'chat', status: 'open', title: 'The export button does nothing.', rating: null, created_at: T, updated_at: T };

export const VisitorConversationSummary = Type.Object(visitorConversationFields, {
  $id: 'VisitorConversationSummary', additionalProperties: false, description: 'A conversation of the visitor, in a list', examples: [EXAMPLE_CONVERSATION],
});

export const VisitorConversation = Type.Object(
  { ...visitorConversationFields, messages: Type.Array(Ref(VisitorMessage), { description: 'Oldest first' }) },
  {
    $id: 'VisitorConversation', additionalProperties: false, description: 'A conversation as the visitor sees it, with its messages',
    examples: [{ ...EXAMPLE_CONVERSATION, messages: [EXAMPLE_MESSAGE] }],
  },
);

const MessageBody = Type.String({
  minLength: 1, pattern: NOT_BLANK, maxLength: MESSAGE_BODY_MAX, description: `At most ${MESSAGE_BODY_MAX} characters, not blank; stored as sent`,
});
const Title = TrimmedString({ minLength: 1, maxLength: VISITOR_TITLE_MAX, description: `1–${VISITOR_TITLE_MAX} characters after trimming` });

export const StartConversationBody = Type.Object(
  {
    type: Type.Optional(StringEnum(['chat', 'ticket', 'idea', 'feedback'], { default: 'chat' })),
    title: Type.Optional(Title),
    body: MessageBody,
  },
  { additionalProperties: false, examples: [{ body: 'The export button does nothing.' }, { type: 'idea', title: 'Dark mode', body: 'Please add a dark theme.' }] },
);

export const VisitorMessageBody = Type.Object({ body: MessageBody }, { additionalProperties: false, examples: [{ body: 'Thanks, that worked!' }] });

export const RatingBody = Type.Object(
  { rating: Type.Integer({ minimum: 1, maximum: 5, description: '1 (bad) to 5 (great)' }) },
  { additionalProperties: false, examples: [{ rating: 5 }] },
);

export const IdeasQuery = Type.Object({
  ...PageQuery,
  sort: Type.Optional(StringEnum(['top', 'new'], { default: 'top', description: 'top: most upvoted first; new: newest first' })),
});

export const Idea = Type.Object(
  {
    id: Uuid(),
    title: Type.String(),
    status: StringEnum(CONVERSATION_STATUSES),
    upvotes: Type.Integer({ minimum: 0 }),
    created_at: Timestamp(),
    upvoted: Type.Boolean({ description: 'Whether this session\'s contact upvoted it; false without a session' }),
  },
  {
    $id: 'WidgetIdea', additionalProperties: false, description: 'An idea of the product (never a dismissed one)',
    examples: [{ id: EXAMPLE_IDS.conversation, title: 'Dark mode', status: 'open', upvotes: 12, created_at: T, upvoted: true }],
  },
);

export const UpvoteResult = Type.Object(
  { upvotes: Type.Integer({ minimum: 0 }), upvoted: Type.Boolean() },
  { $id: 'WidgetUpvote', additionalProperties: false, description: 'The idea\'s upvotes after the call', examples: [{ upvotes: 13, upvoted: true }] },
);

export const FormBody = Type.Object(
  {
    type: Type.Optional(StringEnum(['ticket', 'idea', 'feedback'], { default: 'ticket' })),
    title: Title,
    body: MessageBody,
    name: Type.Optional(Name),
    email: Type.Optional(Email),
    fields: Type.Optional(Type.Object({}, {
      additionalProperties: true, description: `Any extra fields as a JSON object, at most ${FORM_FIELDS_MAX_BYTES} bytes serialized; the team sees them as form_fields`,
    })),
    altcha: Type.Optional(Altcha),
    website: Type.Optional(Type.String({ maxLength: 2048, description: 'Leave empty: a honeypot for bots' })),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Invoice address', body: 'Please change our invoice address.', email: 'ada@example.com', fields: { plan: 'pro' }, altcha: 'eyJhbGdvcml0aG0i…' }],
  },
);

export const FormReceipt = Type.Object(
  { id: Uuid(), status: StringEnum(CONVERSATION_STATUSES) },
  { $id: 'WidgetFormReceipt', additionalProperties: false, description: 'The submission, filed as a conversation', examples: [{ id: EXAMPLE_IDS.conversation, status: 'open' }] },
);

export const WIDGET_SCHEMAS = [
  WidgetConfig, AltchaChallenge, SessionContact, WidgetSession, VisitorMessage, VisitorConversationSummary, VisitorConversation, Idea, UpvoteResult, FormReceipt,
  ...WIDGET_ARTICLE_SCHEMAS,
];

const WIDGET_ERROR_DESCRIPTIONS = {
  400: 'Validation failed (`validation_error`); `fields` names each offending field (`altcha` for a missing, wrong or reused proof of work)',
  401: 'No valid session (`unauthorized`): missing, malformed, expired or another product\'s token, or an invalid identity token',
  403: '`forbidden`: the widget is disabled, or the request\'s Origin is not the product\'s domain',
  404: 'Unknown widget key, or a conversation, idea or article this visitor cannot see, or a help center that is off (`not_found`)',
  413: 'Body larger than 1 MiB (`validation_error`)',
  415: 'Body sent with a Content-Type other than application/json (`validation_error`)',
  429: 'Too many requests from this address for this widget (`forbidden`, `detail` says so); retry after `Retry-After` seconds',
  500: 'Unexpected failure (`internal_error`); safe to retry',
  503: 'The database stayed busy (`internal_error`, `detail` says so): the write that found it busy was rolled back; safe to send again after `Retry-After` seconds',
};

/**
 * Error responses of a widget route: 400 (a malformed request), 403, 404, 429, 500 and 503 always
 * (every route checks the key, the origin and the limits).
 */
export const widgetErrors = errorResponsesOf(WIDGET_ERROR_DESCRIPTIONS, [400, 403, 404, 429, 500, 503]);
/** Error responses of a widget route outside any widget key (its document): a malformed request (a query that does not decode), a failure. */
export const widgetDocumentErrors = errorResponsesOf(WIDGET_ERROR_DESCRIPTIONS, [400, 500]);
/** Errors of a widget route that takes a JSON body. */
export const widgetWriteErrors = (...statuses: Parameters<typeof widgetErrors>) => widgetErrors(413, 415, ...statuses);

/** OpenAPI security requirements: a visitor session, or none. */
export const SESSION = [{ widgetSession: [] }];
export const PUBLIC: never[] = [];
