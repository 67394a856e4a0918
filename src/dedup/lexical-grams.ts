// The n-gram vocabulary of the lexical index: an id per gram, its document frequency, its
// postings (which documents use it, with the term frequency) and its IDF as of the last refresh.
//
// Postings are typed arrays, not arrays of numbers: at 100k issues the indexes are most of the
// server's memory (docs/dedup.md, "Memory of the lexical indexes"). A posting holds its document
// and its term frequency in one byte (5 bytes, against 16 in two arrays of numbers and 8 with the
// weight in single precision); the weight 1 + ln(tf) comes from a table, and the rare frequency
// over 254 (a trigram used that often in one text) is kept aside, exactly.

// Smoothed so that with very few issues every term weighs about the same, and a term the
// issues never use weighs the most.
export const idf = (documents: number, df: number): number => Math.log(1 + (documents + 1) / (df + 1));

/** 1 + ln(tf), the n-gram weight before IDF, at the single precision the index stores it in. */
export const logTf = (tf: number): number => Math.fround(1 + Math.log(tf));

/** A stored term frequency at or over this is a marker: the exact one is kept aside (`Grams.largeLogTf`). */
export const STORED_TF_MAX = 255;
/** 1 + ln(tf) for each stored term frequency under STORED_TF_MAX, as logTf computes it (index 0 unused). */
export const LOG_TFS = Float32Array.from({ length: STORED_TF_MAX }, (_, tf) => (tf === 0 ? 0 : logTf(tf)));
/** A term frequency as postings store it: itself under STORED_TF_MAX, else the marker. */
export const storedTf = (tf: number): number => Math.min(tf, STORED_TF_MAX);
// Keys of the frequencies kept aside: gram id × SLOT_SPAN + document (documents stay under 2^24).
const SLOT_SPAN = 2 ** 24;

type TypedArray = Int32Array | Float32Array | Float64Array | Uint8Array;

/** `array`, or a copy at least twice as long when it is shorter than `size`. */
export function fitting<A extends TypedArray>(array: A, size: number): A {
  if (size <= array.length) return array;
  const bigger = new (array.constructor as new (length: number) => A)(Math.max(size, array.length * 2));
  bigger.set(array);
  return bigger;
}

/** `array`'s first `length` entries in an array of about that size, when it has much more room. */
export function trimmed<A extends TypedArray>(array: A, length: number): A {
  if (array.length <= length + Math.max(8, length >> 2)) return array;
  return array.slice(0, length + (length >> 3)) as A;
}

/** The documents that use one gram, with the stored tf of each: the first `length` entries of `docs` and `tfs`. */
export class Postings {
  docs = new Int32Array(4);
  tfs = new Uint8Array(4);
  length = 0;

  add(doc: number, stored: number): void {
    this.docs = fitting(this.docs, this.length + 1);
    this.tfs = fitting(this.tfs, this.length + 1);
    this.docs[this.length] = doc;
    this.tfs[this.length] = stored;
    this.length++;
  }

  remove(doc: number): void {
    const at = this.docs.subarray(0, this.length).indexOf(doc);
    this.length--;
    this.docs[at] = this.docs[this.length];
    this.tfs[at] = this.tfs[this.length];
  }

  /** Gives back room the postings grew into and no longer use (doubling leaves up to half unused). */
  trim(): void {
    this.docs = trimmed(this.docs, this.length);
    this.tfs = trimmed(this.tfs, this.length);
  }
}

/**
 * Every gram the documents use: an id each, its document frequency and postings, and its IDF
 * in the snapshot taken by the last `refresh` (the number of documents and every gram's document
 * frequency then). A gram that appeared since weighs as one no document used then. A gram whose
 * last document went away keeps its id (and so its snapshot IDF, should it come back) until the
 * next refresh.
 */
export class Grams {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly unused: number[] = [];
  readonly postings: Postings[] = [];
  /** The term frequencies at or over STORED_TF_MAX, by gram id × SLOT_SPAN + document. */
  private readonly largeTfs = new Map<number, number>();
  private dfs = new Int32Array(64);
  /** IDF by gram id, in the snapshot. */
  idfs = new Float64Array(64);
  /** How many documents the snapshot counted. */
  private documents = 0;

  id(gram: string): number | undefined {
    return this.ids.get(gram);
  }

  df(id: number): number {
    return this.dfs[id];
  }

  /** The snapshot IDF of a gram the documents do not use. */
  get unknownIdf(): number {
    return idf(this.documents, 0);
  }

  /** 1 + ln(tf) of a document's gram whose stored tf is STORED_TF_MAX (its tf kept aside). */
  largeLogTf(id: number, doc: number): number {
    return logTf(this.largeTfs.get(id * SLOT_SPAN + doc)!);
  }

  /** 1 + ln(tf) of a document's gram, from its stored tf. */
  logTfOf(id: number, doc: number, stored: number): number {
    return stored < STORED_TF_MAX ? LOG_TFS[stored] : this.largeLogTf(id, doc);
  }

  /** Records that document `doc` uses `gram` `tf` times; returns the gram's id. */
  add(gram: string, doc: number, tf: number): number {
    let id = this.ids.get(gram);
    if (id === undefined) {
      id = this.unused.pop() ?? this.names.length;
      this.ids.set(gram, id);
      this.names[id] = gram;
      this.postings[id] = new Postings();
      this.dfs = fitting(this.dfs, id + 1);
      this.idfs = fitting(this.idfs, id + 1);
      this.idfs[id] = this.unknownIdf;
    }
    this.dfs[id]++;
    const stored = storedTf(tf);
    if (stored === STORED_TF_MAX) this.largeTfs.set(id * SLOT_SPAN + doc, tf);
    this.postings[id].add(doc, stored);
    return id;
  }

  remove(id: number, doc: number, stored: number): void {
    this.postings[id].remove(doc);
    if (stored === STORED_TF_MAX) this.largeTfs.delete(id * SLOT_SPAN + doc);
    this.dfs[id]--;
  }

  /** Takes a new snapshot among `documents` documents: every gram's IDF; unused grams' ids are freed, postings trimmed. */
  refresh(documents: number): void {
    this.documents = documents;
    for (let id = 0; id < this.names.length; id++) {
      if (this.dfs[id] > 0) {
        this.idfs[id] = idf(documents, this.dfs[id]);
        this.postings[id].trim();
      } else if (this.ids.get(this.names[id]) === id) {
        this.ids.delete(this.names[id]);
        this.unused.push(id);
      }
    }
  }
}
