// The n-gram vocabulary of the lexical index: an id per gram, its document frequency, its
// postings (which documents use it, with 1 + ln(tf)) and its IDF.

// Smoothed so that with very few issues every term weighs about the same, and a term the
// issues never use weighs the most.
export const idf = (documents: number, df: number): number => Math.log(1 + (documents + 1) / (df + 1));

/** `array`, or a copy at least twice as long when it is shorter than `size`. */
export function fitting<A extends Int32Array | Float64Array>(array: A, size: number): A {
  if (size <= array.length) return array;
  const bigger = new (array.constructor as new (length: number) => A)(Math.max(size, array.length * 2));
  bigger.set(array);
  return bigger;
}

/** Every gram the documents use: an id each, its document frequency, postings and IDF. */
export class Grams {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly unused: number[] = [];
  readonly postings: { docs: number[]; logTfs: number[] }[] = [];
  private df = new Int32Array(64);
  /** IDF by gram id, as of the last `weigh`. */
  idfs = new Float64Array(64);

  id(gram: string): number | undefined {
    return this.ids.get(gram);
  }

  add(gram: string, doc: number, weight: number): number {
    let id = this.ids.get(gram);
    if (id === undefined) {
      id = this.unused.pop() ?? this.names.length;
      this.ids.set(gram, id);
      this.names[id] = gram;
      this.postings[id] = { docs: [], logTfs: [] };
      this.df = fitting(this.df, id + 1);
    }
    this.df[id]++;
    this.postings[id].docs.push(doc);
    this.postings[id].logTfs.push(weight);
    return id;
  }

  remove(id: number, doc: number): void {
    const { docs, logTfs } = this.postings[id];
    const at = docs.indexOf(doc);
    docs[at] = docs[docs.length - 1];
    logTfs[at] = logTfs[logTfs.length - 1];
    docs.pop();
    logTfs.pop();
    if (--this.df[id] > 0) return;
    this.ids.delete(this.names[id]);
    this.unused.push(id);
  }

  /** Computes every gram's IDF among `documents` documents. */
  weigh(documents: number): void {
    this.idfs = fitting(this.idfs, this.names.length);
    for (let id = 0; id < this.names.length; id++) this.idfs[id] = idf(documents, this.df[id]);
  }
}
