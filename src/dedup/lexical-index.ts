// The lexical scorer, on normalized text with IDF from the product's open issues: the lower of
// (1) TF-IDF cosine over character n-grams and (2) word coverage, the IDF-weighted share of
// each text's words that the other text also has (exactly, or with one typo). Conservative by
// design: typos, reordering, case, punctuation and articles barely move either, but a word
// added or missing on either side ("select coupon" / "coupon", "no visa card" / "visa card")
// pulls the coverage down, and two different issues on one topic differ in some word.
import { normalize } from './text.js';

const GRAM = 3;
// How many of the best n-gram matches get the (slower) word comparison.
const SHORTLIST = 10;

// Articles carry no meaning for deduplication ("the app crashes" = "an app crashes"); listed
// for the languages the product is used in.
const ARTICLES = new Set([
  'a', 'an', 'the', 'el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'le', 'les', 'l', 'une', 'des',
  'der', 'die', 'das', 'den', 'dem', 'ein', 'eine', 'einen', 'einem', 'einer', 'il', 'lo', 'gli', 'uno',
]);

type Counts = Map<string, number>;

export interface Terms {
  grams: Counts;
  words: Counts;
}

function count(into: Counts, term: string): void {
  into.set(term, (into.get(term) ?? 0) + 1);
}

export function terms(text: string): Terms {
  const grams: Counts = new Map();
  const words: Counts = new Map();
  for (const word of normalize(text).split(' ')) {
    if (word === '' || ARTICLES.has(word)) continue;
    count(words, word);
    const padded = ` ${word} `;
    if (padded.length <= GRAM) count(grams, padded);
    else for (let i = 0; i + GRAM <= padded.length; i++) count(grams, padded.slice(i, i + GRAM));
  }
  return { grams, words };
}

interface Posting {
  doc: number;
  weight: number;
}

/** How many documents use each term, for IDF. */
class Frequencies {
  private readonly df = new Map<string, number>();
  private readonly documents: number;

  constructor(docs: readonly Counts[]) {
    this.documents = docs.length;
    for (const doc of docs) for (const term of doc.keys()) count(this.df, term);
  }

  // Smoothed so that with very few issues every term weighs about the same, and a term the
  // issues never use weighs the most.
  idf(term: string): number {
    return Math.log(1 + (this.documents + 1) / ((this.df.get(term) ?? 0) + 1));
  }
}

/** The n-gram view of a set of documents, as an inverted index of TF-IDF weights. */
class Space {
  private readonly frequencies: Frequencies;
  private readonly postings = new Map<string, Posting[]>();
  private readonly norms: Float64Array;

  constructor(docs: readonly Counts[]) {
    this.frequencies = new Frequencies(docs);
    this.norms = new Float64Array(docs.length);
    docs.forEach((doc, index) => {
      let squares = 0;
      for (const [term, tf] of doc) {
        const weight = this.weight(term, tf);
        squares += weight * weight;
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ doc: index, weight });
      }
      this.norms[index] = Math.sqrt(squares);
    });
  }

  private weight(term: string, tf: number): number {
    return (1 + Math.log(tf)) * this.frequencies.idf(term);
  }

  /** Cosine of the query against every document. */
  cosines(query: Counts): Float64Array {
    const dots = new Float64Array(this.norms.length);
    let squares = 0;
    for (const [term, tf] of query) {
      const weight = this.weight(term, tf);
      squares += weight * weight;
      for (const posting of this.postings.get(term) ?? []) dots[posting.doc] += weight * posting.weight;
    }
    const norm = Math.sqrt(squares);
    for (let i = 0; i < dots.length; i++) dots[i] = norm && this.norms[i] ? dots[i] / (norm * this.norms[i]) : 0;
    return dots;
  }
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

/** Indexes of the `k` largest positive values, without sorting them all. */
function topIndexes(values: Float64Array, k: number): number[] {
  const top: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (values[i] <= 0 || (top.length === k && values[i] <= values[top[k - 1]])) continue;
    if (top.length === k) top.pop();
    let at = top.length;
    while (at > 0 && values[top[at - 1]] < values[i]) at--;
    top.splice(at, 0, i);
  }
  return top;
}

export interface LexicalMatch {
  index: number;
  score: number;
}

/** The documents (candidate issue texts) of one product, ready to score reports against. */
export class LexicalIndex {
  private readonly docs: Terms[];
  private readonly grams: Space;
  private readonly words: Frequencies;

  constructor(readonly texts: readonly string[]) {
    this.docs = texts.map(terms);
    this.grams = new Space(this.docs.map((d) => d.grams));
    this.words = new Frequencies(this.docs.map((d) => d.words));
  }

  // The IDF-weighted share of `from`'s words found in `to`, exactly or with a typo.
  private coverage(from: Counts, to: Counts): number {
    let found = 0;
    let total = 0;
    for (const word of from.keys()) {
      const weight = this.words.idf(word);
      total += weight;
      if (to.has(word) || [...to.keys()].some((other) => typo(word, other))) found += weight;
    }
    return total === 0 ? 0 : found / total;
  }

  /** The best-scoring document, or null when there are none. */
  best(report: Terms): LexicalMatch | null {
    if (this.docs.length === 0) return null;
    const cosines = this.grams.cosines(report.grams);
    let best: LexicalMatch = { index: 0, score: 0 };
    for (const index of topIndexes(cosines, SHORTLIST)) {
      const words = this.docs[index].words;
      const score = Math.min(cosines[index], this.coverage(report.words, words), this.coverage(words, report.words));
      if (score > best.score) best = { index, score };
    }
    return best;
  }
}
