import { Type } from '@sinclair/typebox';
import { CONVERSATION_STATUSES, CONVERSATION_TYPES, PRIORITIES } from '../../domain/enums.js';
import { Nullable, StringEnum, Timestamp, Uuid } from './common.js';

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
  { additionalProperties: false, description: 'A conversation linked to an issue' },
);
