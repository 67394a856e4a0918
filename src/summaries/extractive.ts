// The built-in summarizer: no network, always there. It picks the customer's own sentences that
// carry the conversation, so the summary is in the customer's language by construction. The
// sentences are ranked by centrality (PageRank over a graph of sentence similarities, as
// TextRank and LexRank do): a sentence that shares much with the others states what the
// message is about; greetings, thanks and asides share little. Similarity is the cosine of
// sentence vectors when the duplicate detector has an embedder, word overlap otherwise.
import type { Embedder } from '../dedup/embedding-detector.js';
import { unit } from '../dedup/vector-cache.js';
import { contentWords, cutAtWord, lengthOf, sentencesOf } from './sentences.js';

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
}

interface Sentence {
  text: string;
  words: Set<string>;
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

/**
 * The most central sentence and the next most central ones that are similar to some other
 * sentence and fit in `maxLength` with it (three at most), in their original order; when the most central one alone is longer, it is cut at a
 * word boundary with an ellipsis. Null when the texts hold nothing but whitespace.
 */
export async function extractiveSummary(texts: readonly string[], options: ExtractiveOptions = {}): Promise<string | null> {
  const { locale, embedder, maxLength = SUMMARY_MAX_LENGTH } = options;
  const all = texts.flatMap((text) => sentencesOf(text, locale)).map((text) => ({ text, words: contentWords(text, locale) }));
  if (all.length === 0) return null;
  // Sentences of greetings and thanks alone carry nothing; text without words (emoji) is kept as it is.
  const meaningful = all.filter((sentence) => sentence.words.size > 0);
  const candidates = (meaningful.length > 0 ? meaningful : all).slice(0, MAX_RANKED);
  const graph = await graphOf(candidates, embedder);
  const scores = centrality(graph);
  const byRank = candidates.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);

  const [best, ...rest] = byRank;
  if (lengthOf(candidates[best].text) > maxLength) return cutAtWord(candidates[best].text, maxLength, locale);
  const chosen = [best];
  let length = lengthOf(candidates[best].text);
  for (const i of rest) {
    if (chosen.length === MAX_SENTENCES) break;
    // A sentence like no other is an aside (a greeting, an apology, a request to look into it).
    if (graph[i].every((similarity) => similarity === 0)) continue;
    const added = 1 + lengthOf(candidates[i].text);
    if (length + added > maxLength) continue;
    chosen.push(i);
    length += added;
  }
  return chosen.sort((a, b) => a - b).map((i) => candidates[i].text).reduce(joined);
}

/** Sentences joined by a space, except after full-width punctuation (Chinese, Japanese), which needs none. */
const joined = (text: string, sentence: string): string => (/[\u3000-\u303f\uff00-\uffef]$/u.test(text) ? text + sentence : `${text} ${sentence}`);
