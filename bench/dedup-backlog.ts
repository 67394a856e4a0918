// What one duplicate decision costs against a product backlog of N open issues.
//
// 1. The lexical matcher as POST /issues/maybe drives it: a stream of reports against one
//    product, each decided at the product's current version and, when it matched nothing, taken
//    in as a created issue (so the next decision follows a change, as in the server). CPU time
//    and wall time per decision (decide + created), p50 and p95 (and the CPU maximum), for two
//    kinds of text: the HTTP bench's tickets (bench/texts.ts: few words, every report has
//    near-duplicates) and a long tail (words drawn from a Zipf vocabulary, as in a real backlog,
//    most reports new).
// 2. The first decision, a cached decision and the memory held, for the lexical matcher and for
//    the embedding matcher's cache and cosine scan (with a stand-in embedder of e5-small's
//    dimension: the model's own cost is measured by `npm run eval:dedup`).
// 3. (`--only recall`) What the lexical index's budgeted cosine search finds of a full scan's:
//    the share of the full scan's shortlist it returns, and how often the best match and its
//    score, and the review band's matches (the possible duplicates), are the same.
// Run: node --expose-gc --import ./test/helpers/typescript-hooks.mjs bench/dedup-backlog.ts [--scales 1000,10000,100000] [--reports 300] [--only stream|table|recall]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Candidate, DuplicateDetector } from '../src/dedup/detector.js';
import { createEmbeddingDetector, type Embedder } from '../src/dedup/embedding-detector.js';
import { memoryStore } from '../src/dedup/eval/memory-store.js';
import { LexicalIndex, type LexicalMatch } from '../src/dedup/lexical-index.js';
import { FULL_SCAN, SHORTLIST } from '../src/dedup/lexical-shortlist.js';
import { terms } from '../src/dedup/lexical-terms.js';
import { createLexicalDetector } from '../src/dedup/lexical.js';
import { issueText } from '../src/dedup/text.js';
import { LEXICAL_BAND, POSSIBLE_DUPLICATES } from '../src/dedup/thresholds.js';
import { textSource, type TextKind } from './texts.js';

const { values } = parseArgs({
  options: {
    scales: { type: 'string', default: '1000,10000,100000' },
    reports: { type: 'string', default: '300' },
    only: { type: 'string' },
  },
});
const SCALES = values.scales.split(',').map(Number);
const REPORTS = Number(values.reports);
const WORDS = 'login fails refund order payment card address shipping coupon account seller dispute password email export crash upload photo safari android'.split(' ');
const DIMENSION = 384;

function syntheticTitles(n: number): Candidate[] {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, (_, i) => ({
    id: `issue-${i}`,
    title: Array.from({ length: 6 + Math.floor(random() * 6) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + ` ${i}`,
    description: null,
  }));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function stream(kind: TextKind, n: number): Promise<void> {
  const backlogText = textSource(kind, 1);
  let ms = Date.UTC(2025, 0, 1);
  const at = () => new Date(ms++).toISOString();
  const candidates: Candidate[] = Array.from({ length: n }, (_, i) => ({ id: `issue-${String(i).padStart(7, '0')}`, ...backlogText(), createdAt: at() }));
  const detector = createLexicalDetector();
  const reportText = textSource(kind, 2);
  let version = 1;
  const scope = () => ({ workspaceId: 'w', productId: 'p', version, candidates: async () => candidates });
  const coldStarted = performance.now();
  await detector.decide(await detector.prepare({ title: 'warm-up', description: null }), scope());
  const cold = performance.now() - coldStarted;
  const cpu: number[] = [];
  const wall: number[] = [];
  let created = 0;
  for (let i = 0; i < REPORTS; i++) {
    const report = reportText();
    const prepared = await detector.prepare(report);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const decision = await detector.decide(prepared, scope());
    if (decision.issueId === null) {
      const issue = { id: `report-${String(i).padStart(7, '0')}`, ...report, createdAt: at() };
      candidates.push(issue);
      detector.created!({ ...issue, workspaceId: 'w', productId: 'p', open: true, version: ++version });
      created++;
    }
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  console.log(`| ${kind} | ${n} | ${cold.toFixed(0)} | ${percentile(cpu, 50).toFixed(2)} | ${percentile(cpu, 95).toFixed(2)} | ${cpu.at(-1)!.toFixed(2)} | ` +
    `${percentile(wall, 50).toFixed(2)} | ${percentile(wall, 95).toFixed(2)} | ${created} of ${REPORTS} |`);
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

/** Recall of the full scan's shortlist, and agreement on the best match and the review band, over REPORTS reports. */
function recall(kind: TextKind, n: number): void {
  const backlogText = textSource(kind, 1);
  const index = new LexicalIndex();
  index.sync(Array.from({ length: n }, (_, i) => ({ id: `issue-${i}`, text: issueText(backlogText()) })));
  const reportText = textSource(kind, 2);
  let found = 0;
  let listed = 0;
  let sameBest = 0;
  let sameBand = 0;
  const reviewBand = (matches: LexicalMatch[]) => JSON.stringify(matches.slice(0, POSSIBLE_DUPLICATES).filter((match) => match.score >= LEXICAL_BAND.review));
  for (let i = 0; i < REPORTS; i++) {
    const report = terms(issueText(reportText()));
    const exact = index.top(report, SHORTLIST, FULL_SCAN);
    const got = index.top(report, SHORTLIST);
    const ids = new Set(got.map((match) => match.id));
    found += exact.filter((match) => ids.has(match.id)).length;
    listed += exact.length;
    if (got[0].id === exact[0].id && got[0].score === exact[0].score) sameBest++;
    if (reviewBand(got) === reviewBand(exact)) sameBand++;
  }
  console.log(`| ${kind} | ${n} | ${(found / listed).toFixed(3)} | ${sameBest} of ${REPORTS} | ${sameBand} of ${REPORTS} |`);
}

if (values.only === 'recall') {
  console.log(`lexical, budgeted search against a full scan, ${REPORTS} reports\n`);
  console.log('| texts | open issues | recall of the full scan\'s shortlist | same best match and score | same review band |');
  console.log('|---|---:|---:|---:|---:|');
  for (const kind of ['tickets', 'long tail'] as const) for (const n of SCALES) recall(kind, n);
} else if (values.only !== 'table') {
  console.log(`lexical, ${REPORTS} reports in a stream (decide, then take in the created issue)\n`);
  console.log('| texts | open issues | cold index (ms) | CPU per decision p50 (ms) | p95 (ms) | max (ms) | wall p50 (ms) | wall p95 (ms) | created |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const kind of ['tickets', 'long tail'] as const) for (const n of SCALES) await stream(kind, n);
  console.log('');
}
if (values.only === undefined || values.only === 'table') {
  console.log('| matcher | open issues | first decision (ms) | cached decision p50 (ms) | memory held (MiB) |');
  console.log('|---|---:|---:|---:|---:|');
  for (const n of SCALES) {
    const candidates = syntheticTitles(n);
    await measure('lexical', createLexicalDetector(), candidates);
    const store = memoryStore();
    const embedding = createEmbeddingDetector({ embedder: standIn, store, threshold: 0.9, logger: { info() {}, warn() {} } });
    for (const c of candidates) await embedding.indexIssue({ ...c, workspaceId: 'w', productId: 'p' });
    await measure('embedding cache + cosine (384 dims)', embedding, candidates);
  }
}
