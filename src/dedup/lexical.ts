// The `lexical` matcher: no model, works offline, matches only near-identical reports.
//
// Each product's index lives in memory, tagged with the product's dedup version it reflects.
// In `decide`, a cached index at the scope's version is used as is, without reading the
// candidates; one at an older version catches up with the issues written since (the scope's
// `changedSince`: created, changed, closed), and only when that cannot place a new candidate, or
// there is no index yet, are the candidates read (and only the difference applied). After POST
// /issues/maybe commits an issue, `created` adds it to the index when the committed version is
// exactly the next one (nothing else changed) and the issue sorts after the newest candidate (so
// the order, which breaks ties, stays right).
//
// With several processes on one database this stays exact: every change to a product's
// candidates bumps its version in the same transaction, in whichever process; the service reads
// the version before the candidates, so an index is never tagged newer than what it holds; and
// `created` runs only after the commit, so the issue of a rolled-back transaction never enters.
import { sharedRuns } from '../lib/shared-runs.js';
import { catchUp, follows, newestKey, type OrderKey } from './candidate-order.js';
import { decisionIn } from './decision.js';
import {
  candidatesOf, type Candidate, type CreatedIssue, type Decision, type DetectionScope, type DuplicateDetector, type PreparedReport, type WarmScope,
} from './detector.js';
import { LexicalIndex, type IndexedText } from './lexical-index.js';
import { terms, type Terms } from './lexical-terms.js';
import { LruMap } from './lru.js';
import { issueText } from './text.js';
import { LEXICAL_BAND, SHORTLIST } from './thresholds.js';

interface LexicalReport extends PreparedReport {
  readonly terms: Terms;
}

interface ProductIndex {
  readonly index: LexicalIndex;
  /** The product's dedup version the index reflects; null when its candidates came without one. */
  version: number | null;
  /** The newest candidate's key (['', ''] when there are none); null when unknown. */
  newest: OrderKey | null;
}

// Products whose indexes stay in memory; an evicted one is rebuilt from its candidates.
const CACHED_PRODUCTS = 256;
/**
 * A product's first index is built this many documents at a time, the event loop free in between:
 * analysing a text costs about 0.15 ms, so a product with 11,000 open issues took 1.6 s in one go,
 * and every request waited for it. A slice is about 20 ms.
 */
export const BUILD_SLICE = 128;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An issue as the index holds it: its id and the text it is matched on. */
const indexed = (issue: Candidate): IndexedText => ({ id: issue.id, text: issueText(issue) });

/** A new index of `docs`, in their order, built a slice at a time. */
async function builtInSlices(docs: readonly IndexedText[]): Promise<LexicalIndex> {
  const index = new LexicalIndex();
  for (let start = 0; start < docs.length; start += BUILD_SLICE) {
    if (start > 0) await nextTurn();
    for (const doc of docs.slice(start, start + BUILD_SLICE)) index.append(doc);
  }
  return index;
}

/** `threshold` merges; from `review` up to it, candidates are reported as possible duplicates. */
export function createLexicalDetector(threshold = LEXICAL_BAND.autoLink, review = Math.min(LEXICAL_BAND.review, threshold)): DuplicateDetector {
  const band = { autoLink: threshold, review };
  const cache = new LruMap<string, ProductIndex>(CACHED_PRODUCTS);
  const keyOf = (scope: { workspaceId: string; productId: string }) => `${scope.workspaceId}:${scope.productId}`;

  // The cached index brought from its version to the scope's with the issues written in between;
  // null when there is none to bring, or a new candidate's place needs the whole list.
  async function caughtUp(key: string, scope: DetectionScope): Promise<ProductIndex | null> {
    const cached = cache.get(key);
    if (!cached || cached.version === null || scope.version === undefined) return null;
    if (cached.version === scope.version) return cached;
    if (cached.version > scope.version || cached.newest === null || !scope.changedSince) return null;
    const changes = await scope.changedSince(cached.version);
    // Planned after the wait: `created` may have taken one of these issues in meanwhile.
    const plan = catchUp(changes, (id) => cached.index.has(id), cached.newest);
    if (!plan) return null;
    for (const id of plan.closed) cached.index.delete(id);
    for (const issue of plan.changed) cached.index.replace(indexed(issue));
    for (const issue of plan.added) cached.index.append(indexed(issue));
    if (plan.added.length > 0) cached.newest = newestKey(plan.added);
    cached.version = scope.version;
    return cached;
  }

  function synced(key: string, candidates: readonly Candidate[], version: number | undefined): ProductIndex {
    const product = cache.get(key) ?? { index: new LexicalIndex(), version: null, newest: null };
    product.index.sync(candidates.map(indexed));
    product.version = version ?? null;
    product.newest = newestKey(candidates);
    cache.set(key, product);
    return product;
  }

  // A product's first index (or again after eviction), built before the transaction a slice at a
  // time and cached when complete, so no call sees it half built; warms meanwhile wait for the same
  // build. `decide` then only catches it up; without a warm, it builds the index itself in one go.
  const building = sharedRuns<void>();
  const built = (key: string, scope: WarmScope): Promise<void> =>
    building(key, async () => {
      // The version before the candidates: an index is never tagged newer than what it holds.
      const version = await scope.version();
      const candidates = await scope.candidates();
      const index = await builtInSlices(candidates.map(indexed));
      cache.set(key, { index, version, newest: newestKey(candidates) });
    });

  return {
    name: 'lexical',
    threshold,
    async prepare(report) {
      const text = issueText(report);
      return { text, detector: 'lexical', terms: terms(text) } satisfies LexicalReport;
    },
    async decide(prepared: PreparedReport, scope: DetectionScope): Promise<Decision> {
      const report = 'terms' in prepared ? (prepared as LexicalReport).terms : terms(prepared.text);
      const key = keyOf(scope);
      // From the index's last change to the scores nothing awaits, so no other call can change it in between.
      const { index } = (await caughtUp(key, scope)) ?? synced(key, await candidatesOf(scope), scope.version);
      return decisionIn(band, index.top(report, SHORTLIST));
    },
    async warm(_prepared: PreparedReport, scope: WarmScope) {
      const key = keyOf(scope);
      if (!cache.get(key)) await built(key, scope);
    },
    created(issue: CreatedIssue) {
      const product = cache.get(keyOf(issue));
      if (!product || product.version === null || issue.version !== product.version + 1) return;
      if (issue.open) {
        const key: OrderKey = [issue.createdAt, issue.id];
        if (!product.newest || !follows(key, product.newest) || product.index.has(issue.id)) return;
        product.index.append(indexed(issue));
        product.newest = key;
      }
      product.version = issue.version;
    },
    async indexIssue() {},
    async close() {},
  };
}
