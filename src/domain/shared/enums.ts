// The contract's enumerations, shared by services, schemas and tests.
export const ISSUE_STATUSES = ['pending', 'in_progress', 'icebox', 'done', 'released', 'dismissed'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const CONVERSATION_TYPES = ['ticket', 'idea', 'feedback', 'chat'] as const;
export type ConversationType = (typeof CONVERSATION_TYPES)[number];

export const CONVERSATION_STATUSES = ['open', 'in_progress', 'resolved', 'dismissed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const CONVERSATION_SOURCES = ['chat', 'form', 'email'] as const;
/** [ext] How a conversation came in: the widget's chat, its form, email, or an import through the API. */
export const CONVERSATION_CHANNELS = ['chat', 'form', 'email', 'import'] as const;
export type ConversationSource = (typeof CONVERSATION_SOURCES)[number];
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];

/** What triage does with a product's conversations (docs/triage.md). */
export const TRIAGE_MODES = ['off', 'suggest', 'auto'] as const;
export type TriageMode = (typeof TRIAGE_MODES)[number];

export const SUGGESTION_KINDS = ['link', 'create'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

export const SUGGESTION_STATUSES = ['open', 'accepted', 'dismissed'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

export const SENDER_TYPES = ['agent', 'contact', 'system'] as const;
export type SenderType = (typeof SENDER_TYPES)[number];

/** How an agent's reply sent by mail stands (docs/email.md). */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
