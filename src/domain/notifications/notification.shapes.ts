// A notification as the API shows it (GET /api/v1/notifications, the notification.created event).
import type { ListedNotificationRow } from '../../db/repositories/notification.repository.js';
import type { ConversationSummary } from '../issues/issue.shapes.js';
import type { ConversationStatus, ConversationType, Priority } from '../shared/enums.js';

export const NOTIFICATION_KINDS = ['assigned', 'message', 'mention'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const ACTOR_TYPES = ['member', 'contact'] as const;

/** Who caused a notification: a member (who assigned, who wrote the note) or a contact (who wrote). */
export interface NotificationActor {
  type: (typeof ACTOR_TYPES)[number];
  id: string;
  name: string | null;
}

export interface Notification {
  id: string;
  kind: NotificationKind;
  conversation: ConversationSummary;
  actor: NotificationActor | null;
  created_at: string;
  read_at: string | null;
}

function actorOf(row: ListedNotificationRow): NotificationActor | null {
  if (row.actor_member_id) return { type: 'member', id: row.actor_member_id, name: row.actor_member_name };
  if (row.actor_contact_id) return { type: 'contact', id: row.actor_contact_id, name: row.actor_contact_name };
  return null;
}

export const toNotification = (row: ListedNotificationRow): Notification => ({
  id: row.id,
  kind: row.kind,
  conversation: {
    id: row.conversation_id, title: row.title, type: row.type as ConversationType, status: row.status as ConversationStatus,
    priority: row.priority as Priority, ai_summary: row.ai_summary, created_at: row.conversation_created_at,
  },
  actor: actorOf(row),
  created_at: row.created_at,
  read_at: row.read_at,
});
