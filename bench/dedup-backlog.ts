// What one duplicate decision costs against a product backlog of N open issues, for the
// lexical matcher and for the embedding matcher's cache and cosine scan (with a stand-in
// embedder of e5-small's dimension: the model's own cost is measured by `npm run eval:dedup`).
// Run: node --expose-gc --import tsx bench/dedup-backlog.ts
import { performance } from 'node:perf_hooks';
import type { Candidate, DuplicateDetector } from '../src/dedup/detector.js';
import { createEmbeddingDetector, type Embedder } from '../src/dedup/embedding-detector.js';
import { memoryStore } from '../src/dedup/eval/memory-store.js';
import { createLexicalDetector } from '../src/dedup/lexical.js';

const WORDS = 'login fails refund order payment card address shipping coupon account seller dispute password email export crash upload photo safari android'.split(' ');
const DIMENSION = 384;

function backlog(n: number): Candidate[] {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, (_, i) => ({
    id: `issue-${i}`,
    title: Array.from({ length: 6 + Math.floor(random() * 6) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + ` ${i}`,
    description: null,
  }));
}

const standIn: Embedder = {
  name: 'bench:stand-in',
  model: 'stand-in',
  async embed(texts) {
    return texts.map((text) => Float32Array.from({ length: DIMENSION }, (_, i) => Math.sin(text.length * (i + 1) + text.charCodeAt(i % text.length))));
  },
  async close() {},
};

async function measure(label: string, detector: DuplicateDetector, candidates: Candidate[]): Promise<void> {
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const scope = { workspaceId: 'w', productId: 'p', candidates };
  const prepared = await detector.prepare({ title: 'login fails on safari with card payment', description: null });
  let started = performance.now();
  await detector.decide(prepared, scope);
  const first = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    started = performance.now();
    await detector.decide(prepared, scope);
    times.push(performance.now() - started);
  }
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heapBefore;
  times.sort((a, b) => a - b);
  console.log(`| ${label} | ${candidates.length} | ${first.toFixed(1)} | ${times[10].toFixed(2)} | ${(heap / 2 ** 20).toFixed(1)} |`);
}

console.log('| matcher | open issues | first decision (ms) | cached decision p50 (ms) | memory held (MiB) |');
console.log('|---|---:|---:|---:|---:|');
for (const n of [1_000, 10_000, 50_000]) {
  const candidates = backlog(n);
  await measure('lexical', createLexicalDetector(), candidates);
  const store = memoryStore();
  const embedding = createEmbeddingDetector({ embedder: standIn, store, threshold: 0.9, logger: { info() {}, warn() {} } });
  for (const c of candidates) await embedding.indexIssue({ ...c, workspaceId: 'w', productId: 'p' });
  await measure('embedding cache + cosine (384 dims)', embedding, candidates);
}
