import { Type } from '@sinclair/typebox';
import { ACTOR_TYPES, NOTIFICATION_KINDS } from '../../domain/notifications/notification.shapes.js';
import { READ_IDS_MAX } from '../../domain/notifications/notification.service.js';
import { ConversationSummary } from './conversation.js';
import { Nullable, PageQuery, Ref, StringEnum, Timestamp, Uuid } from './common.js';

const EXAMPLE_NOTIFICATION = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80f1',
  kind: 'message',
  conversation: {
    id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1', title: 'Export does nothing', type: 'ticket', status: 'open', priority: 'normal',
    ai_summary: null, created_at: '2026-11-21T10:25:00.000Z',
  },
  actor: { type: 'contact', id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80a1', name: 'Ada Lovelace' },
  created_at: '2026-11-21T10:31:00.000Z',
  read_at: null,
};

export const NotificationActor = Type.Object(
  {
    type: StringEnum(ACTOR_TYPES, { description: 'member: a member of the team (`id` is a member id); contact: a customer (`id` is a contact id)' }),
    id: Uuid(),
    name: Nullable(Type.String(), { description: 'The member\'s display name or the contact\'s name, as they are now; null when unknown' }),
  },
  {
    $id: 'NotificationActor', additionalProperties: false, description: '[ext] Who caused a notification',
    examples: [EXAMPLE_NOTIFICATION.actor],
  },
);

export const Notification = Type.Object(
  {
    id: Uuid(),
    kind: StringEnum(NOTIFICATION_KINDS, {
      description: 'assigned: the conversation was assigned to you; message: a contact wrote in a conversation assigned to you; ' +
        'mention: an internal note mentioned you (`@display name`)',
    }),
    conversation: Ref(ConversationSummary, { description: 'The conversation it is about, as it is now' }),
    actor: Nullable(Ref(NotificationActor), {
      description: 'Who caused it; null when nobody the team can name did (a key without a member, a conversation imported without a ' +
        'contact) or when they are gone (a member removed, a contact erased)',
    }),
    created_at: Timestamp(),
    read_at: Nullable(Timestamp('When it was first marked read; null while unread')),
  },
  {
    $id: 'Notification', additionalProperties: false,
    description: '[ext] Something a member was told of in a conversation. It copies no text: the conversation and the actor are shown as they are now',
    examples: [EXAMPLE_NOTIFICATION],
  },
);

export const ListNotificationsQuery = Type.Object({
  ...PageQuery,
  unread: Type.Optional(Type.Boolean({ description: 'true: only the unread ones; false or absent: all' })),
});

export const MarkNotificationsReadBody = Type.Object(
  {
    ids: Type.Optional(Type.Array(Uuid(), {
      minItems: 1, maxItems: READ_IDS_MAX,
      description: `Notifications to mark read, 1–${READ_IDS_MAX} ids; ids that are not the caller's notifications are ignored`,
    })),
    all: Type.Optional(Type.Literal(true, { description: 'Marks every notification of the caller read' })),
  },
  {
    additionalProperties: false,
    oneOf: [{ required: ['ids'] }, { required: ['all'] }],
    description: 'Exactly one of ids and all',
    examples: [{ ids: ['0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80f1'] }, { all: true }],
  },
);
