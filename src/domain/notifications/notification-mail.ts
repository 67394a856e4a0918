// What a notification mail says (docs/email.md, "Notifications by mail"): what happened in one
// conversation (each notification of the mail's window, with its time in the member's time zone)
// and the link to the conversation in the app. It quotes no message: the customer's words stay in
// Loopdesk, where erasure reaches them; the conversation's title and the actor's name, read when the
// mail goes, are all it carries of them.
import { oneLine } from '../../lib/one-line.js';
import { quotedDate } from '../email/reply-mail.js';
import type { Notification } from './notification.shapes.js';

export interface NotificationMail {
  subject: string;
  text: string;
}

const TITLE_MAX = 120;

/** One line per notification: "Ada Lovelace wrote in “Export does nothing”". */
function headline({ kind, actor, conversation }: Notification): string {
  const title = `“${oneLine(conversation.title, TITLE_MAX)}”`;
  const name = actor?.name ? oneLine(actor.name, 100) : null;
  if (kind === 'assigned') return `${name ?? 'Someone'} assigned you ${title}`;
  if (kind === 'message') return `${name ?? 'The contact'} wrote in ${title}`;
  return `${name ?? 'Someone'} mentioned you in a note on ${title}`;
}

/** `notifications`: the window's, oldest first (at least one); `url`: the conversation in the app. */
export function composeNotificationMail(notifications: readonly Notification[], url: string, timeZone: string | null): NotificationMail {
  const more = notifications.length - 1;
  const subject = `${headline(notifications[0]!)}${more > 0 ? ` (and ${more} more)` : ''}`;
  const lines = notifications.map((notification) => `${quotedDate(notification.created_at, timeZone)}: ${headline(notification)}`);
  const text = [
    ...lines,
    '',
    `Open the conversation: ${url}`,
    '',
    '-- ',
    'You receive this because email notifications are on in your Loopdesk settings; at most one mail per conversation every 10 minutes.',
  ].join('\n');
  return { subject, text };
}
