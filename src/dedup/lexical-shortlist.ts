// The lexical index's first stage: the SHORTLIST documents of highest TF-IDF cosine with a
// report (the older first among equals), under the index's snapshot weights (lexical-grams.ts).
//
// When the postings of the report's grams hold at most `postingsBudget` entries in all (every
// small product, and reports made of rare grams), they are all walked in the report's gram
// order: a full scan, the cosine of every document that shares a gram. Beyond that a full scan
// grows with the backlog, because common grams are used by a share of all documents; so the
// search walks only rare postings, up to the budget, and scores exactly the documents they
// point to most:
// 1. Walk order: first, for each of the report's words, its rarest gram (so every word gets a
//    say, not only the grams of its rarest word), rarest first; then the other grams, rarest
//    first. A gram whose postings would exceed the budget is skipped (the first one never is).
// 2. Candidates: the `candidates` documents of highest partial cosine over the grams walked
//    (partial dot product over the document's snapshot norm).
// 3. Each candidate's exact cosine, summed in the report's gram order as a full scan sums it,
//    so a document's cosine is the same whichever way it was found.
// A near-duplicate shares the report's rare grams, so it is among the candidates; what the
// budget can miss is a document that resembles the report only through common grams, which
// scores low anyway. test/unit/dedup-lexical-index.test.ts measures the recall.
import { fitting, LOG_TFS, logTf, STORED_TF_MAX, type Grams } from './lexical-grams.js';
import { wordGrams, type Terms } from './lexical-terms.js';

/** How many of the best n-gram matches get the (slower) word comparison. */
export const SHORTLIST = 10;

export interface SearchLimits {
  /** How many postings a search walks at most (beyond its first gram's). */
  postingsBudget: number;
  /** How many documents of the best partial cosines are scored exactly when the budget ran out. */
  candidates: number;
}

export const DEFAULT_LIMITS: SearchLimits = { postingsBudget: 100_000, candidates: 300 };

/** No limits: a full scan always (what the tests and the bench compare the search with). */
export const FULL_SCAN: SearchLimits = { postingsBudget: Infinity, candidates: Infinity };

/** The documents as the search reads them, by slot. */
export interface CosineSpace {
  readonly grams: Grams;
  /** One more than the highest slot. */
  readonly slots: number;
  /** The document's TF-IDF norm under the snapshot IDFs. */
  norm(slot: number): number;
  /** Position among the documents, oldest first. */
  rank(slot: number): number;
  /** The document's gram ids and stored term frequencies (lexical-grams.ts), at [start, end) of the two arrays. */
  gramsOf(slot: number): { readonly ids: Int32Array; readonly tfs: Uint8Array; readonly start: number; readonly end: number };
}

export interface Shortlisted {
  slot: number;
  cosine: number;
}

/** The report's grams that some document uses, with their weights; its norm is over all its grams. */
interface Query {
  readonly norm: number;
  readonly grams: readonly { id: number; weight: number }[];
}

/** The search, with scratch space reused from one report to the next (all zero between calls). */
export class CosineShortlist {
  // By slot: the dot product with the report (partial while walking), and the slots met.
  private dots = new Float64Array(16);
  private touched = new Int32Array(16);
  // By gram id: 1 + the gram's place among the query's grams during a search; and a bit per
  // (gram id mod 4,096) set for the query's grams, small enough to stay in the CPU's cache, so
  // that most of a candidate's grams are known not to be the query's without a look at `places`.
  private places = new Int32Array(16);
  private readonly inQuery = new Uint32Array(128);
  // By the query's gram place: its weight, and a candidate's dot-product terms.
  private weights = new Float64Array(16);
  private terms = new Float64Array(16);

  private readonly space: CosineSpace;

  constructor(space: CosineSpace) {
    this.space = space;
  }

  /** The SHORTLIST documents of highest positive cosine, best first, the older first among equals. */
  find(report: Terms, limits: SearchLimits): Shortlisted[] {
    const query = this.query(report.grams);
    if (query.norm === 0) return [];
    this.dots = fitting(this.dots, this.space.slots);
    this.touched = fitting(this.touched, this.space.slots);
    let postings = 0;
    for (const { id } of query.grams) postings += this.space.grams.df(id);
    let met = 0;
    try {
      if (postings <= limits.postingsBudget) {
        met = this.walk(query.grams);
        return this.best(this.touched.subarray(0, met), (slot) => this.cosine(this.dots[slot], query, slot), SHORTLIST);
      }
      met = this.walk(this.budgeted(query, report.words, limits.postingsBudget));
      return this.rescored(query, this.candidates(met, limits.candidates));
    } finally {
      for (let m = 0; m < met; m++) this.dots[this.touched[m]] = 0;
    }
  }

  // The report's weights (summed into its norm in its gram order, as a full scan does).
  private query(report: ReadonlyMap<string, number>): Query {
    const { grams } = this.space;
    const known: { id: number; weight: number }[] = [];
    let squares = 0;
    for (const [gram, tf] of report) {
      const id = grams.id(gram);
      const weight = logTf(tf) * (id === undefined ? grams.unknownIdf : grams.idfs[id]);
      squares += weight * weight;
      if (id !== undefined) known.push({ id, weight });
    }
    return { norm: Math.sqrt(squares), grams: known };
  }

  // The grams to walk when not all fit in the budget: each word's rarest, then the others,
  // rarest first in each part.
  private budgeted(query: Query, words: ReadonlySet<string>, budget: number): Query['grams'] {
    const { grams } = this.space;
    const byId = new Map(query.grams.map((gram) => [gram.id, gram]));
    const rarest = (a: { id: number }, b: { id: number }) => grams.df(a.id) - grams.df(b.id);
    const first = new Set<Query['grams'][number]>();
    for (const word of words) {
      const own = wordGrams(word).flatMap((gram) => byId.get(grams.id(gram) ?? -1) ?? []);
      if (own.length > 0) first.add(own.reduce((a, b) => (rarest(b, a) < 0 ? b : a)));
    }
    const rest = query.grams.filter((gram) => !first.has(gram));
    let walked = 0;
    return [...[...first].sort(rarest), ...rest.sort(rarest)].filter((gram, place) => {
      const df = grams.df(gram.id);
      if (place > 0 && walked + df > budget) return false;
      walked += df;
      return true;
    });
  }

  // Adds each gram's terms to the dot products of the documents using it; returns how many
  // slots it wrote to `touched`.
  private walk(order: Query['grams']): number {
    const { dots, touched } = this;
    const { grams } = this.space;
    const { idfs, postings } = grams;
    let met = 0;
    for (const { id, weight } of order) {
      const gramIdf = idfs[id];
      const { docs, tfs, length } = postings[id];
      // This loop is most of a decision's time: the term of a tf of 1, by far the most common, is
      // the same product as below (1 + ln 1 = 1), computed once; other tfs spell out Grams.logTfOf.
      const once = weight * (LOG_TFS[1] * gramIdf);
      for (let p = 0; p < length; p++) {
        const slot = docs[p];
        if (dots[slot] === 0) touched[met++] = slot;
        const tf = tfs[p];
        dots[slot] += tf === 1 ? once : weight * ((tf < STORED_TF_MAX ? LOG_TFS[tf] : grams.largeLogTf(id, slot)) * gramIdf);
      }
    }
    return met;
  }

  private cosine(dot: number, query: Query, slot: number): number {
    const norm = this.space.norm(slot);
    return norm ? dot / (query.norm * norm) : 0;
  }

  // The `count` slots of highest positive `score`, best first, the older first among equals.
  private best(slots: ArrayLike<number>, score: (slot: number) => number, count: number): Shortlisted[] {
    const ahead = (a: Shortlisted, b: Shortlisted) =>
      a.cosine > b.cosine || (a.cosine === b.cosine && this.space.rank(a.slot) < this.space.rank(b.slot));
    const top: Shortlisted[] = [];
    for (let s = 0; s < slots.length; s++) {
      const entry = { slot: slots[s], cosine: score(slots[s]) };
      if (entry.cosine <= 0 || (top.length === count && !ahead(entry, top[count - 1]))) continue;
      if (top.length === count) top.pop();
      let at = top.length;
      while (at > 0 && ahead(entry, top[at - 1])) at--;
      top.splice(at, 0, entry);
    }
    return top;
  }

  // The `count` touched slots of highest partial cosine (any of equals), in no order.
  private candidates(met: number, count: number): Int32Array {
    const touched = this.touched.subarray(0, met);
    if (met <= count) return touched;
    const partial = new Float64Array(met);
    for (let m = 0; m < met; m++) partial[m] = this.dots[touched[m]] / this.space.norm(touched[m]);
    const cut = kthLargest(partial.slice(), count);
    const chosen = new Int32Array(count);
    let taken = 0;
    for (let m = 0; m < met && taken < count; m++) if (partial[m] > cut) chosen[taken++] = touched[m];
    for (let m = 0; m < met && taken < count; m++) if (partial[m] === cut) chosen[taken++] = touched[m];
    return chosen;
  }

  // The candidates' exact cosines: each dot product summed in the query's gram order.
  private rescored(query: Query, candidates: Int32Array): Shortlisted[] {
    const { idfs } = this.space.grams;
    const size = query.grams.length;
    this.places = fitting(this.places, Math.max(...query.grams.map((gram) => gram.id)) + 1);
    this.weights = fitting(this.weights, size);
    this.terms = fitting(this.terms, size);
    const { places, inQuery, weights, terms } = this;
    query.grams.forEach(({ id, weight }, place) => {
      places[id] = place + 1;
      inQuery[(id >>> 5) & 127] |= 1 << (id & 31);
      weights[place] = weight;
    });
    try {
      const cosines = new Map<number, number>();
      for (const slot of candidates) {
        const { ids, tfs, start, end } = this.space.gramsOf(slot);
        for (let k = start; k < end; k++) {
          const id = ids[k];
          if ((inQuery[(id >>> 5) & 127] & (1 << (id & 31))) === 0) continue;
          const place = places[id] - 1;
          if (place >= 0) terms[place] = weights[place] * (this.space.grams.logTfOf(id, slot, tfs[k]) * idfs[id]);
        }
        let dot = 0;
        for (let q = 0; q < size; q++) {
          dot += terms[q];
          terms[q] = 0;
        }
        cosines.set(slot, this.cosine(dot, query, slot));
      }
      return this.best([...cosines.keys()], (slot) => cosines.get(slot)!, SHORTLIST);
    } finally {
      for (const { id } of query.grams) places[id] = 0;
      inQuery.fill(0);
    }
  }
}

/** The k-th largest of `values` (1 <= k <= length), which it reorders: Hoare's selection. */
function kthLargest(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  const target = k - 1;
  while (low < high) {
    const pivot = values[(low + high) >> 1];
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i] > pivot) i++;
      while (values[j] < pivot) j--;
      if (i <= j) {
        [values[i], values[j]] = [values[j], values[i]];
        i++;
        j--;
      }
    }
    if (target <= j) high = j;
    else if (target >= i) low = i;
    else return values[target];
  }
  return values[target];
}
