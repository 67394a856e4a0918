// Sends agents' replies in email conversations (docs/email.md) from the dispatcher's cycle, as the
// announcer sends announcement emails: a reply's job is written in the transaction of the message
// (the outbox), claimed with a lease (the SMTP timeout and a margin), sent after the claim commits,
// and marked done as soon as the SMTP server accepts. A process that dies between the acceptance
// and that one-row update leaves the job to fall due again when its lease runs out; the resend
// carries the same Message-ID, so the recipient's mail system shows one message. Failures are
// retried on the webhook schedule, then the reply is `failed`; a refused recipient fails at once.
// What the mail says (From the agent at the product, signature, quote) is src/domain/email/reply-mail.ts;
// the cycle (claim, send, record) is every queued mail's, src/events/job-mailer.ts. Without SMTP,
// replies are marked failed when written and none are claimed.
import type { ClaimedEmailJob, EmailJobRepository } from '../db/repositories/email-job.repository.js';
import type { MemberRepository } from '../db/repositories/member.repository.js';
import type { MessageRepository } from '../db/repositories/message.repository.js';
import { replyAddress, returnPathAddress } from '../domain/email/addresses.js';
import { composeReplyMail } from '../domain/email/reply-mail.js';
import { parseUuid } from '../lib/ids.js';
import { createJobMailer, type MailCycleDeps } from './job-mailer.js';
import type { Mailer, SendResult } from './mailer.js';

/** A reply's References name at most this many earlier mails of the thread (the latest). */
const REFERENCES_MAX = 20;

export interface ReplyMailerDeps extends MailCycleDeps {
  emailJobs: Pick<EmailJobRepository, 'claimDue' | 'recordOutcome' | 'replyOf'>;
  messages: Pick<MessageRepository, 'emailMessageIdsOf' | 'lastFromContact'>;
  members: Pick<MemberRepository, 'replySignerOf'>;
  /** LOOPDESK_INBOUND_DOMAIN: replies name the conversation's reply address as Reply-To; null: no Reply-To. */
  inboundDomain: string | null;
  /** Replies go out from their own return path on the inbound domain (LOOPDESK_MAIL_RETURN_PATH=reply); else from the From address. */
  returnPaths: boolean;
}

export function createReplyMailer({ emailJobs, messages, members, inboundDomain, returnPaths, ...cycle }: ReplyMailerDeps) {
  /** Sends the reply the job stands for; what the SMTP server said. */
  async function sendReply(job: ClaimedEmailJob, mailer: Mailer): Promise<SendResult> {
    const reply = await emailJobs.replyOf(job.workspace_id, job.id);
    if (!reply?.contact_email || !reply.email_message_id) return { ok: false, permanent: true, error: 'the conversation\'s contact has no email address' };
    const thread = (await messages.emailMessageIdsOf(job.workspace_id, reply.conversation_id)).filter((mail) => mail.email_message_id !== reply.email_message_id);
    const lastFromContact = thread.filter((mail) => mail.sender_type === 'contact').at(-1);
    const quoted = await messages.lastFromContact(job.workspace_id, reply.conversation_id, reply.created_at);
    // The replying member as they are now; a removed one keeps the name the reply was written with, a
    // key without a member has neither (its reply is signed by the product alone).
    const signer = parseUuid(reply.sender_id) ? await members.replySignerOf(job.workspace_id, reply.sender_id) : undefined;
    const { fromName, text, html } = composeReplyMail({
      body: reply.body, agentName: signer?.display_name ?? reply.sender_name, productName: reply.product_name,
      signature: signer?.signature ?? null, timeZone: signer?.time_zone ?? null, quoted: quoted ? { name: quoted.sender_name ?? reply.contact_name, body: quoted.body, created_at: quoted.created_at } : null,
    });
    return mailer.send({
      to: { name: reply.contact_name, address: reply.contact_email },
      subject: /^re:/i.test(reply.title) ? reply.title : `Re: ${reply.title}`,
      fromName, text, html,
      messageId: reply.email_message_id,
      inReplyTo: lastFromContact?.email_message_id ?? null,
      references: thread.slice(-REFERENCES_MAX).map((mail) => mail.email_message_id),
      replyTo: inboundDomain && replyAddress(reply.inbound_name, reply.reply_token, inboundDomain),
      returnPath: returnPaths && inboundDomain && reply.return_path_token ? returnPathAddress(reply.return_path_token, inboundDomain) : null,
    });
  }

  return createJobMailer<ClaimedEmailJob>({
    ...cycle,
    claim: (now, leaseUntil, limit, tx) => emailJobs.claimDue(now, leaseUntil, limit, tx),
    send: sendReply,
    record: (job, outcome) => emailJobs.recordOutcome(job, outcome),
  });
}

export type ReplyMailer = ReturnType<typeof createReplyMailer>;
