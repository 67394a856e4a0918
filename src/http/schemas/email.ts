import { Type } from '@sinclair/typebox';
import { Nullable, Uuid } from './common.js';

export const InboundResult = Type.Object(
  {
    conversation_id: Nullable(Uuid(), { description: 'The conversation the mail joined or started; null when it was ignored' }),
    message_id: Nullable(Uuid(), { description: 'The message it became (or had become, sent twice); null when it was ignored' }),
    created: Type.Boolean({ description: 'A new conversation was made' }),
  },
  {
    $id: 'InboundResult', additionalProperties: false,
    description: '[ext] What became of a mail. Mail that is ignored (automatic mail, delivery reports, our own, a sender over the hourly limit) has nulls',
    examples: [{ conversation_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1', message_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80c1', created: true }],
  },
);
