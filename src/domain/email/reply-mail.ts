// What a mailed reply says (docs/email.md, "What a reply looks like"): from the agent "at" the
// product, the reply, the agent's signature below the `-- ` separator, and the contact's last message
// quoted below that, as text/plain and as text/html. The HTML is the reply's Markdown rendered with
// raw HTML off and every other text escaped (src/lib/html.ts): nothing anyone wrote becomes markup.
import { escapeText, renderMarkdown } from '../../lib/html.js';
import { oneLine } from '../../lib/one-line.js';

/** Names in a From header stay well below what mail systems show. */
const NAME_MAX = 200;

export interface ReplyMailInput {
  body: string;
  /** The replying member's display name; null: the reply has no agent to name (e.g. a key without a member). */
  agentName: string | null;
  productName: string;
  signature: string | null;
  /** The agent's IANA time zone for the quote's date; null: UTC. */
  timeZone: string | null;
  /** The contact's last message before the reply, quoted; null: none. */
  quoted: { name: string | null; body: string; created_at: string } | null;
}

export interface ReplyMail {
  fromName: string;
  text: string;
  html: string;
}

const QUOTE_STYLE = 'margin:0 0 0 .8ex;border-left:1px solid #ccc;padding-left:1ex;color:#555';
const SIGNATURE_STYLE = 'color:#555';

/** "Sun, 6 Dec 2026 at 10:17 UTC" in `timeZone` (UTC when it is unset or no longer known). */
export function quotedDate(instant: string, timeZone: string | null): string {
  const format = (zone: string) => {
    const date = new Date(instant);
    const day = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: zone }).format(date);
    const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short', timeZone: zone }).format(date);
    return `${day} at ${time}`;
  };
  try {
    return format(timeZone ?? 'UTC');
  } catch {
    return format('UTC');
  }
}

const htmlLines = (text: string) => text.split('\n').map(escapeText).join('<br>\n');

export function composeReplyMail({ body, agentName, productName, signature, timeZone, quoted }: ReplyMailInput): ReplyMail {
  const product = oneLine(productName, NAME_MAX);
  const agent = agentName && oneLine(agentName, NAME_MAX);
  const attribution = quoted && `On ${quotedDate(quoted.created_at, timeZone)}, ${oneLine(quoted.name ?? '') || 'you'} wrote:`;
  const quotedLines = quoted?.body.replace(/\r\n?/g, '\n').split('\n') ?? [];

  const text = [
    body,
    ...(signature ? ['', '-- ', signature] : []),
    ...(attribution ? ['', attribution, ...quotedLines.map((line) => (line ? `> ${line}` : '>'))] : []),
  ].join('\n');

  const html = [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"></head><body>',
    `<div class="reply">${renderMarkdown(body, { lineBreaks: true })}</div>`,
    ...(signature ? [`<div class="signature" style="${SIGNATURE_STYLE}">-- <br>\n${htmlLines(signature)}</div>`] : []),
    ...(attribution ? [`<p>${escapeText(attribution)}</p>`, `<blockquote type="cite" style="${QUOTE_STYLE}">${htmlLines(quotedLines.join('\n'))}</blockquote>`] : []),
    '</body></html>',
    '',
  ].join('\n');

  return { fromName: agent ? `${agent} at ${product}` : product, text, html };
}
