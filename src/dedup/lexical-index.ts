// The lexical scorer, on normalized text with IDF from the product's open issues: the lower of
// (1) TF-IDF cosine over character n-grams and (2) word coverage, the IDF-weighted share of
// each text's words that the other text also has (exactly, or with one typo). Conservative by
// design: typos, reordering, case, punctuation and articles barely move either, but a word
// added or missing on either side ("select coupon" / "coupon", "no visa card" / "visa card")
// pulls the coverage down, and two different issues on one topic differ in some word.
//
// The index is kept up to date one document at a time: a created, changed or closed issue costs
// the terms of that one text. Document frequencies are exact counts, but the n-gram weights
// (every gram's IDF, so every document's norm) come from a snapshot, refreshed in one pass over
// the documents' grams before the first report scored after more than 1/64 of the snapshot's
// count of documents came in or went (every change, under 64 documents); a document coming in
// between gets its norm from the snapshot at once. So a change costs its own terms plus,
// amortised, the grams of 64 documents, whatever the backlog. Right after a refresh the
// cosines are those of an index built from scratch, to the last bit; in between they are those
// of the snapshot's weights, whose document count is off by at most 1/64 and each gram's
// document frequency by as many changes. The word coverage always uses the current counts.
// Which documents get a cosine at all is lexical-shortlist.ts's business.
import { fitting, Grams, idf, storedTf, trimmed } from './lexical-grams.js';
import { CosineShortlist, DEFAULT_LIMITS, type CosineSpace, type SearchLimits } from './lexical-shortlist.js';
import { someTypo, terms, type Terms } from './lexical-terms.js';

// The share of the snapshot's documents that may change before the weights are refreshed.
const REFRESH_EVERY = 1 / 64;

interface WordCount {
  readonly word: string;
  df: number;
}

interface Doc {
  readonly id: string;
  readonly text: string;
  /** Position among the candidates (oldest first): the earlier of two equal scores wins. */
  rank: number;
  /** Where its grams lie in the index's gram arrays, in the text's order of first use. */
  start: number;
  readonly length: number;
  /** Its distinct words, in order of first use: the index's own strings, shared by every document that uses them. */
  readonly words: readonly string[];
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
export class LexicalIndex implements CosineSpace {
  readonly grams = new Grams();
  /** Every word the documents use, with how many documents use it. */
  private readonly words = new Map<string, WordCount>();
  private readonly slotsById = new Map<string, number>();
  private readonly docs: (Doc | undefined)[] = [];
  private readonly unused: number[] = [];
  // Every document's gram ids and stored term frequencies (lexical-grams.ts), one stretch per
  // document; removed documents leave garbage until the arrays are compacted.
  private gramIds = new Int32Array(256);
  private tfs = new Uint8Array(256);
  private used = 0;
  private garbage = 0;
  // Documents added or removed since the snapshot, and how many documents it counted.
  private changes = 0;
  private snapshotSize = 0;
  private norms = new Float64Array(16);
  private nextRank = 0;
  private syncs = 0;
  private readonly search = new CosineShortlist(this);
  private refreshCount = 0;

  /** How many times the weights were refreshed (tests follow the snapshot with it). */
  get refreshes(): number {
    return this.refreshCount;
  }

  get size(): number {
    return this.slotsById.size;
  }

  has(id: string): boolean {
    return this.slotsById.has(id);
  }

  get slots(): number {
    return this.docs.length;
  }

  norm(slot: number): number {
    return this.norms[slot];
  }

  rank(slot: number): number {
    return this.docs[slot]!.rank;
  }

  gramsOf(slot: number) {
    const { start, length } = this.docs[slot]!;
    return { ids: this.gramIds, tfs: this.tfs, start, end: start + length };
  }

  /** Makes the documents exactly `docs` (oldest first), analysing only new or changed texts. */
  sync(docs: readonly IndexedText[]): void {
    const pass = ++this.syncs;
    let listed = 0;
    docs.forEach(({ id, text }, rank) => {
      const slot = this.slotsById.get(id);
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
    if (this.slotsById.size > listed) for (const doc of this.docs) if (doc && doc.syncedAt !== pass) this.remove(doc);
    this.nextRank = docs.length;
  }

  /** Adds a document after all the others (a newly created issue). */
  append(doc: IndexedText): void {
    this.insert(doc.id, doc.text, this.nextRank++);
  }

  /** A document's text as it is now, in the document's place among the others; nothing when it is unchanged. */
  replace({ id, text }: IndexedText): void {
    const doc = this.docs[this.slotsById.get(id)!]!;
    if (doc.text === text) return;
    this.remove(doc);
    this.insert(id, text, doc.rank);
  }

  /** Drops a document (an issue that is no longer a candidate); nothing when it is not there. */
  delete(id: string): void {
    const slot = this.slotsById.get(id);
    if (slot !== undefined) this.remove(this.docs[slot]!);
  }

  /** The best-scoring document, or null when there are none. */
  best(report: Terms): LexicalMatch | null {
    return this.top(report, 1)[0] ?? null;
  }

  /**
   * The `count` best-scoring documents, best first, the older first among equals; the oldest
   * document with score 0 when none shares a word with the report; empty when there are none.
   * `limits` bound the cosine search (lexical-shortlist.ts).
   */
  top(report: Terms, count: number, limits: SearchLimits = DEFAULT_LIMITS): LexicalMatch[] {
    if (this.slotsById.size === 0) return [];
    if (this.refreshDue) this.refresh();
    const scored = this.search
      .find(report, limits)
      .map(({ slot, cosine }) => {
        const doc = this.docs[slot]!;
        const words = new Set(doc.words);
        return { id: doc.id, score: Math.min(cosine, this.coverage(report.words, words), this.coverage(words, report.words)) };
      })
      .filter((match) => match.score > 0);
    // A stable sort: the shortlist's order (cosine, then age) breaks ties.
    scored.sort((a, b) => b.score - a.score);
    return scored.length > 0 ? scored.slice(0, count) : [{ id: this.oldest().id, score: 0 }];
  }

  private insert(id: string, text: string, rank: number): Doc {
    const slot = this.unused.pop() ?? this.docs.length;
    const { grams, words } = terms(text);
    this.gramIds = fitting(this.gramIds, this.used + grams.size);
    this.tfs = fitting(this.tfs, this.used + grams.size);
    const start = this.used;
    for (const [gram, tf] of grams) {
      this.gramIds[this.used] = this.grams.add(gram, slot, tf);
      this.tfs[this.used] = storedTf(tf);
      this.used++;
    }
    const shared: string[] = [];
    for (const word of words) {
      const count = this.words.get(word) ?? { word, df: 0 };
      count.df++;
      this.words.set(word, count);
      shared.push(count.word);
    }
    const doc: Doc = { id, text, rank, start, length: grams.size, words: shared, syncedAt: 0 };
    this.docs[slot] = doc;
    this.slotsById.set(id, slot);
    this.norms = fitting(this.norms, slot + 1);
    this.changes++;
    // When a refresh is due, it computes the norm.
    if (!this.refreshDue) this.norms[slot] = this.normOf(doc, slot);
    return doc;
  }

  private remove(doc: Doc): void {
    const slot = this.slotsById.get(doc.id)!;
    for (let k = doc.start; k < doc.start + doc.length; k++) this.grams.remove(this.gramIds[k], slot, this.tfs[k]);
    for (const word of doc.words) {
      const count = this.words.get(word)!;
      if (--count.df === 0) this.words.delete(word);
    }
    this.docs[slot] = undefined;
    this.slotsById.delete(doc.id);
    this.unused.push(slot);
    this.garbage += doc.length;
    if (this.garbage > this.used / 2) this.compact();
    this.changes++;
  }

  private compact(): void {
    const gramIds = new Int32Array(Math.max(256, 2 * (this.used - this.garbage)));
    const tfs = new Uint8Array(gramIds.length);
    let used = 0;
    for (const doc of this.docs) {
      if (!doc) continue;
      gramIds.set(this.gramIds.subarray(doc.start, doc.start + doc.length), used);
      tfs.set(this.tfs.subarray(doc.start, doc.start + doc.length), used);
      doc.start = used;
      used += doc.length;
    }
    [this.gramIds, this.tfs, this.used, this.garbage] = [gramIds, tfs, used, 0];
  }

  // A new snapshot: every gram's IDF and every document's norm, in one pass over the gram arrays;
  // the arrays give back the room they grew into and do not use.
  private refresh(): void {
    this.grams.refresh(this.slotsById.size);
    this.gramIds = trimmed(this.gramIds, this.used);
    this.tfs = trimmed(this.tfs, this.used);
    for (const [slot, doc] of this.docs.entries()) if (doc) this.norms[slot] = this.normOf(doc, slot);
    [this.snapshotSize, this.changes] = [this.slotsById.size, 0];
    this.refreshCount++;
  }

  private get refreshDue(): boolean {
    return this.changes > this.snapshotSize * REFRESH_EVERY;
  }

  // The document's TF-IDF norm under the snapshot's IDFs, summed in its grams' order.
  private normOf(doc: Doc, slot: number): number {
    const { gramIds, tfs, grams } = this;
    const { idfs } = grams;
    let squares = 0;
    for (let k = doc.start, end = doc.start + doc.length; k < end; k++) {
      const weight = grams.logTfOf(gramIds[k], slot, tfs[k]) * idfs[gramIds[k]];
      squares += weight * weight;
    }
    return Math.sqrt(squares);
  }

  // The IDF-weighted share of `from`'s words found in `to`, exactly or with a typo.
  private coverage(from: ReadonlySet<string>, to: ReadonlySet<string>): number {
    let found = 0;
    let total = 0;
    for (const word of from) {
      const weight = idf(this.slotsById.size, this.words.get(word)?.df ?? 0);
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

