import { Type } from '@sinclair/typebox';
import { MESSAGE_BODY_MAX } from '../../domain/conversations/conversation.service.js';
import { NOT_BLANK, Timestamp, TrimmedString, Uuid } from './common.js';

export const SAVED_REPLY_TITLE_MAX = 200;

const EXAMPLE = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80d1', title: 'Fix shipped',
  body: 'Hi {{contact.first_name}}, the fix is live in {{product.name}}. Thanks for your patience! {{agent.name}}',
  created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
};

export const SavedReply = Type.Object(
  {
    id: Uuid(),
    title: Type.String(),
    body: Type.String({ description: 'The text, with its placeholders as written: {{contact.name}}, {{contact.first_name}}, {{agent.name}}, {{product.name}}' }),
    created_at: Timestamp(),
    updated_at: Timestamp('Changes on every effective change'),
  },
  { $id: 'SavedReply', additionalProperties: false, description: '[ext] A saved reply of the team', examples: [EXAMPLE] },
);

const Title = TrimmedString({ minLength: 1, maxLength: SAVED_REPLY_TITLE_MAX, description: `1–${SAVED_REPLY_TITLE_MAX} characters after trimming` });
const Body = Type.String({
  minLength: 1, pattern: NOT_BLANK, maxLength: MESSAGE_BODY_MAX,
  description: `At most ${MESSAGE_BODY_MAX} characters, not blank; stored as sent. Placeholders {{contact.name}}, ` +
    '{{contact.first_name}} (the name\'s first word), {{agent.name}} (the posting member\'s name) and {{product.name}} ' +
    '(the conversation\'s product) are filled when it is posted; a missing value becomes empty',
});

export const CreateSavedReplyBody = Type.Object(
  { title: Title, body: Body },
  { additionalProperties: false, examples: [{ title: EXAMPLE.title, body: EXAMPLE.body }] },
);

export const UpdateSavedReplyBody = Type.Object(
  { title: Type.Optional(Title), body: Type.Optional(Body) },
  { additionalProperties: false, examples: [{ title: 'Fix shipped (short)' }] },
);
