// HTML made from text people wrote, safely: every text escaped, and Markdown rendered with raw HTML
// off (markdown-it also refuses javascript: and similar link targets), so nothing written can inject
// markup or script. The public changelog (release notes) and mailed replies (docs/email.md) use it.
import MarkdownIt from 'markdown-it';

/** Characters XML 1.0 cannot carry at all (escaping does not help), dropped. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeText = (text: string): string => text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

const documents = new MarkdownIt({ html: false, linkify: true });
/** For messages, which people write as text: each line break stays a line break. */
const messages = new MarkdownIt({ html: false, linkify: true, breaks: true });

/** `text` as Markdown rendered to HTML; `lineBreaks`: a single line break is a `<br>`, as in a message. */
export const renderMarkdown = (text: string, { lineBreaks = false } = {}): string =>
  (lineBreaks ? messages : documents).render(text.replace(NOT_XML, ''));
