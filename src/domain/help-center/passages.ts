// An article's passages: its plain text (one block per line, docs/help-center.md) cut into pieces
// of at most PASSAGE_MAX characters, which answers match a question against and show. Blocks are
// kept whole and joined while they fit; a longer block is cut after a sentence, else before a
// word. What is matched (embedded, or compared word by word) is the article's title with the
// passage, so a passage that never names its subject is still found by it.
import { sha256Hex } from '../../lib/tokens.js';

export const PASSAGE_MAX = 400;

export interface Passage {
  /** What is shown: at most PASSAGE_MAX characters of the article's text. */
  text: string;
  /** What is matched: the title, a newline, the passage (the passage alone when it is the title). */
  input: string;
  /** SHA-256 of `input`: a stored vector is of this text. */
  hash: string;
}

const SENTENCE_END = /[.!?。！？](?=\s)/g;

/** The longest start of `text` (≤ max characters) that ends a sentence, else a word, else max characters. */
function headOf(text: string, max: number): string {
  const window = text.slice(0, max + 1);
  let cut = -1;
  for (const match of window.matchAll(SENTENCE_END)) if (match.index + 1 <= max) cut = match.index + 1;
  if (cut < max / 2) {
    const space = window.lastIndexOf(' ', max);
    if (space > max / 2) cut = space;
  }
  return text.slice(0, cut > 0 ? cut : max).trim();
}

/** A block cut into pieces of at most `max` characters. */
function pieces(block: string, max: number): string[] {
  const out: string[] = [];
  let rest = block.trim();
  while (rest.length > max) {
    const head = headOf(rest, max);
    out.push(head);
    rest = rest.slice(head.length).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** The passages' texts of an article's plain text; the title alone when the text has none. */
export function passageTexts(title: string, bodyText: string): string[] {
  const passages: string[] = [];
  let current = '';
  for (const piece of bodyText.split('\n').flatMap((line) => pieces(line, PASSAGE_MAX))) {
    if (current && current.length + 1 + piece.length <= PASSAGE_MAX) current = `${current}\n${piece}`;
    else {
      if (current) passages.push(current);
      current = piece;
    }
  }
  if (current) passages.push(current);
  return passages.length > 0 ? passages : pieces(title, PASSAGE_MAX).slice(0, 1);
}

export const passageInput = (title: string, text: string): string => (text === title.trim() ? text : `${title.trim()}\n${text}`);

export function articlePassages(title: string, bodyText: string): Passage[] {
  return passageTexts(title, bodyText).map((text) => {
    const input = passageInput(title, text);
    return { text, input, hash: sha256Hex(input) };
  });
}
