// What the API shows of a conversation and its messages, mapped from their rows; shared by the
// conversation service, which reads them, and the conversation writes, whose events carry them.
import type { ConversationWithContactRow, LinkedIssueRow } from '../../db/repositories/conversation.repository.js';
import type { MessageRow } from '../../db/repositories/message.repository.js';
import { parseTags } from '../tags/tags.js';
import type { ConversationSource, ConversationStatus, ConversationType, IssueStatus, Priority, SenderType } from '../shared/enums.js';

export interface ConversationContact {
  id: string;
  name: string | null;
  email: string | null;
  /** [ext] Vouched for by the host site's signed identity token (docs/widget.md). */
  verified: boolean;
}

export interface Conversation {
  id: string;
  product_id: string;
  contact_id: string | null;
  type: ConversationType;
  source: ConversationSource;
  status: ConversationStatus;
  priority: Priority;
  title: string;
  ai_summary: string | null;
  rating: number | null;
  upvotes: number;
  /** [ext] The extra fields of a form submission; null otherwise. */
  form_fields: Record<string, unknown> | null;
  /** [ext] In the order given (docs/tags.md). */
  tags: string[];
  created_at: string;
  updated_at: string;
  contact: ConversationContact | null;
}

export interface Message {
  id: string;
  sender_type: SenderType;
  sender_id: string;
  body: string;
  sender_name: string | null;
  created_at: string;
}

/** [ext] An issue the conversation is linked to. */
export interface LinkedIssue {
  id: string;
  shortcode: string;
  title: string;
  status: IssueStatus;
}

export interface ConversationDetail extends Conversation {
  messages: Message[];
  linked_issues: LinkedIssue[];
}

export const toConversation = (row: ConversationWithContactRow): Conversation => ({
  id: row.id,
  product_id: row.product_id,
  contact_id: row.contact_id,
  type: row.type as ConversationType,
  source: row.source as ConversationSource,
  status: row.status as ConversationStatus,
  priority: row.priority as Priority,
  title: row.title,
  ai_summary: row.ai_summary,
  rating: row.rating,
  upvotes: row.upvotes,
  form_fields: row.form_fields === null ? null : JSON.parse(row.form_fields),
  tags: parseTags(row.tags),
  created_at: row.created_at,
  updated_at: row.updated_at,
  contact: row.contact_id === null
    ? null
    : { id: row.contact_id, name: row.contact_name, email: row.contact_email, verified: row.contact_external_id !== null },
});

export const toMessage = (row: MessageRow): Message => ({
  id: row.id,
  sender_type: row.sender_type as SenderType,
  sender_id: row.sender_id,
  body: row.body,
  sender_name: row.sender_name,
  created_at: row.created_at,
});


export const toLinkedIssue = (row: LinkedIssueRow): LinkedIssue => ({
  id: row.id, shortcode: row.shortcode, title: row.title, status: row.status as IssueStatus,
});
