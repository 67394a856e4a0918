// What the API shows of a contact: its profile (list), its detail and its export, mapped from rows.
import type { ContactProfileRow } from '../../db/repositories/contact.repository.js';
import type { ConversationWithContactRow } from '../../db/repositories/conversation.repository.js';
import type { ConversationSummary } from '../issues/issue.shapes.js';
import type { Conversation, Message } from '../conversations/conversation.shapes.js';
import type { ConversationStatus, ConversationType, Priority } from '../shared/enums.js';

export interface ContactProfile {
  id: string;
  name: string | null;
  email: string | null;
  verified: boolean;
  created_at: string;
  last_seen_at: string | null;
  conversations_count: number;
}

export interface ContactDetail extends ContactProfile {
  conversations: ConversationSummary[];
}

export interface ContactExport {
  exported_at: string;
  contact: ContactProfile;
  /** Without what the team keeps for itself: the assignee, the tags, the latest message (maybe a note). */
  conversations: (Omit<Conversation, 'contact' | 'assignee_id' | 'tags' | 'last_message'> & { messages: Message[] })[];
  /** Their messages in conversations not theirs (a mail into another person's thread), without those conversations. */
  messages_elsewhere: (Message & { conversation_id: string })[];
  upvotes: { conversation_id: string; title: string; created_at: string }[];
  widget_sessions: { id: string; product_id: string; verified: boolean; created_at: string; last_used_at: string }[];
}

export const toContactProfile = (row: ContactProfileRow): ContactProfile => ({
  id: row.id,
  name: row.name,
  email: row.email,
  verified: row.external_id !== null,
  created_at: row.created_at,
  last_seen_at: row.last_seen_at,
  conversations_count: row.conversations_count,
});

export const toConversationSummary = (row: ConversationWithContactRow): ConversationSummary => ({
  id: row.id,
  title: row.title,
  type: row.type as ConversationType,
  status: row.status as ConversationStatus,
  priority: row.priority as Priority,
  ai_summary: row.ai_summary,
  created_at: row.created_at,
});
