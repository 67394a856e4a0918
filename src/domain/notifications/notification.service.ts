// A member's notifications (docs/inbox.md, "Notifications"): their own list, and marking them read.
// Notifications belong to a member, so a key without one (an integration key) has none: a 400 that
// says so, rather than an empty list that would look like "nothing happened".
import type { NotificationRepository } from '../../db/repositories/notification.repository.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import { AppError, invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { toNotification, type Notification } from './notification.shapes.js';

/** The most ids one request marks read: a page's worth. */
export const READ_IDS_MAX = 200;

export type MarkRead = { ids: string[] } | { all: true };

export interface NotificationServiceDeps {
  notifications: Pick<NotificationRepository, 'list' | 'markRead' | 'ownedOf'>;
  clock: Clock;
}

function memberOf(actor: Actor): string {
  if (actor.member) return actor.member.id;
  throw new AppError('validation_error', 'notifications belong to a member, and this API key has none: use a key created for a member, or sign in');
}

export function createNotificationService({ notifications, clock }: NotificationServiceDeps) {
  return {
    /** The caller's notifications, newest first; only the unread ones when asked. */
    async list(actor: Actor, { unread }: { unread: boolean }, page: Page): Promise<PageOf<Notification>> {
      const { rows, total } = await notifications.list(actor.workspaceId, memberOf(actor), unread, page);
      return { rows: rows.map(toNotification), total };
    },

    /**
     * Marks the caller's notifications read: those named, or all. An id that is not one of the
     * caller's notifications makes the request a 400 on `ids` naming it, as every other reference
     * to what a workspace does not hold is; another member's notification and an id that names
     * nothing get the same answer, so nothing tells whether someone else's exists. Read ones stay as
     * they were (their read_at is when they were first read).
     */
    async markRead(actor: Actor, input: MarkRead): Promise<void> {
      const memberId = memberOf(actor);
      const ids = 'ids' in input ? [...new Set(input.ids.map((id) => parseUuid(id)!))] : null;
      if (ids) {
        const owned = new Set(await notifications.ownedOf(actor.workspaceId, memberId, ids));
        const strangers = ids.filter((id) => !owned.has(id));
        if (strangers.length > 0) throw invalidField('ids', `not notifications of yours: ${strangers.join(', ')}`);
      }
      await notifications.markRead(actor.workspaceId, memberId, ids, clock.now());
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
