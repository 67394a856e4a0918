// The summaries' evaluation measures (`npm run eval:summaries`, docs/triage.md "Summaries"):
// ROUGE-L, the F-measure of the longest common subsequence of two texts' words, and whether a
// summary keeps the numbers and error codes a reference keeps.

const words = new Intl.Segmenter(undefined, { granularity: 'word' });

/** A text's words, lower case, in order (Unicode's word boundaries; punctuation dropped). */
export function tokensOf(text: string): string[] {
  return [...words.segment(text.toLowerCase())].filter((segment) => segment.isWordLike).map((segment) => segment.segment);
}

/** The length of the longest common subsequence of two word lists (one row of the table at a time). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const word of a) {
    const row = [0];
    for (let j = 0; j < b.length; j++) row.push(word === b[j] ? previous[j] + 1 : Math.max(previous[j + 1], row[j]));
    previous = row;
  }
  return previous[b.length];
}

/** ROUGE-L F1 of a candidate against a reference: 0 when either has no word. */
export function rougeL(candidate: string, reference: string): number {
  const c = tokensOf(candidate);
  const r = tokensOf(reference);
  const lcs = lcsLength(c, r);
  if (lcs === 0) return 0;
  const precision = lcs / c.length;
  const recall = lcs / r.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * A text's numbers and error codes: runs of letters, digits and inner `. , : / -` that hold a digit
 * ("403", "4.2", "INV-20931", "14:00"), and upper-case identifiers with an underscore ("ERR_SYNC_TIMEOUT").
 */
export function codesOf(text: string): Set<string> {
  const codes = new Set<string>();
  for (const [token] of text.matchAll(/[\p{L}\p{N}_]+(?:[.,:/-][\p{L}\p{N}_]+)*/gu)) {
    if (/\p{N}/u.test(token) || /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(token)) codes.add(token.toLowerCase());
  }
  return codes;
}

/** Whether `candidate` holds every number and error code of `reference`. */
export const keepsCodes = (candidate: string, reference: string): boolean => {
  const kept = codesOf(candidate);
  return [...codesOf(reference)].every((code) => kept.has(code));
};
