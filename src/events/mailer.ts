// Sending one email by SMTP with nodemailer (a release announcement, an agent's reply): a connection
// per email (nothing is left open between cycles), cut at the timeout. The outcome says whether the
// server accepted the message, and whether a refusal is worth retrying.
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { MailConfig } from '../config.js';
import type { EmailContent } from '../domain/releases/announcement.service.js';
import { mailFromAddress } from '../domain/email/addresses.js';
import { oneLine } from '../lib/one-line.js';

export interface SendResult {
  ok: boolean;
  /** The server refused the recipient's address for good (5xx to RCPT TO): retrying cannot help. */
  permanent: boolean;
  /** Why it failed, short and without credentials; null on success. */
  error: string | null;
}

const ERROR_MAX = 300;

/** What an email needs beyond its content: a reply's threading headers (without angle brackets). */
export interface MailOptions {
  /** The From name in front of LOOPDESK_MAIL_FROM's address (kept to one line); without it, LOOPDESK_MAIL_FROM as it is. */
  fromName?: string | null;
  text?: string;
  html?: string;
  messageId?: string;
  inReplyTo?: string | null;
  references?: readonly string[];
  replyTo?: string | null;
  /** The envelope sender (MAIL FROM), where delivery reports go; without it, the From address. */
  returnPath?: string | null;
  /** A machine's mail (a notification): `Auto-Submitted: auto-generated`, so that out-of-office replies leave it alone (RFC 3834). */
  autoSubmitted?: boolean;
}

interface SmtpError extends Error {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
}

function failure(error: SmtpError): SendResult {
  const permanent = error.command === 'RCPT TO' && (error.responseCode ?? 0) >= 500;
  const said = error.response ? `: ${error.response}` : '';
  const where = error.command ? ` (${error.command})` : '';
  return { ok: false, permanent, error: oneLine(error.response ? `SMTP ${error.responseCode}${where}${said}` : `${error.code ?? 'error'}: ${error.message}`, ERROR_MAX) };
}

export function createMailer({ smtpUrl, from, timeoutMs }: MailConfig) {
  const fromAddress = mailFromAddress(from);
  const options: SMTPTransport.Options = { url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs };
  // nodemailer loads when mail is configured, not in every server.
  const transport = import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options));
  transport.catch(() => {}); // a failed load fails each send, not the process

  return {
    async send({ to, subject, fromName, text, html, messageId, inReplyTo, references, replyTo, returnPath, autoSubmitted }: Pick<EmailContent, 'to' | 'subject'> & MailOptions): Promise<SendResult> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })), timeoutMs);
      });
      try {
        const bracketed = (id: string) => `<${id}>`;
        // Names stored before they were kept to one line (src/domain/contacts/contact-name.ts) go out on one line too.
        const name = to.name && oneLine(to.name);
        const sender = fromName && oneLine(fromName);
        await Promise.race([(await transport).sendMail({
          from: sender ? { name: sender, address: fromAddress } : from, to: name ? { name, address: to.address } : to.address, subject, text, html,
          ...(messageId ? { messageId: bracketed(messageId) } : {}),
          ...(inReplyTo ? { inReplyTo: bracketed(inReplyTo) } : {}),
          ...(references?.length ? { references: references.map(bracketed) } : {}),
          ...(replyTo ? { replyTo } : {}),
          ...(returnPath ? { envelope: { from: returnPath, to: to.address } } : {}),
          ...(autoSubmitted ? { headers: { 'Auto-Submitted': 'auto-generated' } } : {}),
        }), deadline]);
        return { ok: true, permanent: false, error: null };
      } catch (error) {
        return failure(error as SmtpError);
      } finally {
        clearTimeout(timer);
      }
    },

    close(): void {
      void transport.then((opened) => opened.close(), () => {});
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
