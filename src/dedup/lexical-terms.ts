// What the lexical matcher compares: a text's character trigrams (with their counts) and its
// distinct words, on normalized text without articles; and when two words are one typo apart.
import { normalize } from './text.js';

const GRAM = 3;

// Articles carry no meaning for deduplication ("the app crashes" = "an app crashes"); listed
// for the languages the product is used in.
const ARTICLES = new Set([
  'a', 'an', 'the', 'el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'le', 'les', 'l', 'une', 'des',
  'der', 'die', 'das', 'den', 'dem', 'ein', 'eine', 'einen', 'einem', 'einer', 'il', 'lo', 'gli', 'uno',
]);

export interface Terms {
  /** Trigram → how often the text uses it, in order of first use (the order scores are summed in). */
  grams: Map<string, number>;
  /** The distinct words, in order of first use. */
  words: Set<string>;
}

export function terms(text: string): Terms {
  const grams = new Map<string, number>();
  const words = new Set<string>();
  for (const word of normalize(text).split(' ')) {
    if (word === '' || ARTICLES.has(word)) continue;
    words.add(word);
    for (const gram of wordGrams(word)) grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return { grams, words };
}

/** A word's trigrams, padded with a space on each side (the whole padded word when shorter). */
export function wordGrams(word: string): string[] {
  const padded = ` ${word} `;
  if (padded.length <= GRAM) return [padded];
  return Array.from({ length: padded.length - GRAM + 1 }, (_, i) => padded.slice(i, i + GRAM));
}

/** Whether two different words are the same word with one typo (two in long words). */
export function typo(a: string, b: string): boolean {
  const allowed = Math.min(a.length, b.length) >= 8 ? 2 : Math.min(a.length, b.length) >= 4 ? 1 : 0;
  if (allowed === 0 || Math.abs(a.length - b.length) > allowed) return false;
  // Optimal string alignment distance (a swap of neighbours is one edit), rows of three.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j], before[j - 2] + 1);
    }
    if (Math.min(...current) > allowed) return false;
    [before, previous] = [previous, current];
  }
  return previous[b.length] <= allowed;
}

/** Whether `words` has a word that is `word` with a typo. */
export function someTypo(word: string, words: ReadonlySet<string>): boolean {
  for (const other of words) if (typo(word, other)) return true;
  return false;
}

/** Whether two texts' word sets share a word, exactly or with a typo (tried only when no word is shared exactly). */
export function shareAWord(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const word of a) if (b.has(word)) return true;
  for (const word of a) if (someTypo(word, b)) return true;
  return false;
}
