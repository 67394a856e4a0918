// Mail for the email tests: the samples of test/fixtures/email/ (placeholders `{{NAME}}` filled in
// by the test) and mail composed by nodemailer, sent to POST /api/v1/inbound/email as a provider forwarding by HTTP would, and
// email settings for a test app with its attachments in a temporary folder.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { EmailConfig } from '../../src/config.js';
import type { ApiResponse, Client } from './harness.js';

export const INBOUND_DOMAIN = 'mail.loopdesk.test';

const FIXTURES = new URL('../fixtures/email/', import.meta.url);

/** A sample's bytes with its placeholders filled in. */
export function mailSample(name: string, values: Record<string, string> = {}): Buffer {
  const raw = readFileSync(new URL(`${name}.eml`, FIXTURES), 'latin1');
  const filled = raw.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`${name}.eml: no value for {{${key}}}`);
    return values[key];
  });
  return Buffer.from(filled, 'latin1');
}

let senders = 0;

/** A minimal mail of our own making, for the rules the samples do not cover; from a sender of its own unless `from` says. */
export function plainMail({ from = `Sender ${++senders} <sender-${process.pid}-${senders}@example.com>`, to = 'support@example.com', subject = 'Hello', messageId, headers = {}, body = 'Hello there.' }: {
  from?: string; to?: string; subject?: string; messageId: string; headers?: Record<string, string>; body?: string;
}): Buffer {
  const lines = [`From: ${from}`, `To: ${to}`, `Subject: ${subject}`, `Message-ID: <${messageId}>`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}\r\n`);
}

/** A real MIME message (nodemailer's composer) from `from` with these files; `text` and `inReplyTo` (a Message-ID) when given. */
export function mailWith(from: string, files: { filename: string; content: Buffer; contentType: string }[], { text = 'See attached.', inReplyTo }: { text?: string; inReplyTo?: string } = {}): Promise<Buffer> {
  const messageId = `<${process.pid}.${++senders}.files@example.com>`;
  return new MailComposer({ from, to: 'support@example.com', subject: 'Files', text, messageId, inReplyTo, attachments: files }).compile().build();
}

export function postMail(api: Client, raw: Buffer, productId?: string): Promise<ApiResponse> {
  const query = productId ? `?product_id=${productId}` : '';
  return api.request('POST', `/api/v1/inbound/email${query}`, { payload: raw, headers: { 'content-type': 'message/rfc822' } });
}

/** A minimal delivery report (multipart/report) to `to`, with `diagnostic` as its Diagnostic-Code. */
export function deliveryReport({ to, diagnostic, messageId }: { to: string; diagnostic: string; messageId: string }): Buffer {
  const boundary = 'report-boundary';
  return Buffer.from([
    'From: MAILER-DAEMON@mx.example.net', `To: ${to}`, 'Subject: Undelivered Mail Returned to Sender', `Message-ID: <${messageId}>`,
    'MIME-Version: 1.0', `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`, '',
    `--${boundary}`, 'Content-Type: text/plain; charset=utf-8', '', 'Your message could not be delivered.', '',
    `--${boundary}`, 'Content-Type: message/delivery-status; charset=utf-8', '',
    'Reporting-MTA: dns; mx.example.net', '', 'Final-Recipient: rfc822; nobody@example.com', 'Action: failed', 'Status: 5.1.1', `Diagnostic-Code: smtp; ${diagnostic}`, '',
    `--${boundary}--`, '',
  ].join('\r\n'));
}

/** Email settings for a test app: the test domain, a sender limit, attachments in a fresh temporary folder. */
export function testEmailConfig(overrides: Partial<EmailConfig> = {}): EmailConfig {
  return {
    inboundDomain: INBOUND_DOMAIN, smtpListen: null, newConversationsPerSenderHour: 3,
    attachments: { kind: 'folder', dir: mkdtempSync(join(tmpdir(), 'loopdesk-attachments-')) }, returnPath: 'reply', ...overrides,
  };
}
