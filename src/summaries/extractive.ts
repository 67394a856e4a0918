// The built-in summarizer: no network, always there. It picks the customer's own sentences that
// carry the conversation, so the summary is in the customer's language by construction. First
// what says nothing about the problem goes: the quoted history of a reply, greetings, thanks,
// sign-offs and the name under them, requests to look into it, filler openers (courtesy.ts). The
// rest is ranked by centrality (PageRank over a graph of sentence similarities, as TextRank and
// LexRank do: a sentence that shares much with the others states what the message is about),
// weighted by what the sentence holds (specifics.ts: numbers, error codes, versions, devices, words
// saying something is broken, and words of the product's open issues). Similarity is the cosine
// of sentence vectors when the duplicate detector has an embedder, word overlap otherwise.
import type { Embedder } from '../dedup/embedding-detector.js';
import { normalize } from '../dedup/text.js';
import { unit } from '../dedup/vector-cache.js';
import { isRequestAside, ownText, withoutCourtesy, withoutOpeners, withoutSignOff } from './courtesy.js';
import { contentWords, cutAtWord, lengthOf, sentencesOf } from './sentences.js';
import { salienceOf, specificsOf } from './specifics.js';

export const SUMMARY_MAX_LENGTH = 300;
/** A summary is a few sentences, not the message again. */
const MAX_SENTENCES = 3;
/** Sentences ranked at most: the graph costs their square, embedding them their number. */
const MAX_RANKED = 120;
const DAMPING = 0.85;
const ITERATIONS = 50;
const CONVERGED = 1e-7;

export interface ExtractiveOptions {
  /** The conversation's language as a BCP 47 tag, when known; Unicode's language-neutral rules otherwise. */
  locale?: string;
  /** Sentence vectors from this model; on any failure, word overlap. */
  embedder?: Embedder;
  maxLength?: number;
  /** Texts whose words mark a sentence as being about the product (its open issues' titles). */
  vocabulary?: readonly string[];
}

interface Sentence {
  text: string;
  words: Set<string>;
  /** What the sentence holds besides its centrality: specifics, problem words, the product's words. */
  weight: number;
}

/** A ranked sentence: its place among the candidates (the order the customer wrote them) and its score. */
export interface RankedSentence extends Sentence {
  index: number;
  score: number;
  /** How many numbers, codes, quoted messages, devices and platforms it holds. */
  specifics: number;
  /** Whether it is like no other sentence and holds nothing specific: an aside. */
  aside: boolean;
}

/** TextRank's similarity: shared words over the sum of the log lengths. */
function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared === 0 ? 0 : shared / (Math.log(1 + a.size) + Math.log(1 + b.size));
}

const lexicalGraph = (sentences: readonly Sentence[]): number[][] =>
  sentences.map((a, i) => sentences.map((b, j) => (i === j ? 0 : overlap(a.words, b.words))));

/**
 * Cosines above the conversation's mean cosine: embedding models place any two sentences of one
 * text fairly close, and only what stands above that baseline says two sentences share a topic.
 */
async function vectorGraph(sentences: readonly Sentence[], embedder: Embedder): Promise<number[][]> {
  const vectors = (await embedder.embed(sentences.map((sentence) => sentence.text))).map(unit);
  if (vectors.length !== sentences.length || vectors.some((vector) => vector === null)) throw new Error(`${embedder.name}: unusable vectors`);
  const cosine = (i: number, j: number) => vectors[i]!.reduce((sum, value, k) => sum + value * vectors[j]![k], 0);
  const raw = sentences.map((_, i) => sentences.map((_, j) => (i === j ? 0 : cosine(i, j))));
  const pairs = sentences.length * (sentences.length - 1);
  const mean = raw.flat().reduce((sum, value) => sum + value, 0) / pairs;
  return raw.map((row, i) => row.map((value, j) => (i === j ? 0 : Math.max(0, value - mean))));
}

/** PageRank over a weighted graph; a sentence linked to nothing spreads its rank evenly. */
export function centrality(graph: readonly number[][]): number[] {
  const n = graph.length;
  const outWeight = graph.map((row) => row.reduce((sum, value) => sum + value, 0));
  let rank = new Array<number>(n).fill(1 / n);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const dangling = rank.reduce((sum, value, j) => (outWeight[j] === 0 ? sum + value : sum), 0);
    const next = rank.map((_, i) => {
      let incoming = 0;
      for (let j = 0; j < n; j++) if (outWeight[j] > 0) incoming += (graph[j][i] / outWeight[j]) * rank[j];
      return (1 - DAMPING) / n + DAMPING * (incoming + dangling / n);
    });
    const change = next.reduce((sum, value, i) => sum + Math.abs(value - rank[i]), 0);
    rank = next;
    if (change < CONVERGED) break;
  }
  return rank;
}

/** The similarity graph of the sentences: of their vectors when an embedder is given and works, of their words otherwise. */
async function graphOf(sentences: readonly Sentence[], embedder: Embedder | undefined): Promise<number[][]> {
  if (embedder && sentences.length > 1) {
    try {
      return await vectorGraph(sentences, embedder);
    } catch {
      // The model is down or answered nonsense: word overlap still gives a summary.
    }
  }
  return lexicalGraph(sentences);
}

/** A customer's first sentence (after greetings) most often states the point: it weighs this much more. */
const FIRST_SENTENCE = 1.25;

/** A sentence's weight: its salience (specifics, problem phrases), more for each word of the product's vocabulary (up to 3). */
function weightOf(text: string, words: Set<string>, vocabulary: ReadonlySet<string>): number {
  const known = [...words].filter((word) => vocabulary.has(word)).length;
  return salienceOf(text) * (1 + 0.3 * Math.min(known, 3));
}

/** The sentences of a message that may carry its point: its own text, without courtesies, openers, sign-off or asides. */
function pointSentences(text: string, locale: string | undefined): string[] {
  return sentencesOf(withoutSignOff(ownText(text)), locale)
    .map((sentence) => withoutCourtesy(withoutOpeners(sentence)))
    .filter((sentence) => sentence !== '' && !(isRequestAside(sentence) && specificsOf(sentence) === 0));
}

/** The words of a text in order, folded: for telling whether a summary is the whole message again. */
const foldedWords = (text: string): string => normalize(text).replace(/\s+/gu, ' ').trim();

/**
 * The candidate sentences of the texts, ranked: each with its score and whether it is an aside.
 * The score is the weight times the centrality (relative to the mean, 1) softened by half, so a
 * sentence with specifics that shares few words with the others is not drowned by chatter that
 * repeats itself. Empty when the texts hold nothing but whitespace.
 */
export async function rankedSentences(texts: readonly string[], options: ExtractiveOptions = {}): Promise<RankedSentence[]> {
  const { locale, embedder } = options;
  const vocabulary = new Set((options.vocabulary ?? []).flatMap((text) => [...contentWords(text, locale)]));
  const sentenceOf = (text: string): Sentence => {
    const words = contentWords(text, locale);
    return { text, words, weight: weightOf(text, words, vocabulary) };
  };
  // Greetings, thanks and asides carry nothing; a message of nothing else (or of emoji) is kept as it is.
  const points = texts.flatMap((text) => pointSentences(text, locale)).map(sentenceOf).filter((sentence) => sentence.words.size > 0);
  const candidates = (points.length > 0 ? points : texts.flatMap((text) => sentencesOf(text, locale)).map(sentenceOf)).slice(0, MAX_RANKED);
  if (candidates.length === 0) return [];
  const graph = await graphOf(candidates, embedder);
  const centralities = centrality(graph);
  return candidates
    .map((sentence, index) => ({
      ...sentence, index, specifics: specificsOf(sentence.text), score: (0.5 + 0.5 * centralities[index] * candidates.length) * sentence.weight * (index === 0 ? FIRST_SENTENCE : 1),
      aside: sentence.weight === 1 && graph[index].every((similarity) => similarity === 0),
    }))
    .sort((a, b) => b.score - a.score || a.index - b.index);
}

/**
 * The sentence a short message gives up so that its summary is not the message again: the least
 * telling one without specifics, else the least telling one.
 */
const leftOut = (ranked: readonly RankedSentence[]): RankedSentence =>
  [...ranked].reverse().find((sentence) => sentence.specifics === 0) ?? ranked.at(-1)!;

/**
 * The best sentence and the next best ones that are not asides and fit in `maxLength` with it
 * (three at most), in their original order; when the best one alone is longer, it is cut at a
 * word boundary with an ellipsis. A message under `maxLength` is never given back whole: when
 * nothing of it was dropped, its least telling sentence is left out (a message of one sentence
 * with nothing to drop is its own summary). Null when the texts hold nothing but whitespace.
 */
export async function extractiveSummary(texts: readonly string[], options: ExtractiveOptions = {}): Promise<string | null> {
  const { locale, maxLength = SUMMARY_MAX_LENGTH } = options;
  const ranked = await rankedSentences(texts, options);
  if (ranked.length === 0) return null;
  const whole = texts.join('\n');
  const inOrder = [...ranked].sort((a, b) => a.index - b.index);
  const repeatsWhole = ranked.length > 1 && lengthOf(whole) < maxLength && foldedWords(inOrder.map((sentence) => sentence.text).join(' ')) === foldedWords(whole);
  const candidates = repeatsWhole ? ranked.filter((sentence) => sentence !== leftOut(ranked)) : ranked;
  const [best, ...rest] = candidates;
  if (lengthOf(best.text) > maxLength) return cutAtWord(best.text, maxLength, locale);
  const chosen = [best];
  let length = lengthOf(best.text);
  for (const sentence of rest) {
    if (chosen.length === MAX_SENTENCES) break;
    const added = 1 + lengthOf(sentence.text);
    if (sentence.aside || length + added > maxLength) continue;
    chosen.push(sentence);
    length += added;
  }
  return chosen.sort((a, b) => a.index - b.index).map((sentence) => capitalized(sentence.text)).reduce(joined);
}

/** A sentence whose first word is all lower case ("al exportar…" after a greeting's line) starts with a capital; "iPad…" stays as it is. */
const capitalized = (sentence: string): string => (/^\p{Ll}+(?!\p{L})/u.test(sentence) ? sentence.charAt(0).toLocaleUpperCase() + sentence.slice(1) : sentence);

/** Sentences joined by a space, except after full-width punctuation (Chinese, Japanese), which needs none. */
const joined = (text: string, sentence: string): string => (/[\u3000-\u303f\uff00-\uffef]$/u.test(text) ? text + sentence : `${text} ${sentence}`);
