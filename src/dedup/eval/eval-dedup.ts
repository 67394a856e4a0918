// `npm run eval:dedup -- --pairs FILE [--provider P] [--json OUT]`: runs labelled pairs through
// the same detector the endpoint uses (prepare, then decide against a one-issue product whose
// issue was indexed first) and prints precision, recall and F1 per set, the precision–recall
// curve's precision at recall 0.5, 0.7 and 0.9, a threshold sweep, the time per decision, and
// the auto-link and review thresholds the dev pairs suggest (src/dedup/thresholds.ts).
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { DuplicateDetector } from '../detector.js';
import { evalDetector } from './eval-detector.js';
import { memoryStore } from './memory-store.js';
import { atThreshold, bySet, highestThresholdWithRecall, lowestSafeThreshold, percentile, precisionAtRecall, quality, type PairResult, type Quality } from './metrics.js';
import { readPairs, type Pair } from './pairs.js';

const PRECISION_TARGET = 0.95;
/** The review band shows most duplicates the auto-link misses: recall over the CIKM sets together. */
const REVIEW_RECALL = 0.7;
/** For a matcher that never reaches that recall: at least every other suggestion a real duplicate. */
const REVIEW_PRECISION = 0.5;
const CURVE_RECALLS = [0.5, 0.7, 0.9];
const SWEEP = [-0.1, -0.05, -0.02, 0, 0.02, 0.05];

async function run(detector: DuplicateDetector, pairs: Pair[]): Promise<PairResult[]> {
  const results: PairResult[] = [];
  for (const [i, pair] of pairs.entries()) {
    const issue = { id: `issue-${i}`, workspaceId: 'eval', productId: `product-${i}`, title: pair.a, description: null };
    await detector.indexIssue(issue);
    const started = performance.now();
    const prepared = await detector.prepare({ title: pair.b, description: null });
    const decision = await detector.decide(prepared, { workspaceId: 'eval', productId: issue.productId, candidates: [issue] });
    results.push({ set: pair.set, label: pair.label, score: decision.score, matched: decision.issueId !== null, ms: performance.now() - started });
    if ((i + 1) % 1000 === 0) process.stderr.write(`${i + 1}/${pairs.length}\n`);
  }
  return results;
}

const fixed = (n: number) => n.toFixed(3);
const row = (name: string, q: Quality, list: readonly PairResult[]) =>
  `| ${name.padEnd(12)} | ${String(q.n).padStart(5)} | ${String(q.positives).padStart(5)} | ${fixed(q.precision)} | ${fixed(q.recall)} | ${fixed(q.f1)} | ` +
  `${CURVE_RECALLS.map((recall) => fixed(precisionAtRecall(list, recall))).join(' | ')} |`;

function print(detector: DuplicateDetector, results: PairResult[], seconds: number): void {
  const sets = bySet(results);
  const matched = (r: PairResult) => r.matched;
  const out: string[] = [
    `matcher ${detector.name}, threshold ${detector.threshold}, ${results.length} pairs in ${seconds.toFixed(1)} s`,
    '',
    `| set          |     n |   pos | precision | recall | f1 | ${CURVE_RECALLS.map((r) => `P@R${r}`).join(' | ')} |`,
    `|---|---:|---:|---:|---:|---:|${CURVE_RECALLS.map(() => '---:|').join('')}`,
    ...[...sets].map(([name, list]) => row(name, quality(list, matched), list)),
    row('overall', quality(results, matched), results),
    '',
    `P@R: the precision-recall curve's best precision at that recall or more.`,
    '',
    `precision / recall by threshold`,
    '',
  ];
  const thresholds = SWEEP.map((d) => Number((detector.threshold + d).toFixed(3))).filter((t) => t > 0 && t <= 1);
  out.push(`| set | ${thresholds.join(' | ')} |`, `|---|${thresholds.map(() => '---:').join('|')}|`);
  for (const [name, list] of [...sets, ['overall', results] as const]) {
    const cells = thresholds.map((t) => {
      const q = quality(list, atThreshold(t));
      return `${fixed(q.precision)} / ${fixed(q.recall)}`;
    });
    out.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  const ms = results.map((r) => r.ms);
  const cikm = [...sets].filter(([name]) => name.startsWith('cikm')).map(([, list]) => list);
  out.push('', `time per decision (prepare + decide): p50 ${percentile(ms, 50).toFixed(2)} ms, p95 ${percentile(ms, 95).toFixed(2)} ms`);
  if (cikm.length) {
    const pooled = cikm.flat();
    const at = (threshold: number | null) => {
      if (threshold === null) return 'none';
      const q = quality(pooled, atThreshold(threshold));
      return `${threshold} (CIKM sets together: precision ${fixed(q.precision)}, recall ${fixed(q.recall)})`;
    };
    out.push(
      `lowest threshold keeping precision >= ${PRECISION_TARGET} on every CIKM set (auto-link): ${at(lowestSafeThreshold(cikm, PRECISION_TARGET))}`,
      `highest threshold reaching recall >= ${REVIEW_RECALL} over the CIKM sets (review band): ${at(highestThresholdWithRecall(pooled, REVIEW_RECALL))}`,
      `lowest threshold keeping precision >= ${REVIEW_PRECISION} over the CIKM sets (review band, if none above): ` +
        `${at(lowestSafeThreshold([pooled], REVIEW_PRECISION))}`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

function summary(detector: DuplicateDetector, results: PairResult[]) {
  const matched = (r: PairResult) => r.matched;
  const ms = results.map((r) => r.ms);
  return {
    provider: detector.name.split(':')[0],
    model: detector.name === 'lexical' ? null : detector.name.slice(detector.name.indexOf(':') + 1),
    threshold: detector.threshold,
    overall: quality(results, matched),
    sets: Object.fromEntries([...bySet(results)].map(([name, list]) => [name, quality(list, matched)])),
    p50_ms: percentile(ms, 50),
    p95_ms: percentile(ms, 95),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pairs: { type: 'string' }, provider: { type: 'string' }, json: { type: 'string' } } });
  if (!values.pairs) throw new Error('usage: npm run eval:dedup -- --pairs FILE [--provider auto|local|openai|lexical] [--json OUT]');
  const { detector } = await evalDetector(values.provider, memoryStore());
  try {
    const pairs = readPairs(values.pairs);
    const started = performance.now();
    const results = await run(detector, pairs);
    print(detector, results, (performance.now() - started) / 1000);
    if (values.json) writeFileSync(values.json, `${JSON.stringify(summary(detector, results), null, 2)}\n`);
  } finally {
    await detector.close();
  }
}

await main();
