// Which passages answer a question (docs/help-center.md, "Answers"): every published passage of the
// product is scored against the question, each article keeps its best passage, one article per
// translation group (the best-scoring), best first, at most ANSWER_LIMIT, none below the matcher's
// calibrated threshold (answer-thresholds.ts). Two ways to score, the duplicate detector's:
// - by meaning, when it has an embedder: the cosine of the question's vector and the passage's
//   (title and passage, embedded once and stored);
// - by words otherwise: the share of the question's words (IDF-weighted over the product's
//   passages, so words every article uses count little) that the passage holds, exactly or with
//   one typo, normalized as the lexical matcher normalizes (case, accents, punctuation, articles).
//   Function words ("how do I", "cómo puedo") are left out of the question: a small help center
//   has too few passages for IDF to learn that they say nothing.
// The evaluation (eval/eval-answers.ts) runs these same functions.
import { idf } from '../../dedup/lexical-grams.js';
import { someTypo, terms } from '../../dedup/lexical-terms.js';
import { unit } from '../../dedup/vector-cache.js';
import { STOPWORDS } from '../../summaries/stopwords.js';

export const ANSWER_LIMIT = 5;

/** What retrieval needs of a passage. */
export interface RetrievablePassage {
  articleId: string;
  /** The article's translation group (its original's id). */
  group: string;
  /** What is matched (title and passage). */
  input: string;
}

export interface ScoredPassage<P> {
  passage: P;
  score: number;
}

/** The product's passages as the word matcher reads them: each one's words, and every word's IDF. */
export interface WordIndex {
  words: ReadonlySet<string>[];
  idf: ReadonlyMap<string, number>;
  /** The weight of a word no passage holds: that of the rarest words (a typo, a word the help center does not use). */
  unseen: number;
}

export function wordIndex(inputs: readonly string[]): WordIndex {
  const words = inputs.map((input) => terms(input).words);
  const df = new Map<string, number>();
  for (const set of words) for (const word of set) df.set(word, (df.get(word) ?? 0) + 1);
  const weights = new Map([...df].map(([word, n]) => [word, idf(inputs.length, n)]));
  return { words, idf: weights, unseen: idf(inputs.length, 1) };
}

/**
 * Each passage's share of the question's IDF-weighted words, in 0..1. A typo counts for words of
 * four letters or more (lexical-terms.ts); a passage that holds none of the words scores 0.
 */
export function wordScores(index: WordIndex, question: string): number[] {
  const all = [...terms(question).words];
  const content = all.filter((word) => !STOPWORDS.has(word));
  const asked = content.length > 0 ? content : all;
  const weight = (word: string) => index.idf.get(word) ?? index.unseen;
  const total = asked.reduce((sum, word) => sum + weight(word), 0);
  if (total === 0) return index.words.map(() => 0);
  return index.words.map((words) => {
    let found = 0;
    let exact = false;
    for (const word of asked) if (words.has(word)) { found += weight(word); exact = true; }
    // Typos only where a word is shared already: a passage sharing nothing is no answer.
    if (exact) for (const word of asked) if (!words.has(word) && someTypo(word, words)) found += weight(word);
    return found / total;
  });
}

/** Each passage's cosine with the question; a passage without a usable vector scores 0. */
export function vectorScores(vectors: readonly (Float32Array | null)[], question: Float32Array): number[] {
  const q = unit(question);
  if (!q) return vectors.map(() => 0);
  return vectors.map((vector) => {
    if (!vector || vector.length !== q.length) return 0;
    let dot = 0;
    for (let i = 0; i < q.length; i++) dot += q[i] * vector[i];
    return dot;
  });
}

/** The best passage of each translation group, best first, at most `limit`, none below `threshold`. */
export function bestPassages<P extends RetrievablePassage>(passages: readonly P[], scores: readonly number[], threshold: number, limit = ANSWER_LIMIT): ScoredPassage<P>[] {
  const best = new Map<string, ScoredPassage<P>>();
  for (const [i, passage] of passages.entries()) {
    const score = scores[i];
    if (!(score >= threshold)) continue;
    const held = best.get(passage.group);
    if (!held || score > held.score) best.set(passage.group, { passage, score });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.passage.articleId.localeCompare(b.passage.articleId)).slice(0, limit);
}
