// The events docs/events.md names: one per kind of committed change.
export const EVENT_TYPES = [
  'product.created', 'product.updated',
  'issue.created', 'issue.updated',
  'conversation.created', 'conversation.updated', 'conversation.sla_breached',
  'message.created',
  'release.created', 'release.updated', 'release.published',
  'suggestion.created', 'suggestion.updated',
  'article.created', 'article.updated', 'article.published',
] as const;

/**
 * Events addressed to one member (`data.member_id`): the team stream carries each to that member
 * alone, and no webhook receives them (docs/inbox.md, "Notifications").
 */
export const MEMBER_EVENT_TYPES = ['notification.created'] as const;

/** What the team stream may carry: the webhooks' events and the members' own. */
export const STREAM_EVENT_TYPES = [...EVENT_TYPES, ...MEMBER_EVENT_TYPES] as const;

/**
 * [ext] What the team stream carries besides the recorded events: announced to the streams open at
 * the moment, never stored, never replayed, never sent to webhooks (docs/automation.md, "Collision").
 */
export const PASSING_EVENT_TYPES = ['presence'] as const;

/** Everything the team stream may carry. */
export const TEAM_STREAM_TYPES = [...STREAM_EVENT_TYPES, ...PASSING_EVENT_TYPES] as const;

/** A webhook's event type. */
export type EventType = (typeof EVENT_TYPES)[number];
/** Any event type the outbox records. */
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];
/** Any event type a live stream may carry. */
export type LiveEventType = (typeof TEAM_STREAM_TYPES)[number];

export const isMemberEvent = (type: string): boolean => (MEMBER_EVENT_TYPES as readonly string[]).includes(type);

/** What a write records: the resource as its GET /api/v1 detail returns it, and on `*.updated` the changed fields' old values. */
export interface DomainEvent {
  type: StreamEventType;
  workspaceId: string;
  data: object;
  previous?: Record<string, unknown>;
}

/**
 * [ext] Who made a change, where the change says: an automation rule, or who ran a macro (a member,
 * or an API key without one) (docs/automation.md). At the payload's top level, beside `type`.
 */
export interface EventActor {
  type: 'rule' | 'member' | 'api_key';
  id: string;
}

/** The Standard Webhooks payload: `{ type, timestamp, data }`, `previous` inside `data` on `*.updated`, and [ext] `actor` when known. */
export interface EventPayload {
  type: LiveEventType;
  timestamp: string;
  data: Record<string, unknown>;
  actor?: EventActor;
}
