import { Type } from '@sinclair/typebox';
import { CONVERSATION_DEFAULTS, MESSAGE_BODY_MAX } from '../../domain/conversations/conversation.service.js';
import { CONVERSATION_SOURCES, CONVERSATION_STATUSES, CONVERSATION_TYPES, ISSUE_STATUSES, PRIORITIES, SENDER_TYPES } from '../../domain/shared/enums.js';
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
  body: 'The export button does nothing on Android.', sender_name: 'Ada Lovelace', created_at: '2026-11-21T10:25:00.000Z',
};
const EXAMPLE_CONVERSATION = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1', product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', contact_id: EXAMPLE_CONTACT.id,
  type: 'ticket', source: 'chat', status: 'open', priority: 'normal', title: 'Export does nothing', ai_summary: null,
  rating: null, upvotes: 0, form_fields: null, tags: [], created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z', contact: EXAMPLE_CONTACT,
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

export const conversationProperties = {
  id: Uuid(),
  product_id: Uuid(),
  contact_id: Nullable(Uuid()),
  type: StringEnum(CONVERSATION_TYPES),
  source: StringEnum(CONVERSATION_SOURCES, { description: 'chat (widget conversations) or form (form submissions mirrored into the inbox)' }),
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
});

export const UpdateConversationBody = Type.Object(
  {
    status: Type.Optional(StringEnum(CONVERSATION_STATUSES, { description: 'Any status may be set from any status' })),
    priority: Type.Optional(StringEnum(PRIORITIES)),
    tags: Type.Optional(TagsInput()),
  },
  { additionalProperties: false, examples: [{ status: 'in_progress' }, { status: 'resolved', priority: 'low' }] },
);

const MessageBody = Type.String({
  minLength: 1,
  pattern: NOT_BLANK,
  maxLength: MESSAGE_BODY_MAX,
  description: `Message text, at most ${MESSAGE_BODY_MAX} characters, not blank; stored as sent (not trimmed)`,
});

export const PostMessageBody = Type.Object(
  { body: MessageBody },
  { additionalProperties: false, examples: [{ body: 'Thanks! A fix ships in the next release.' }] },
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
