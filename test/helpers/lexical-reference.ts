// The lexical scorer as it was before the index became incremental, rebuilt from scratch for
// every call, written as plainly as possible: the oracle the incremental index must agree with
// to the last bit (same operations in the same order, so the same floating-point results).
// The n-gram IDFs may come from other texts than the candidates (`weightsFrom`, the texts of
// the index's last weight snapshot); the word IDFs always come from the candidates.
import { terms, typo, type Terms } from '../../src/dedup/lexical-terms.js';

const SHORTLIST = 10;

function documentFrequencies(docs: Iterable<string>[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of doc) df.set(term, (df.get(term) ?? 0) + 1);
  return df;
}

export interface ReferenceMatch {
  /** Position of the best candidate among the texts. */
  index: number;
  score: number;
}

/** The best of `texts` (oldest first) for the report, or null when there are none. */
export function referenceBest(texts: readonly string[], report: Terms, weightsFrom: readonly string[] = texts): ReferenceMatch | null {
  if (texts.length === 0) return null;
  const docs = texts.map(terms);
  const idfAmong = (documents: number, df: Map<string, number>, term: string) => Math.log(1 + (documents + 1) / ((df.get(term) ?? 0) + 1));
  const idf = (df: Map<string, number>, term: string) => idfAmong(docs.length, df, term);
  const gramDf = documentFrequencies(weightsFrom.map((text) => terms(text).grams.keys()));
  const wordDf = documentFrequencies(docs.map((d) => d.words));
  // 1 + ln(tf) in single precision, as the index stores it.
  const weight = (gram: string, tf: number) => Math.fround(1 + Math.log(tf)) * idfAmong(weightsFrom.length, gramDf, gram);

  const dots = new Float64Array(docs.length);
  let squares = 0;
  for (const [gram, tf] of report.grams) {
    const queryWeight = weight(gram, tf);
    squares += queryWeight * queryWeight;
    docs.forEach((doc, i) => {
      const docTf = doc.grams.get(gram);
      if (docTf !== undefined) dots[i] += queryWeight * weight(gram, docTf);
    });
  }
  const norm = Math.sqrt(squares);
  const cosines = docs.map((doc, i) => {
    let docSquares = 0;
    for (const [gram, tf] of doc.grams) {
      const docWeight = weight(gram, tf);
      docSquares += docWeight * docWeight;
    }
    const docNorm = Math.sqrt(docSquares);
    return norm && docNorm ? dots[i] / (norm * docNorm) : 0;
  });

  const coverage = (from: Set<string>, to: Set<string>) => {
    let found = 0;
    let total = 0;
    for (const word of from) {
      const w = idf(wordDf, word);
      total += w;
      if (to.has(word) || [...to].some((other) => typo(word, other))) found += w;
    }
    return total === 0 ? 0 : found / total;
  };
  // Highest cosine first; a stable sort keeps the older of equal cosines first.
  const shortlist = [...cosines.keys()].filter((i) => cosines[i] > 0).sort((a, b) => cosines[b] - cosines[a]).slice(0, SHORTLIST);
  let best: ReferenceMatch = { index: 0, score: 0 };
  for (const i of shortlist) {
    const score = Math.min(cosines[i], coverage(report.words, docs[i].words), coverage(docs[i].words, report.words));
    if (score > best.score) best = { index: i, score };
  }
  return best;
}
