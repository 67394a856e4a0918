// Sends members' notification mail (docs/email.md, "Notifications by mail") from the dispatcher's
// cycle, the way replies go (src/events/job-mailer.ts): a job written in the transaction of the
// notification that started it, claimed with a lease, sent after the claim commits, marked done
// once the SMTP server accepts, failures retried on the webhook schedule. What it says is read when
// it goes: every notification of the member in that conversation since the job was written (its
// 10-minute window), so those that came while it waited are in it.
import type { ClaimedNotificationMail, NotificationRepository } from '../db/repositories/notification.repository.js';
import { composeNotificationMail } from '../domain/notifications/notification-mail.js';
import { toNotification } from '../domain/notifications/notification.shapes.js';
import { createJobMailer, type MailCycleDeps } from './job-mailer.js';
import type { Mailer, SendResult } from './mailer.js';

export interface NotificationMailerDeps extends MailCycleDeps {
  notifications: Pick<NotificationRepository, 'claimDueMails' | 'recordMailOutcome' | 'inWindow' | 'recipientOf'>;
  /** Where the app is (LOOPDESK_PUBLIC_URL, else the address the server listens on): the mail links to the conversation there. */
  appBase: string;
}

/** A mail with nobody to go to, or nothing to say, is done without sending. */
const NOTHING_TO_SEND: SendResult = { ok: true, permanent: false, error: null };

export function createNotificationMailer({ notifications, appBase, ...cycle }: NotificationMailerDeps) {
  async function sendMail(job: ClaimedNotificationMail, mailer: Mailer): Promise<SendResult> {
    const recipient = await notifications.recipientOf(job.workspace_id, job.member_id);
    // The member turned mail off since it was queued, or has no account to write to.
    if (!recipient?.notify_email) return NOTHING_TO_SEND;
    const rows = await notifications.inWindow(job.workspace_id, job.member_id, job.conversation_id, job.created_at);
    if (rows.length === 0) return NOTHING_TO_SEND;
    const url = `${appBase.replace(/\/+$/, '')}/app/inbox/${job.conversation_id}`;
    const { subject, text } = composeNotificationMail(rows.map(toNotification), url, recipient.time_zone);
    return mailer.send({ to: { name: recipient.display_name, address: recipient.email }, subject, text, autoSubmitted: true });
  }

  return createJobMailer<ClaimedNotificationMail>({
    ...cycle,
    claim: (now, leaseUntil, limit, tx) => notifications.claimDueMails(now, leaseUntil, limit, tx),
    send: sendMail,
    record: (job, outcome) => notifications.recordMailOutcome(job, outcome),
  });
}
