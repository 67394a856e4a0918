// [ext] The calling member's notifications (docs/inbox.md, "Notifications").
import { Type } from '@sinclair/typebox';
import type { NotificationService } from '../../domain/notifications/notification.service.js';
import type { TypedApp } from '../route.js';
import { ListOf, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { ListNotificationsQuery, MarkNotificationsReadBody, Notification } from '../schemas/notification.js';

const TAGS = ['Notifications'];
const MEMBERS_ONLY = ' Notifications belong to a member: a key without a member gets 400.';

export function notificationRoutes(app: TypedApp, notifications: NotificationService): void {
  app.get('/notifications', {
    schema: {
      operationId: 'listNotifications', tags: TAGS, summary: '[ext] List your notifications',
      description:
        'The calling member\'s notifications, newest first (created_at, then id): a conversation assigned to them (`assigned`), ' +
        'a contact writing in a conversation assigned to them (`message`), a note mentioning them (`mention`). Nobody is notified ' +
        `of their own doing. \`unread=true\` lists the unread ones only. New ones also come live on GET /events/stream as notification.created.${MEMBERS_ONLY}`,
      querystring: ListNotificationsQuery,
      response: { 200: ListOf(Notification, 'A page of the member\'s notifications'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await notifications.list(request.actor, { unread: request.query.unread ?? false }, page), page);
    },
  });

  app.post('/notifications/read', {
    schema: {
      operationId: 'markNotificationsRead', tags: TAGS, summary: '[ext] Mark notifications read',
      description:
        '`{ ids }` marks those of the calling member\'s notifications read (ids that are not theirs are ignored, so nothing tells ' +
        `whether another member's exist); \`{ all: true }\` marks all of them. Exactly one of the two. Already read ones keep their read_at.${MEMBERS_ONLY}`,
      body: MarkNotificationsReadBody,
      response: { 204: Type.Null({ description: 'Marked read' }), ...writeErrors() },
    },
    handler: async (request, reply) => {
      await notifications.markRead(request.actor, request.body as { ids: string[] } | { all: true });
      reply.code(204);
      return null;
    },
  });
}
