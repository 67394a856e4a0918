import { Type } from '@sinclair/typebox';
import { CONVERSATION_DEFAULTS, CONVERSATION_SLA_FILTERS, CONVERSATION_SORTS, MESSAGE_BODY_MAX } from '../../domain/conversations/conversation.service.js';
import { SLA_STATUSES, SLA_TARGETS } from '../../domain/service-levels/sla-clocks.js';
import { EXCERPT_MAX } from '../../domain/conversations/message-excerpt.js';
import { CONVERSATION_CHANNELS, CONVERSATION_SOURCES, CONVERSATION_STATUSES, CONVERSATION_TYPES, DELIVERY_STATUSES, ISSUE_STATUSES, PRIORITIES, SENDER_TYPES } from '../../domain/shared/enums.js';
import { TagFilter, TagNames, TagsInput } from './tag.js';
import { CsvFilter, CsvIdFilter, IdFilter, NOT_BLANK, Nullable, PageQuery, Ref, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';

export const ConversationSummary = Type.Object(
  {
    id: Uuid(),
    title: Type.String(),
    type: StringEnum(CONVERSATION_TYPES),
    status: StringEnum(CONVERSATION_STATUSES),
    priority: StringEnum(PRIORITIES),
    ai_summary: Nullable(Type.String()),
    created_at: Timestamp(),
  },
  {
    $id: 'ConversationSummary', additionalProperties: false, description: 'A conversation linked to an issue',
    examples: [{
      id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1', title: 'Export does nothing', type: 'ticket', status: 'open', priority: 'normal',
      ai_summary: null, created_at: '2026-11-21T10:25:00.000Z',
    }],
  },
);

const EXAMPLE_CONTACT = { id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80a1', name: 'Ada Lovelace', email: 'ada@example.com', verified: false };
const EXAMPLE_MESSAGE = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80c1', sender_type: 'contact', sender_id: EXAMPLE_CONTACT.id,
  body: 'The export button does nothing on Android.', sender_name: 'Ada Lovelace', created_at: '2026-11-21T10:25:00.000Z', internal: false,
  full_body: null, delivery: null, attachments: [],
};
const EXAMPLE_LAST_MESSAGE = { sender_type: 'contact', excerpt: 'The export button does nothing on Android.', created_at: '2026-11-21T10:25:00.000Z' };
const EXAMPLE_SLA = {
  policy_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80e1', first_response_due_at: '2026-11-21T11:25:00.000Z', next_response_due_at: null,
  resolution_due_at: '2026-11-22T10:25:00.000Z', breaches: [], status: 'active', due_at: '2026-11-21T11:25:00.000Z',
};

const EXAMPLE_CONVERSATION = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1', product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', contact_id: EXAMPLE_CONTACT.id,
  type: 'ticket', source: 'chat', channel: 'import', status: 'open', priority: 'normal', title: 'Export does nothing', ai_summary: null,
  rating: null, upvotes: 0, form_fields: null, tags: [], created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z', contact: EXAMPLE_CONTACT,
  assignee_id: null, last_message: EXAMPLE_LAST_MESSAGE, waiting_since: '2026-11-21T10:25:00.000Z', snoozed_until: null, sla: EXAMPLE_SLA,
};

export const Contact = Type.Object(
  {
    id: Uuid(),
    name: Nullable(Type.String(), { description: 'null when the contact gave no name' }),
    email: Nullable(Type.String(), { description: 'null when the contact gave no email' }),
    verified: Type.Boolean({
      description: '[ext] true when the host site vouched for this contact with a signed identity token (the widget API); ' +
        'false for contacts who only typed an email, or were imported',
    }),
  },
  { $id: 'Contact', additionalProperties: false, description: 'The customer behind a conversation', examples: [EXAMPLE_CONTACT] },
);

export const Attachment = Type.Object(
  {
    id: Uuid(),
    filename: Type.String(),
    content_type: Type.String({ description: 'As the sender declared it' }),
    size: Type.Integer({ description: 'Bytes' }),
  },
  {
    $id: 'Attachment', additionalProperties: false,
    description: '[ext] A file that came with a message; its bytes are at GET /api/v1/attachments/{id}',
    examples: [{ id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80d1', filename: 'blank-page.png', content_type: 'image/png', size: 48213 }],
  },
);

export const MessageDelivery = Type.Object(
  {
    status: StringEnum(DELIVERY_STATUSES, {
      description: 'pending: queued or being retried; sent: the SMTP server accepted it; failed: given up, or returned by a delivery report',
    }),
    error: Nullable(Type.String(), { description: 'Why the last attempt failed, or what the delivery report said; null when none failed' }),
  },
  {
    $id: 'MessageDelivery', additionalProperties: false, description: '[ext] The delivery of an agent\'s reply by mail',
    examples: [{ status: 'failed', error: '550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown' }],
  },
);

export const Message = Type.Object(
  {
    id: Uuid(),
    sender_type: StringEnum(SENDER_TYPES),
    sender_id: Type.String({
      description: 'agent: the member id of the key that sent it (the API key id when the key has no member); ' +
        'contact: the contact id (the importing API key id when the conversation was imported without a contact)',
    }),
    body: Type.String({ description: 'The message text, exactly as sent' }),
    sender_name: Nullable(Type.String(), { description: 'The member\'s display name or the contact\'s name; null when unknown' }),
    created_at: Timestamp(),
    internal: Type.Boolean({
      description: '[ext] true for an internal note of the team (POST /conversations/{id}/notes): never shown to the contact, ' +
        'in the widget, its stream or any email; false for every other message',
    }),
    full_body: Nullable(Type.String(), {
      description: '[ext] A message that came by mail: the mail\'s whole text, quoted history and signature included (`body` is the ' +
        'text without them); null for other messages',
    }),
    delivery: Nullable(Ref(MessageDelivery), { description: '[ext] An agent\'s reply sent by mail: how its delivery stands; null for messages not mailed' }),
    attachments: Type.Array(Ref(Attachment), { description: '[ext] The files that came with the message, in the order they came' }),
  },
  { $id: 'Message', additionalProperties: false, description: 'A message in a conversation', examples: [EXAMPLE_MESSAGE] },
);

/** message.created's data: a message has no GET of its own, so the event names its conversation. */
export const MessageEvent = Type.Object(
  { ...Message.properties, conversation_id: Uuid('The conversation the message belongs to') },
  {
    $id: 'MessageEvent', additionalProperties: false, description: 'A message and the conversation it belongs to',
    examples: [{ ...EXAMPLE_MESSAGE, conversation_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1' }],
  },
);

export const LastMessage = Type.Object(
  {
    sender_type: StringEnum(SENDER_TYPES),
    excerpt: Type.String({ maxLength: EXCERPT_MAX, description: `The body on one line, at most ${EXCERPT_MAX} characters (an ellipsis ends a cut one)` }),
    created_at: Timestamp(),
  },
  {
    $id: 'LastMessage', additionalProperties: false, examples: [EXAMPLE_LAST_MESSAGE],
    description: '[ext] The conversation\'s latest message as a list row shows it; internal notes count (the team sees them)',
  },
);

export const ConversationSla = Type.Object(
  {
    policy_id: Uuid('The SLA policy that applies'),
    first_response_due_at: Nullable(Timestamp('When the first agent reply is due (the latest run of the clock); null while the clock has not started or the policy sets no such target')),
    next_response_due_at: Nullable(Timestamp('When the next agent reply is due, likewise')),
    resolution_due_at: Nullable(Timestamp('When the resolution is due, likewise (after a reopening: from the reopening)')),
    breaches: Type.Array(StringEnum(SLA_TARGETS), { description: 'The targets whose due time passed while their clock ran, ever, in the order they breached' }),
    status: StringEnum(SLA_STATUSES, { description: 'active while a clock with a target runs (or none has started yet), then missed if any was, else hit' }),
    due_at: Nullable(Timestamp('The earliest due time of a running clock (what sort=due orders by, and what the app counts down to); null while none runs')),
  },
  {
    $id: 'ConversationSla', additionalProperties: false, examples: [EXAMPLE_SLA],
    description: '[ext] The SLA applied to a conversation (docs/service-levels.md): the due times of its clocks, its breaches, its status',
  },
);

export const conversationProperties = {
  id: Uuid(),
  product_id: Uuid(),
  contact_id: Nullable(Uuid()),
  type: StringEnum(CONVERSATION_TYPES),
  source: StringEnum(CONVERSATION_SOURCES, {
    description: 'chat (widget conversations), form (form submissions mirrored into the inbox) or [ext] email (mail to the product\'s inbound address)',
  }),
  channel: StringEnum(CONVERSATION_CHANNELS, {
    description: '[ext] How the conversation came in, as the app labels it: chat (the widget), form (the widget\'s form), email, or import ' +
      '(POST /conversations, whatever its source)',
  }),
  status: StringEnum(CONVERSATION_STATUSES),
  priority: StringEnum(PRIORITIES),
  title: Type.String(),
  ai_summary: Nullable(Type.String()),
  rating: Nullable(Type.Number({ description: 'The visitor\'s rating, 1–5, set from the widget; null until rated' })),
  upvotes: Type.Integer({ description: 'How many contacts upvoted this idea in the widget' }),
  form_fields: Nullable(Type.Object({}, { additionalProperties: true }), {
    description: '[ext] The extra fields of a form submitted through the widget (`source` form); null otherwise',
  }),
  tags: TagNames(),
  created_at: Timestamp(),
  updated_at: Timestamp('Changes on every effective change and when a message is posted'),
  contact: Nullable(Ref(Contact)),
  assignee_id: Nullable(Uuid('[ext] The member who owns the conversation; null when unassigned')),
  last_message: Nullable(Ref(LastMessage), { description: '[ext] The latest message; null until the first' }),
  waiting_since: Nullable(Timestamp('[ext] When the first contact message that no agent reply has answered yet was sent; null when nobody waits. ' +
    'Internal notes and system messages answer nothing')),
  snoozed_until: Nullable(Timestamp('[ext] When the snoozed conversation wakes (set to null, with a conversation.updated event) unless its contact ' +
    'writes first; null when it is not snoozed')),
  sla: Nullable(Ref(ConversationSla), { description: '[ext] The SLA applied; null when no active SLA policy matches the conversation' }),
};

export const Conversation = Type.Object(conversationProperties, {
  $id: 'Conversation',
  additionalProperties: false,
  description: 'A conversation with a customer',
  examples: [EXAMPLE_CONVERSATION],
});

export const LinkedIssue = Type.Object(
  { id: Uuid(), shortcode: Type.String(), title: Type.String(), status: StringEnum(ISSUE_STATUSES) },
  {
    $id: 'LinkedIssue', additionalProperties: false, description: '[ext] An issue a conversation is linked to',
    examples: [{ id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8099', shortcode: 'AMA-12', title: 'Export does nothing on Android', status: 'in_progress' }],
  },
);

export const ConversationDetail = Type.Object(
  {
    ...conversationProperties,
    messages: Type.Array(Ref(Message), { description: 'Ordered by created_at ascending' }),
    linked_issues: Type.Array(Ref(LinkedIssue), { description: '[ext] The issues this conversation is linked to, in the order they were linked' }),
  },
  {
    $id: 'ConversationDetail', additionalProperties: false, description: 'A conversation with its messages and the issues it is linked to',
    examples: [{ ...EXAMPLE_CONVERSATION, messages: [EXAMPLE_MESSAGE], linked_issues: [] }],
  },
);

/** The most ids the list's `id` filter takes: a page's worth. */
export const CONVERSATION_ID_FILTER_MAX = 200;

export const ListConversationsQuery = Type.Object({
  ...PageQuery,
  product_id: Type.Optional(IdFilter('Only conversations of this product (UUID)')),
  type: Type.Optional(CsvFilter('Only these types', CONVERSATION_TYPES)),
  status: Type.Optional(CsvFilter('Only these statuses', CONVERSATION_STATUSES)),
  priority: Type.Optional(CsvFilter('Only these priorities', PRIORITIES)),
  tag: Type.Optional(TagFilter()),
  id: Type.Optional(CsvIdFilter(`[ext] Only these conversations: comma-separated ids, at most ${CONVERSATION_ID_FILTER_MAX} (a client naming the conversations of a page of other records, such as the triage queue)`, [])),
  assignee_id: Type.Optional(CsvIdFilter('[ext] Only conversations assigned to these members: comma-separated member ids, `me` for the caller\'s member, `none` for unassigned', ['none', 'me'])),
  snoozed: Type.Optional(Type.Boolean({ description: '[ext] true: only snoozed conversations; false: only those not snoozed. Absent: both' })),
  sort: Type.Optional(StringEnum(CONVERSATION_SORTS, {
    default: 'newest',
    description: '[ext] newest: created_at descending (the default); waiting: the longest waiting first (waiting_since ascending), conversations nobody waits on last; ' +
      'due: the earliest due time of a running SLA clock first, conversations without one last',
  })),
  sla: Type.Optional(StringEnum(CONVERSATION_SLA_FILTERS, {
    description: '[ext] breached: only conversations with an SLA target breached (ever); running: only those with an SLA clock running',
  })),
});

export const ConversationSlaBreach = Type.Object(
  {
    conversation: Ref(ConversationDetail),
    target: StringEnum(SLA_TARGETS, { description: 'The clock whose due time passed' }),
    due_at: Timestamp('The due time that passed'),
  },
  {
    $id: 'ConversationSlaBreach', additionalProperties: false,
    description: '[ext] An SLA breach: the conversation as its GET detail returns it after the breach, the target, its due time',
    examples: [{ conversation: { ...EXAMPLE_CONVERSATION, sla: { ...EXAMPLE_SLA, breaches: ['first_response'] }, messages: [EXAMPLE_MESSAGE], linked_issues: [] },
      target: 'first_response', due_at: EXAMPLE_SLA.first_response_due_at }],
  },
);

export const UpdateConversationBody = Type.Object(
  {
    status: Type.Optional(StringEnum(CONVERSATION_STATUSES, { description: 'Any status may be set from any status' })),
    priority: Type.Optional(StringEnum(PRIORITIES)),
    tags: Type.Optional(TagsInput()),
    assignee_id: Type.Optional(Type.Union([Uuid(), Type.Literal('me'), Type.Null()], {
      description: '[ext] A member id of this workspace, the literal `me` for the caller\'s member, or null to unassign',
    })),
    snoozed_until: Type.Optional(Nullable(Type.String({ format: 'date-time' }), {
      description: '[ext] Snoozes the conversation until this instant (ISO 8601 with an offset; later than now): it wakes then, or when its contact ' +
        'writes. null wakes it now. A resolved or dismissed conversation cannot be snoozed (unless this request reopens it); resolving or ' +
        'dismissing one ends its snooze',
    })),
  },
  {
    additionalProperties: false,
    examples: [{ status: 'in_progress' }, { status: 'resolved', priority: 'low' }, { assignee_id: 'me' }, { snoozed_until: '2026-11-22T09:00:00+01:00' }],
  },
);

const MessageBody = Type.String({
  minLength: 1,
  pattern: NOT_BLANK,
  maxLength: MESSAGE_BODY_MAX,
  description: `Message text, at most ${MESSAGE_BODY_MAX} characters, not blank; stored as sent (not trimmed)`,
});

export const PostMessageBody = Type.Object(
  {
    body: Type.Optional(MessageBody),
    saved_reply_id: Type.Optional(Uuid('[ext] Instead of body: a saved reply of this workspace, posted with its placeholders filled')),
  },
  {
    additionalProperties: false,
    oneOf: [{ required: ['body'] }, { required: ['saved_reply_id'] }],
    description: 'Exactly one of body and saved_reply_id',
    examples: [{ body: 'Thanks! A fix ships in the next release.' }, { saved_reply_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80d1' }],
  },
);

export const PostNoteBody = Type.Object(
  { body: MessageBody },
  { additionalProperties: false, examples: [{ body: 'Customer is on the legacy plan; check with billing before refunding.' }] },
);

export const CreateConversationBody = Type.Object(
  {
    product_id: Uuid('A product of this workspace'),
    title: TrimmedString({ minLength: 1, maxLength: 500, description: '1–500 characters after trimming' }),
    type: Type.Optional(StringEnum(CONVERSATION_TYPES, { default: CONVERSATION_DEFAULTS.type })),
    source: Type.Optional(StringEnum(CONVERSATION_SOURCES, { default: CONVERSATION_DEFAULTS.source })),
    priority: Type.Optional(StringEnum(PRIORITIES, { default: CONVERSATION_DEFAULTS.priority })),
    contact: Type.Optional(Nullable(
      Type.Object(
        {
          name: Type.Optional(Nullable(Type.String({ maxLength: 200, pattern: NOT_BLANK, description: 'Trimmed; must not be blank' }))),
          email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320, description: 'Stored lowercased' }))),
        },
        { additionalProperties: false },
      ),
      {
        description: 'The customer. With an email, the workspace\'s contact with that email is reused (a given name ' +
          'replaces its name, an omitted one keeps it); without an email a new contact is created. Omitted or null: no contact',
      },
    )),
    body: Type.Optional(Nullable(MessageBody, { description: 'Optional first message, from the contact. Omitted or null: no message' })),
  },
  {
    additionalProperties: false,
    examples: [{
      product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', title: 'Export does nothing', type: 'ticket', source: 'form',
      contact: { name: 'Ada Lovelace', email: 'ada@example.com' }, body: 'The export button does nothing on Android.',
    }],
  },
);
