import { Type } from '@sinclair/typebox';
import { Nullable, PageQuery, Ref, Timestamp, Uuid } from './common.js';
import { Contact, ConversationSummary, Message, MessageEvent, conversationProperties } from './conversation.js';

const profileProperties = {
  ...Contact.properties,
  created_at: Timestamp(),
  last_seen_at: Nullable(Timestamp('When the contact last wrote a message; null before their first')),
  conversations_count: Type.Integer({ description: 'Their conversations' }),
};

const EXAMPLE_PROFILE = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80a1', name: 'Ada Lovelace', email: 'ada@example.com', verified: false,
  created_at: '2026-11-21T10:25:00.000Z', last_seen_at: '2026-11-21T10:25:00.000Z', conversations_count: 1,
};

export const ContactProfile = Type.Object(profileProperties, {
  $id: 'ContactProfile', additionalProperties: false, description: '[ext] A contact as the contacts\' list shows it', examples: [EXAMPLE_PROFILE],
});

export const ContactDetail = Type.Object(
  { ...profileProperties, conversations: Type.Array(Ref(ConversationSummary), { description: 'Their conversations, newest first' }) },
  { $id: 'ContactDetail', additionalProperties: false, description: '[ext] A contact with their conversations', examples: [{ ...EXAMPLE_PROFILE, conversations: [] }] },
);

// What the team keeps for itself stays out: who is assigned, its tags, the latest message as the
// team's list shows it (that may be an internal note), and its SLA.
const {
  contact: _contact, assignee_id: _assignee, tags: _tags, last_message: _lastMessage, sla: _sla, ...exportedConversationProperties
} = conversationProperties;

export const ContactExport = Type.Object(
  {
    exported_at: Timestamp(),
    contact: Ref(ContactProfile),
    conversations: Type.Array(
      Type.Object(
        { ...exportedConversationProperties, messages: Type.Array(Ref(Message), { description: 'Oldest first; internal notes are never exported' }) },
        { additionalProperties: false },
      ),
      { description: 'Their conversations (with their ratings), newest first' },
    ),
    messages_elsewhere: Type.Array(Ref(MessageEvent), {
      description: 'Their messages in conversations that are not theirs (a mail sent into another person\'s thread), oldest first per conversation: ' +
        'only the messages, with the conversation\'s id, never the conversation\'s other messages or its other data',
    }),
    upvotes: Type.Array(
      Type.Object({ conversation_id: Uuid('The idea'), title: Type.String(), created_at: Timestamp() }, { additionalProperties: false }),
      { description: 'The ideas they upvoted in the widget, oldest first' },
    ),
    widget_sessions: Type.Array(
      Type.Object(
        { id: Uuid(), product_id: Uuid(), verified: Type.Boolean(), created_at: Timestamp(), last_used_at: Timestamp() },
        { additionalProperties: false },
      ),
      { description: 'Their widget sessions (never their tokens), oldest first' },
    ),
  },
  {
    $id: 'ContactExport', additionalProperties: false,
    description: '[ext] Everything about a person that is not internal (docs/privacy.md)',
    examples: [{ exported_at: '2026-11-22T09:00:00.000Z', contact: EXAMPLE_PROFILE, conversations: [], messages_elsewhere: [], upvotes: [], widget_sessions: [] }],
  },
);

export const ContactListQuery = Type.Object({
  ...PageQuery,
  q: Type.Optional(Type.String({ maxLength: 320, description: 'Only contacts whose name or email starts with this, without case' })),
});

export const UpdateContactBody = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'Trimmed; blank or null clears it' }))),
    email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320, description: 'Stored lowercased; unique in the workspace' }))),
  },
  { additionalProperties: false, examples: [{ name: 'Ada King', email: 'ada@example.org' }] },
);
