// The `lexical` matcher: no model, works offline, matches only near-identical reports.
import type { Candidate, Decision, DetectionScope, DuplicateDetector, PreparedReport } from './detector.js';
import { LexicalIndex, terms } from './lexical-index.js';
import { LruMap } from './lru.js';
import { issueText } from './text.js';
import { LEXICAL_THRESHOLD } from './thresholds.js';

interface LexicalReport extends PreparedReport {
  readonly terms: ReturnType<typeof terms>;
}

interface ProductIndex {
  ids: string[];
  index: LexicalIndex;
}

// Products whose indexes stay in memory; an evicted one is rebuilt from its candidates.
const CACHED_PRODUCTS = 256;

// The cached index is reused only when it was built from exactly these candidate texts, so it
// needs no version counter: the candidates are read in the same transaction.
function sameCandidates(cached: ProductIndex, candidates: readonly Candidate[], texts: string[]): boolean {
  return cached.ids.length === candidates.length
    && candidates.every((c, i) => cached.ids[i] === c.id && cached.index.texts[i] === texts[i]);
}

export function createLexicalDetector(threshold = LEXICAL_THRESHOLD): DuplicateDetector {
  const cache = new LruMap<string, ProductIndex>(CACHED_PRODUCTS);

  function productIndex(scope: DetectionScope): ProductIndex {
    const key = `${scope.workspaceId}:${scope.productId}`;
    const texts = scope.candidates.map(issueText);
    const cached = cache.get(key);
    if (cached && sameCandidates(cached, scope.candidates, texts)) return cached;
    const built = { ids: scope.candidates.map((c) => c.id), index: new LexicalIndex(texts) };
    cache.set(key, built);
    return built;
  }

  return {
    name: 'lexical',
    threshold,
    async prepare(report) {
      const text = issueText(report);
      return { text, terms: terms(text) } satisfies LexicalReport;
    },
    async decide(prepared, scope): Promise<Decision> {
      const { ids, index } = productIndex(scope);
      const report = 'terms' in prepared ? (prepared as LexicalReport).terms : terms(prepared.text);
      const best = index.best(report);
      if (!best) return { issueId: null, score: null };
      return { issueId: best.score >= threshold ? ids[best.index] : null, score: best.score };
    },
    async indexIssue() {},
    async close() {},
  };
}
