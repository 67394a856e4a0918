// The n-gram vocabulary of the lexical index: an id per gram, its document frequency, its
// postings (which documents use it, with 1 + ln(tf)) and its IDF as of the last refresh.
//
// Postings are typed arrays, not arrays of numbers: at 100k issues the indexes are most of the
// server's memory (docs/dedup.md, "Memory of the lexical indexes"), and a posting costs 8 bytes
// this way (its weight in single precision) against 16 in two arrays of numbers.

// Smoothed so that with very few issues every term weighs about the same, and a term the
// issues never use weighs the most.
export const idf = (documents: number, df: number): number => Math.log(1 + (documents + 1) / (df + 1));

/** 1 + ln(tf), the n-gram weight before IDF, at the single precision the index stores it in. */
export const logTf = (tf: number): number => Math.fround(1 + Math.log(tf));

/** `array`, or a copy at least twice as long when it is shorter than `size`. */
export function fitting<A extends Int32Array | Float32Array | Float64Array>(array: A, size: number): A {
  if (size <= array.length) return array;
  const bigger = new (array.constructor as new (length: number) => A)(Math.max(size, array.length * 2));
  bigger.set(array);
  return bigger;
}

/** The documents that use one gram, with 1 + ln(tf) for each: the first `length` entries of `docs` and `logTfs`. */
export class Postings {
  docs = new Int32Array(4);
  logTfs = new Float32Array(4);
  length = 0;

  add(doc: number, weight: number): void {
    this.docs = fitting(this.docs, this.length + 1);
    this.logTfs = fitting(this.logTfs, this.length + 1);
    this.docs[this.length] = doc;
    this.logTfs[this.length] = weight;
    this.length++;
  }

  remove(doc: number): void {
    const at = this.docs.subarray(0, this.length).indexOf(doc);
    this.length--;
    this.docs[at] = this.docs[this.length];
    this.logTfs[at] = this.logTfs[this.length];
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

  /** Records that document `doc` uses `gram`, with weight 1 + ln(tf); returns the gram's id. */
  add(gram: string, doc: number, weight: number): number {
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
    this.postings[id].add(doc, weight);
    return id;
  }

  remove(id: number, doc: number): void {
    this.postings[id].remove(doc);
    this.dfs[id]--;
  }

  /** Takes a new snapshot among `documents` documents: every gram's IDF; unused grams' ids are freed. */
  refresh(documents: number): void {
    this.documents = documents;
    for (let id = 0; id < this.names.length; id++) {
      if (this.dfs[id] > 0) this.idfs[id] = idf(documents, this.dfs[id]);
      else if (this.ids.get(this.names[id]) === id) {
        this.ids.delete(this.names[id]);
        this.unused.push(id);
      }
    }
  }
}
