// What the API shows of a conversation and its messages, mapped from their rows; shared by the
// conversation service, which reads them, and the conversation writes, whose events carry them.
import type { ConversationWithContactRow, LinkedIssueRow } from '../../db/repositories/conversation.repository.js';
import type { AttachmentRow } from '../../db/repositories/attachment.repository.js';
import type { MessageRow, StoredMessageRow } from '../../db/repositories/message.repository.js';
import type { ConversationChannel, ConversationSource, ConversationStatus, ConversationType, DeliveryStatus, IssueStatus, Priority, SenderType } from '../shared/enums.js';
import type { SlaStatus, SlaTarget } from '../service-levels/sla-clocks.js';
import { parseTags } from '../tags/tags.js';

export interface ConversationContact {
  id: string;
  name: string | null;
  email: string | null;
  /** [ext] Vouched for by the host site's signed identity token (docs/widget.md). */
  verified: boolean;
}

/** [ext] The latest message, as a list row shows it (docs/inbox.md). */
export interface LastMessage {
  sender_type: SenderType;
  excerpt: string;
  created_at: string;
}

export interface Conversation {
  id: string;
  product_id: string;
  contact_id: string | null;
  type: ConversationType;
  source: ConversationSource;
  /** [ext] How it came in. */
  channel: ConversationChannel;
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
  /** [ext] The member who owns it; null: unassigned. */
  assignee_id: string | null;
  /** [ext] Null until the first message. */
  last_message: LastMessage | null;
  /** [ext] The first contact message no agent reply has answered yet; null when nobody waits. */
  waiting_since: string | null;
  /** [ext] When the snoozed conversation wakes; null when it is not snoozed (docs/inbox.md). */
  snoozed_until: string | null;
  /** [ext] The SLA applied (docs/service-levels.md); null when no policy applies. */
  sla: ConversationSla | null;
}

/** [ext] An SLA applied to a conversation. */
export interface ConversationSla {
  policy_id: string;
  first_response_due_at: string | null;
  next_response_due_at: string | null;
  resolution_due_at: string | null;
  breaches: SlaTarget[];
  status: SlaStatus;
  /** The earliest due time of a running clock; null while none runs. */
  due_at: string | null;
}

export interface Message {
  id: string;
  sender_type: SenderType;
  sender_id: string;
  body: string;
  sender_name: string | null;
  created_at: string;
  /** [ext] An internal note of the team: never shown to the contact. */
  internal: boolean;
  /** [ext] A mail's whole text, quoted history and signature included; null for messages that did not come by mail. */
  full_body: string | null;
  /** [ext] An agent's reply sent by mail: how its delivery stands; null for messages not mailed. */
  delivery: MessageDelivery | null;
  /** [ext] The files that came with it. */
  attachments: Attachment[];
}

export interface MessageDelivery {
  status: DeliveryStatus;
  error: string | null;
}

export interface Attachment {
  id: string;
  filename: string;
  content_type: string;
  size: number;
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
  channel: row.channel as ConversationChannel,
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
  assignee_id: row.assignee_id,
  last_message: row.last_message_at === null
    ? null
    : { sender_type: row.last_message_sender_type as SenderType, excerpt: row.last_message_excerpt ?? '', created_at: row.last_message_at },
  waiting_since: row.waiting_since,
  snoozed_until: row.snoozed_until,
  sla: row.sla_policy_id === null ? null : {
    policy_id: row.sla_policy_id,
    first_response_due_at: row.sla_first_response_due_at,
    next_response_due_at: row.sla_next_response_due_at,
    resolution_due_at: row.sla_resolution_due_at,
    breaches: JSON.parse(row.sla_breaches) as SlaTarget[],
    status: row.sla_status as SlaStatus,
    due_at: row.sla_due_at,
  },
});

const DELIVERY_STATUS = { pending: 'pending', done: 'sent', failed: 'failed' } as const;

export const toAttachment = (row: AttachmentRow): Attachment => ({ id: row.id, filename: row.filename, content_type: row.content_type, size: row.size });

/** A message as shown; `attachments` may hold other messages' too (a conversation's, say): its own are picked. */
export const toMessage = (row: MessageRow & Partial<Pick<StoredMessageRow, 'delivery_status' | 'delivery_error'>>, attachments: readonly AttachmentRow[] = []): Message => ({
  id: row.id,
  sender_type: row.sender_type as SenderType,
  sender_id: row.sender_id,
  body: row.body,
  sender_name: row.sender_name,
  created_at: row.created_at,
  internal: row.internal === 1,
  full_body: row.full_body ?? null,
  delivery: row.delivery_status ? { status: DELIVERY_STATUS[row.delivery_status], error: row.delivery_error ?? null } : null,
  attachments: attachments.filter((attachment) => attachment.message_id === row.id).map(toAttachment),
});


export const toLinkedIssue = (row: LinkedIssueRow): LinkedIssue => ({
  id: row.id, shortcode: row.shortcode, title: row.title, status: row.status as IssueStatus,
});
