// The lexical scorer, on normalized text with IDF from the product's open issues: the lower of
// (1) TF-IDF cosine over character n-grams and (2) word coverage, the IDF-weighted share of
// each text's words that the other text also has (exactly, or with one typo). Conservative by
// design: typos, reordering, case, punctuation and articles barely move either, but a word
// added or missing on either side ("select coupon" / "coupon", "no visa card" / "visa card")
// pulls the coverage down, and two different issues on one topic differ in some word.
//
// The index is kept up to date one document at a time (a created, changed or closed issue
// costs the terms of that one text) and scores exactly as an index built from scratch over the
// same documents would, to the last bit: document frequencies are exact counts, and what
// depends on them and on the number of documents (every IDF, every document's norm) is
// recomputed, with the same operations in the same order, in one pass over the documents'
// grams the first time a report is scored after a change.
import { fitting, Grams, idf } from './lexical-grams.js';
import { someTypo, terms, type Terms } from './lexical-terms.js';

// How many of the best n-gram matches get the (slower) word comparison.
const SHORTLIST = 10;

/** 1 + ln(tf), the n-gram weight before IDF. */
const logTf = (tf: number): number => 1 + Math.log(tf);

interface Doc {
  readonly id: string;
  readonly text: string;
  /** Position among the candidates (oldest first): the earlier of two equal scores wins. */
  rank: number;
  /** Where its grams lie in the index's gram arrays, in the text's order of first use. */
  start: number;
  readonly length: number;
  readonly words: ReadonlySet<string>;
  /** The last `sync` that listed it. */
  syncedAt: number;
}

export interface LexicalMatch {
  id: string;
  score: number;
}

export interface IndexedText {
  id: string;
  text: string;
}

/** The documents (candidate issue texts) of one product, ready to score reports against. */
export class LexicalIndex {
  private readonly grams = new Grams();
  private readonly words = new Map<string, number>();
  private readonly slots = new Map<string, number>();
  private readonly docs: (Doc | undefined)[] = [];
  private readonly unused: number[] = [];
  // Every document's gram ids and 1 + ln(tf), one stretch per document; removed documents leave
  // garbage until the arrays are compacted.
  private gramIds = new Int32Array(256);
  private logTfs = new Float64Array(256);
  private used = 0;
  private garbage = 0;
  // Moves on with every change; IDF and norms are recomputed when `weighedAt` falls behind.
  private generation = 0;
  private weighedAt = 0;
  private norms = new Float64Array(16);
  private nextRank = 0;
  private syncs = 0;
  // Scratch space of `best`: dot products by slot (all zero between calls) and the slots touched.
  private dots = new Float64Array(16);
  private touched = new Int32Array(16);

  get size(): number {
    return this.slots.size;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** Makes the documents exactly `docs` (oldest first), analysing only new or changed texts. */
  sync(docs: readonly IndexedText[]): void {
    const pass = ++this.syncs;
    let listed = 0;
    docs.forEach(({ id, text }, rank) => {
      const slot = this.slots.get(id);
      let doc = slot === undefined ? undefined : this.docs[slot]!;
      if (doc?.text !== text) {
        if (doc?.syncedAt === pass) listed--;
        if (doc) this.remove(doc);
        doc = this.insert(id, text, rank);
      }
      doc.rank = rank;
      if (doc.syncedAt !== pass) listed++;
      doc.syncedAt = pass;
    });
    if (this.slots.size > listed) for (const doc of this.docs) if (doc && doc.syncedAt !== pass) this.remove(doc);
    this.nextRank = docs.length;
  }

  /** Adds a document after all the others (a newly created issue). */
  append(doc: IndexedText): void {
    this.insert(doc.id, doc.text, this.nextRank++);
  }

  /** The best-scoring document, or null when there are none. */
  best(report: Terms): LexicalMatch | null {
    return this.top(report, 1)[0] ?? null;
  }

  /**
   * The `count` best-scoring documents, best first, the older first among equals; the oldest
   * document with score 0 when none shares a word with the report; empty when there are none.
   */
  top(report: Terms, count: number): LexicalMatch[] {
    if (this.slots.size === 0) return [];
    const touched = this.cosines(report.grams);
    try {
      const scored = this.shortlist(touched)
        .map((slot) => {
          const doc = this.docs[slot]!;
          return { id: doc.id, score: Math.min(this.dots[slot], this.coverage(report.words, doc.words), this.coverage(doc.words, report.words)) };
        })
        .filter((match) => match.score > 0);
      // A stable sort: the shortlist's order (cosine, then age) breaks ties.
      scored.sort((a, b) => b.score - a.score);
      return scored.length > 0 ? scored.slice(0, count) : [{ id: this.oldest().id, score: 0 }];
    } finally {
      for (let t = 0; t < touched; t++) this.dots[this.touched[t]] = 0;
    }
  }

  private insert(id: string, text: string, rank: number): Doc {
    const slot = this.unused.pop() ?? this.docs.length;
    const { grams, words } = terms(text);
    this.gramIds = fitting(this.gramIds, this.used + grams.size);
    this.logTfs = fitting(this.logTfs, this.used + grams.size);
    const start = this.used;
    for (const [gram, tf] of grams) {
      this.logTfs[this.used] = logTf(tf);
      this.gramIds[this.used] = this.grams.add(gram, slot, this.logTfs[this.used]);
      this.used++;
    }
    for (const word of words) this.words.set(word, (this.words.get(word) ?? 0) + 1);
    const doc: Doc = { id, text, rank, start, length: grams.size, words, syncedAt: 0 };
    this.docs[slot] = doc;
    this.slots.set(id, slot);
    this.norms = fitting(this.norms, slot + 1);
    this.dots = fitting(this.dots, slot + 1);
    this.touched = fitting(this.touched, slot + 1);
    this.generation++;
    return doc;
  }

  private remove(doc: Doc): void {
    const slot = this.slots.get(doc.id)!;
    for (let k = doc.start; k < doc.start + doc.length; k++) this.grams.remove(this.gramIds[k], slot);
    for (const word of doc.words) {
      const df = this.words.get(word)! - 1;
      if (df > 0) this.words.set(word, df);
      else this.words.delete(word);
    }
    this.docs[slot] = undefined;
    this.slots.delete(doc.id);
    this.unused.push(slot);
    this.garbage += doc.length;
    if (this.garbage > this.used / 2) this.compact();
    this.generation++;
  }

  private compact(): void {
    const gramIds = new Int32Array(Math.max(256, 2 * (this.used - this.garbage)));
    const logTfs = new Float64Array(gramIds.length);
    let used = 0;
    for (const doc of this.docs) {
      if (!doc) continue;
      gramIds.set(this.gramIds.subarray(doc.start, doc.start + doc.length), used);
      logTfs.set(this.logTfs.subarray(doc.start, doc.start + doc.length), used);
      doc.start = used;
      used += doc.length;
    }
    [this.gramIds, this.logTfs, this.used, this.garbage] = [gramIds, logTfs, used, 0];
  }

  // Every gram's IDF and every document's TF-IDF norm, in one pass over the gram arrays.
  private weigh(): void {
    if (this.weighedAt === this.generation) return;
    this.grams.weigh(this.slots.size);
    const { docs, gramIds, logTfs, norms } = this;
    const { idfs } = this.grams;
    for (let slot = 0; slot < docs.length; slot++) {
      const doc = docs[slot];
      if (!doc) continue;
      let squares = 0;
      for (let k = doc.start, end = doc.start + doc.length; k < end; k++) {
        const weight = logTfs[k] * idfs[gramIds[k]];
        squares += weight * weight;
      }
      norms[slot] = Math.sqrt(squares);
    }
    this.weighedAt = this.generation;
  }

  // The TF-IDF cosine of the query against every document sharing a gram with it, into
  // `dots`; returns how many slots it wrote to `touched`.
  private cosines(query: Map<string, number>): number {
    this.weigh();
    const { dots, touched, norms } = this;
    const { idfs, postings } = this.grams;
    let count = 0;
    let squares = 0;
    for (const [gram, tf] of query) {
      const id = this.grams.id(gram);
      const gramIdf = id === undefined ? idf(this.slots.size, 0) : idfs[id];
      const weight = logTf(tf) * gramIdf;
      squares += weight * weight;
      if (id === undefined) continue;
      const { docs, logTfs } = postings[id];
      for (let p = 0; p < docs.length; p++) {
        const slot = docs[p];
        if (dots[slot] === 0) touched[count++] = slot;
        dots[slot] += weight * (logTfs[p] * gramIdf);
      }
    }
    const norm = Math.sqrt(squares);
    for (let t = 0; t < count; t++) {
      const slot = touched[t];
      dots[slot] = norm && norms[slot] ? dots[slot] / (norm * norms[slot]) : 0;
    }
    return count;
  }

  // The SHORTLIST touched slots of highest cosine, best first, the older first among equals.
  private shortlist(count: number): number[] {
    const { dots, docs } = this;
    const ahead = (a: number, b: number) => dots[a] > dots[b] || (dots[a] === dots[b] && docs[a]!.rank < docs[b]!.rank);
    const top: number[] = [];
    for (let t = 0; t < count; t++) {
      const slot = this.touched[t];
      if (dots[slot] <= 0 || (top.length === SHORTLIST && !ahead(slot, top[SHORTLIST - 1]))) continue;
      if (top.length === SHORTLIST) top.pop();
      let at = top.length;
      while (at > 0 && ahead(slot, top[at - 1])) at--;
      top.splice(at, 0, slot);
    }
    return top;
  }

  // The IDF-weighted share of `from`'s words found in `to`, exactly or with a typo.
  private coverage(from: ReadonlySet<string>, to: ReadonlySet<string>): number {
    let found = 0;
    let total = 0;
    for (const word of from) {
      const weight = idf(this.slots.size, this.words.get(word) ?? 0);
      total += weight;
      if (to.has(word) || someTypo(word, to)) found += weight;
    }
    return total === 0 ? 0 : found / total;
  }

  private oldest(): Doc {
    let oldest: Doc | undefined;
    for (const doc of this.docs) if (doc && (!oldest || doc.rank < oldest.rank)) oldest = doc;
    return oldest!;
  }
}

