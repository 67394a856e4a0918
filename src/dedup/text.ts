// What a matcher sees of an issue, and the normalization the lexical matcher compares.
import { sha256Hex } from '../lib/tokens.js';
import type { IssueText } from './detector.js';

// Models read at most a few hundred tokens; a longer text only costs tokenizer time. The title
// comes first so it is always kept.
const MAX_TEXT_CHARS = 2000;

/** Title and description as one text, the unit every matcher compares. */
export function issueText(issue: IssueText): string {
  const description = issue.description?.trim();
  const text = description ? `${issue.title.trim()}\n${description}` : issue.title.trim();
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

/** Identifies the text a stored vector was computed from. */
export const textHash = (text: string): string => sha256Hex(text);

/**
 * Unicode NFKC, lower case, accents removed, punctuation and symbols turned into spaces,
 * whitespace collapsed: "¿Cómo  CANCELO el pedido?" → "como cancelo el pedido".
 */
export function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}
