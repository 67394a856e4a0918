// The units of an extractive summary: sentences (Unicode's sentence boundaries, Intl.Segmenter),
// their content words (Unicode's word boundaries, so Chinese and Japanese split into words too),
// and a cut at a word boundary.
import { normalize } from '../dedup/text.js';
import { STOPWORDS } from './stopwords.js';

/** Words are compared by their first letters: a crude stemmer that makes "crashes" meet "crashed", "funciona" meet "funcionar". */
const STEM_LENGTH = 5;
const ELLIPSIS = '…';

// Unicode's rules break after any period before a capital, which splits "e.g. Chrome",
// "Dr. Weber" and the German date "am 3. März"; such a break is undone when the text before it
// ends with a dotted abbreviation or a title, or with a day's number before a month's name
// ("on iOS 17. Thanks!" stays two sentences), and never across a line break. A break with no
// space after it is undone too: it falls inside a URL or a file name.
const ABBREVIATION_END = /(?:^|[\s(])(?:(?:\p{L}\.)+|(?:mr|mrs|ms|dr|prof|sr|sra|srta|dra|st|nr|no|vs|ca|bzw|vgl|ggf|evtl|inkl|approx)\.)[^\S\n]*$/iu;
const DAY_END = /(?:^|\s)\d{1,2}\.[^\S\n]*$/u;
const MONTH_START = /^(?:januar|jänner|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|jan|feb|mär|apr|jun|jul|aug|sept?|okt|nov|dez)(?!\p{L})/iu;

/** A break right after a Latin stop, with no space, is inside a token: "conversations?limit=100". */
const brokenTooEarly = (before: string, after: string): boolean =>
  (/[.?!]$/u.test(before) && /^\S/u.test(after)) || ABBREVIATION_END.test(before) || (DAY_END.test(before) && MONTH_START.test(after));

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(locale: string | undefined, granularity: Intl.SegmenterOptions['granularity']): Intl.Segmenter {
  const key = `${locale ?? ''} ${granularity}`;
  let made = segmenters.get(key);
  if (!made) {
    try {
      made = new Intl.Segmenter(locale, { granularity });
    } catch {
      // A malformed language tag: Unicode's language-neutral rules.
      made = new Intl.Segmenter(undefined, { granularity });
    }
    segmenters.set(key, made);
  }
  return made;
}

/** The sentences of a text, in order, trimmed, whitespace collapsed, empty ones dropped. */
export function sentencesOf(text: string, locale?: string): string[] {
  const pieces: string[] = [];
  for (const { segment } of segmenter(locale, 'sentence').segment(text)) {
    const last = pieces.at(-1);
    if (last !== undefined && brokenTooEarly(last, segment)) pieces[pieces.length - 1] = last + segment;
    else pieces.push(segment);
  }
  return pieces.map((sentence) => sentence.replace(/\s+/gu, ' ').trim()).filter((sentence) => sentence !== '');
}

/** The distinct stems of a sentence's words that carry meaning (no function words, no courtesies). */
export function contentWords(sentence: string, locale?: string): Set<string> {
  const words = new Set<string>();
  for (const { segment, isWordLike } of segmenter(locale, 'word').segment(sentence)) {
    if (!isWordLike) continue;
    const word = normalize(segment).replace(/ /g, '');
    if (word === '' || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
    words.add([...word].slice(0, STEM_LENGTH).join(''));
  }
  return words;
}

/** Length in code points, as the API's limits count. */
export const lengthOf = (text: string): number => [...text].length;

/**
 * `text` if it has at most `max` code points; otherwise cut at the last word boundary that
 * leaves room for an ellipsis (never inside a word, an emoji or a grapheme), trailing
 * punctuation and spaces dropped, with "…" appended.
 */
export function cutAtWord(text: string, max: number, locale?: string): string {
  if (lengthOf(text) <= max) return text;
  let kept = '';
  let length = 0;
  for (const { segment } of segmenter(locale, 'word').segment(text)) {
    const segmentLength = lengthOf(segment);
    if (length + segmentLength > max - ELLIPSIS.length) break;
    kept += segment;
    length += segmentLength;
  }
  const trimmed = kept.replace(/[\s\p{P}]+$/u, '');
  // A first word longer than the whole budget: cut it between graphemes instead.
  const cut = trimmed !== '' ? trimmed : graphemesUpTo(text, max - ELLIPSIS.length);
  return `${cut}${ELLIPSIS}`;
}

function graphemesUpTo(text: string, max: number): string {
  let kept = '';
  for (const { segment } of segmenter(undefined, 'grapheme').segment(text)) {
    if (lengthOf(kept) + lengthOf(segment) > max) break;
    kept += segment;
  }
  return kept;
}
