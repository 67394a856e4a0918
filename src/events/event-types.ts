// The events docs/events.md names: one per kind of committed change.
export const EVENT_TYPES = [
  'product.created', 'product.updated',
  'issue.created', 'issue.updated',
  'conversation.created', 'conversation.updated',
  'message.created',
  'release.created', 'release.updated', 'release.published',
  'suggestion.created', 'suggestion.updated',
  'article.created', 'article.updated', 'article.published',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** What a write records: the resource as its GET /api/v1 detail returns it, and on `*.updated` the changed fields' old values. */
export interface DomainEvent {
  type: EventType;
  workspaceId: string;
  data: object;
  previous?: Record<string, unknown>;
}

/** The Standard Webhooks payload: `{ type, timestamp, data }`, `previous` inside `data` on `*.updated`. */
export interface EventPayload {
  type: EventType;
  timestamp: string;
  data: Record<string, unknown>;
}
