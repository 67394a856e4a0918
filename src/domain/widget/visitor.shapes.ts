// What a visitor is shown of a conversation (docs/widget.md, "Sessions"): an allow-list, never
// ai_summary, priority, member ids or other contacts.
import type { ConversationWithContactRow } from '../../db/repositories/conversation.repository.js';
import type { MessageRow } from '../../db/repositories/message.repository.js';
import type { ConversationStatus, ConversationType, SenderType } from '../shared/enums.js';

export const VISITOR_TITLE_MAX = 500;
/** A title taken from the body: its first line, cut to this many characters. */
export const DERIVED_TITLE_MAX = 80;
export const FORM_FIELDS_MAX_BYTES = 16 * 1024;

export interface VisitorMessage {
  id: string;
  sender_type: SenderType;
  sender_name: string | null;
  body: string;
  created_at: string;
}

export interface VisitorConversationSummary {
  id: string;
  type: ConversationType;
  status: ConversationStatus;
  title: string;
  rating: number | null;
  created_at: string;
  updated_at: string;
}

export interface VisitorConversation extends VisitorConversationSummary {
  messages: VisitorMessage[];
}

export const toVisitorSummary = (row: Pick<ConversationWithContactRow, keyof VisitorConversationSummary>): VisitorConversationSummary => ({
  id: row.id,
  type: row.type as ConversationType,
  status: row.status as ConversationStatus,
  title: row.title,
  rating: row.rating,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const toVisitorMessage = (row: Pick<MessageRow, keyof VisitorMessage>): VisitorMessage => ({
  id: row.id,
  sender_type: row.sender_type as SenderType,
  sender_name: row.sender_name,
  body: row.body,
  created_at: row.created_at,
});

/** The body's first non-blank line, trimmed and cut to DERIVED_TITLE_MAX code points. */
export function titleFromBody(body: string): string {
  const line = body.split(/\r\n|\r|\n/).map((text) => text.trim()).find((text) => text !== '') ?? '';
  return [...line].slice(0, DERIVED_TITLE_MAX).join('').trim();
}
