// A raw message read with a real MIME parser (mailparser: encodings, charsets, HTML-only mail turned
// into text, attachments and inline images) into what the inbound rules need, and nothing by hand
// but two things mailparser leaves to its caller: the quoted history (email-reply-parser) and the
// fields of a delivery report.
import { AppError } from '../../errors.js';
import type { AddressObject, HeaderValue, ParsedMail } from 'mailparser';
import { oneLine } from '../../lib/one-line.js';

export interface InboundFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** What a delivery report says about the message it returns (which one, its return path says). */
export interface DeliveryReport {
  /** Why, as the reporting server put it (its Diagnostic-Code, else its Status), on one line, at most 300 characters. */
  reason: string;
}

export interface InboundMail {
  /** Without angle brackets; a made-up one when the mail has none. */
  messageId: string;
  /** In-Reply-To then References, newest first, without angle brackets. */
  threadIds: string[];
  from: { address: string; name: string | null } | null;
  /** Every address the mail was sent to (To, Cc, Delivered-To, X-Original-To), lowercased. */
  recipients: string[];
  subject: string;
  /** The text part (or the HTML part as text), up to FULL_BODY_MAX characters. */
  fullText: string;
  /** The text without the quoted history and the signature. */
  visibleText: string;
  files: InboundFile[];
  /** Auto-Submitted other than `no`, Precedence bulk|junk|list, or a List-Id: not a person writing. */
  automatic: boolean;
  /** Set when the mail is a delivery report (multipart/report; report-type=delivery-status). */
  report: DeliveryReport | null;
}

const unbracket = (id: string) => id.trim().replace(/^<|>$/g, '');
const idsIn = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((item) => item.match(/<[^<>\s]+>|[^<>\s]+@[^<>\s]+/g) ?? []).map(unbracket);

const headerText = (value: HeaderValue | undefined): string => {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => headerText(item as HeaderValue)).join(',');
  if (value instanceof Date) return value.toISOString();
  return 'value' in value && typeof value.value === 'string' ? value.value : 'text' in value ? String(value.text) : '';
};

const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((group) => group.value).flatMap((entry) => (entry.address ? [entry.address] : []));

function isAutomatic(mail: ParsedMail): boolean {
  const autoSubmitted = headerText(mail.headers.get('auto-submitted')).trim().toLowerCase();
  const precedence = headerText(mail.headers.get('precedence')).trim().toLowerCase();
  // mailparser gathers the List-* headers into one `list` header: `{ id: …, unsubscribe: … }`.
  const list = mail.headers.get('list') as { id?: unknown } | undefined;
  return (autoSubmitted !== '' && autoSubmitted !== 'no') || ['bulk', 'junk', 'list'].includes(precedence) || list?.id !== undefined;
}

const REASON_MAX = 300;

function reportReason(mail: ParsedMail): string {
  const text = `${mail.text ?? ''}\n${mail.attachments.filter((part) => /delivery-status/i.test(part.contentType)).map((part) => part.content.toString('utf8')).join('\n')}`;
  const unfolded = text.replace(/\r?\n[ \t]+/g, ' ');
  const diagnostic = /^Diagnostic-Code:\s*(?:smtp;\s*)?(.+)$/im.exec(unfolded)?.[1];
  const status = /^Status:\s*(\S+)/im.exec(unfolded)?.[1];
  return oneLine(diagnostic ?? (status ? `delivery failed with status ${status}` : 'the receiving mail server returned it'), REASON_MAX);
}

function isDeliveryReport(mail: ParsedMail): boolean {
  const contentType = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  return contentType?.value?.toLowerCase() === 'multipart/report' && contentType.params?.['report-type']?.toLowerCase() === 'delivery-status';
}

// What one mail may cost the parser (docs/email.md, "Limits"). Mail over the first two is unreadable:
// a 400, an SMTP 554, never a retry.
/** MIME parts a mail may have, at any depth (so it also bounds the nesting), and header bytes per part. */
const MAX_PARTS = 1000;
const MAX_PART_HEADER_BYTES = 1024 * 1024;
/** A longer HTML part is not turned into text: html-to-text takes seconds and hundreds of MB on 25 MiB of it. */
const HTML_TO_TEXT_MAX = 2 * 1024 * 1024;
/** A mail's text is read up to this many characters (all that is kept of it); the reply parser is slow on megabytes. */
const FULL_BODY_MAX = 200_000;

// The parsers load with the first mail: an installation that takes no mail never holds them.
let parsers: Promise<[typeof import('mailparser'), typeof import('email-reply-parser')]> | undefined;
const loadParsers = () => (parsers ??= Promise.all([import('mailparser'), import('email-reply-parser')]));

/** The parsed mail; a mail the parser refuses (its limits, its grammar) is the sender's error, a 400. */
async function parseMail(raw: Buffer): Promise<ParsedMail> {
  const [{ simpleParser }] = await loadParsers();
  try {
    return await simpleParser(raw, {
      skipImageLinks: true, skipTextToHtml: true, maxHtmlLengthToParse: HTML_TO_TEXT_MAX, maxChildNodes: MAX_PARTS, maxHeadSize: MAX_PART_HEADER_BYTES,
    });
  } catch (error) {
    throw new AppError('validation_error', `the mail cannot be read (${(error as Error).message}); a mail may have at most ${MAX_PARTS} MIME parts ` +
      `and ${MAX_PART_HEADER_BYTES / 1024 / 1024} MiB of headers per part`);
  }
}

/** Parses a raw message; `fallbackId` names one that carries no Message-ID. */
export async function readInboundMail(raw: Buffer, fallbackId: () => string): Promise<InboundMail> {
  const [, { default: EmailReplyParser }] = await loadParsers();
  // The text with the quoted history and known signatures removed; the whole text when nothing is left.
  const visibleTextOf = (text: string) => new EmailReplyParser().read(text).getVisibleText().trim() || text.trim();
  const mail = await parseMail(raw);
  // An HTML part the parser would not turn into text (over HTML_TO_TEXT_MAX, nested too deep) is named, not left blank.
  const text = (mail.text?.trim() || !mail.textConversionError) ? (mail.text ?? '') : `[The mail's HTML was not turned into text: ${mail.textConversionError.message}]`;
  const fullText = text.slice(0, FULL_BODY_MAX).replace(/\r\n/g, '\n');
  const sender = mail.from?.value.find((entry) => entry.address);
  const headerAddresses = ['delivered-to', 'x-original-to'].flatMap((name) => headerText(mail.headers.get(name)).split(','));
  const report = isDeliveryReport(mail) ? { reason: reportReason(mail) } : null;
  return {
    messageId: mail.messageId ? unbracket(mail.messageId) : fallbackId(),
    threadIds: [...idsIn(mail.inReplyTo), ...idsIn(mail.references).reverse()],
    from: sender?.address ? { address: sender.address.toLowerCase(), name: sender.name?.trim() || null } : null,
    recipients: [...new Set([...addressesOf(mail.to), ...addressesOf(mail.cc), ...headerAddresses].map((address) => address.trim().toLowerCase()).filter(Boolean))],
    subject: (mail.subject ?? '').trim(),
    fullText,
    visibleText: report ? fullText.trim() : visibleTextOf(fullText),
    files: report ? [] : mail.attachments.map((part) => ({
      filename: part.filename ?? (part.cid ? `inline-${part.cid}` : 'attachment'),
      contentType: part.contentType || 'application/octet-stream',
      content: part.content,
    })),
    automatic: isAutomatic(mail),
    report,
  };
}
