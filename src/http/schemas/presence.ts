import { Type } from '@sinclair/typebox';
import { PRESENCE_STATES } from '../../domain/conversations/presence.service.js';
import { Nullable, StringEnum, Timestamp, Uuid } from './common.js';

/** [ext] A member's presence in a conversation: the `data` of the team stream's `presence` event (docs/automation.md, "Collision"). */
export const Presence = Type.Object(
  {
    conversation_id: Uuid('The conversation'),
    member: Type.Object(
      { id: Uuid('The member'), display_name: Nullable(Type.String(), { description: 'Their display name' }) },
      { additionalProperties: false, description: 'Who' },
    ),
    state: StringEnum(PRESENCE_STATES, { description: '`viewing`, `typing`, or `gone` (left the conversation)' }),
    expires_at: Timestamp('When it no longer holds unless announced again: 30 s on (at once for `gone`)'),
  },
  {
    $id: 'Presence', additionalProperties: false,
    description: '[ext] A member\'s presence in a conversation, as the team stream carries it',
    examples: [{
      conversation_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8093', member: { id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', display_name: 'Ana' },
      state: 'typing', expires_at: '2026-11-21T10:25:30.000Z',
    }],
  },
);

export const PresenceBody = Type.Object(
  { state: StringEnum(PRESENCE_STATES, { description: 'What the member is doing in the conversation' }) },
  { additionalProperties: false, examples: [{ state: 'viewing' }] },
);
