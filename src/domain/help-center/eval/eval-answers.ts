// `npm run eval:answers -- --pairs FILE [--provider P] [--embedding-cache DIR] [--threshold T] [--json OUT]`:
// how well answers find the right article. Each set of the labelled duplicate pairs becomes one
// product: every distinct first text is a published article (its title and its body), every
// pair's second text a visitor's question, scored against all of the set's articles by the same
// functions the server uses (answer-retrieval.ts). A question of a label-1 pair should find its
// pair's article; one of a label-0 pair is "unrelated" (its pair's article does not answer it)
// and is counted among those that get no answer. Prints recall@1 and recall@3 at the threshold
// (the right article among the first 1 or 3 shown), the same without a threshold (ranking alone),
// the unrelated questions left without an answer, per set, for the CIKM sets together and overall;
// then a threshold sweep over the CIKM sets and the highest threshold that keeps 90 % of the
// ranking's recall@3 there (what answer-thresholds.ts ships).
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { evalDetector } from '../../../dedup/eval/eval-detector.js';
import { memoryStore } from '../../../dedup/eval/memory-store.js';
import { readPairs, type Pair } from '../../../dedup/eval/pairs.js';
import type { Embedder } from '../../../dedup/embedding-detector.js';
import { EMBED_BATCH } from '../../../dedup/embedding-detector.js';
import { unit } from '../../../dedup/vector-cache.js';
import { articlePassages } from '../passages.js';
import { bestPassages, vectorScores, wordIndex, wordScores, type RetrievablePassage } from '../answer-retrieval.js';
import { answerThreshold } from '../answer-thresholds.js';

const USAGE = 'usage: npm run eval:answers -- --pairs FILE [--provider lexical|openai|local|auto] [--embedding-cache DIR] [--threshold T] [--json OUT]';

/** One question's outcome: the article it should find (label 1) or none, and the three best scored articles. */
interface Outcome {
  set: string;
  label: 0 | 1;
  target: string;
  ranked: { articleId: string; score: number }[];
}

async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += EMBED_BATCH) out.push(...(await embedder.embed(texts.slice(start, start + EMBED_BATCH))));
  return out;
}

/** The set's questions against its articles. */
async function runSet(set: string, pairs: readonly Pair[], embedder: Embedder | undefined): Promise<Outcome[]> {
  const ids = new Map<string, string>();
  for (const pair of pairs) if (!ids.has(pair.a)) ids.set(pair.a, `${set}-${ids.size}`);
  const passages: RetrievablePassage[] = [...ids].flatMap(([text, id]) =>
    articlePassages(text, text).map((passage) => ({ articleId: id, group: id, input: passage.input })));
  const questions = pairs.map((pair) => pair.b);
  let scoresOf: (i: number) => number[];
  if (embedder) {
    const [passageVectors, questionVectors] = [await embedAll(embedder, passages.map((p) => p.input)), await embedAll(embedder, questions)];
    const units = passageVectors.map((vector) => unit(vector));
    scoresOf = (i) => vectorScores(units, questionVectors[i]);
  } else {
    const index = wordIndex(passages.map((p) => p.input));
    scoresOf = (i) => wordScores(index, questions[i]);
  }
  return pairs.map((pair, i) => ({
    set, label: pair.label, target: ids.get(pair.a)!,
    ranked: bestPassages(passages, scoresOf(i), -Infinity, 3).map(({ passage, score }) => ({ articleId: passage.articleId, score })),
  }));
}

interface Figures {
  questions: number;
  unrelated: number;
  recall_at_1: number;
  recall_at_3: number;
  ranked_recall_at_1: number;
  ranked_recall_at_3: number;
  unrelated_no_answer: number;
}

function figures(outcomes: readonly Outcome[], threshold: number): Figures {
  const related = outcomes.filter((o) => o.label === 1);
  const unrelated = outcomes.filter((o) => o.label === 0);
  const found = (o: Outcome, k: number, floor: number) => o.ranked.slice(0, k).some((r) => r.articleId === o.target && r.score >= floor);
  const share = (list: readonly Outcome[], test: (o: Outcome) => boolean) => (list.length === 0 ? 0 : list.filter(test).length / list.length);
  return {
    questions: related.length,
    unrelated: unrelated.length,
    recall_at_1: share(related, (o) => found(o, 1, threshold)),
    recall_at_3: share(related, (o) => found(o, 3, threshold)),
    ranked_recall_at_1: share(related, (o) => found(o, 1, -Infinity)),
    ranked_recall_at_3: share(related, (o) => found(o, 3, -Infinity)),
    unrelated_no_answer: share(unrelated, (o) => !(o.ranked[0]?.score >= threshold)),
  };
}

const fixed = (n: number) => n.toFixed(3);
const row = (name: string, f: Figures) =>
  `| ${name.padEnd(12)} | ${String(f.questions).padStart(5)} | ${String(f.unrelated).padStart(5)} | ${fixed(f.recall_at_1)} | ${fixed(f.recall_at_3)} | ` +
  `${fixed(f.unrelated_no_answer)} | ${fixed(f.ranked_recall_at_1)} | ${fixed(f.ranked_recall_at_3)} |`;

/** What a threshold may cost: the share of the ranking's right answers (recall@3 without a threshold) it may turn away. */
const RECALL_KEPT = 0.9;

/**
 * The highest threshold (0.005 steps) that keeps RECALL_KEPT of the ranking's recall@3 over
 * `outcomes`: it turns away as many unrelated questions as it can while losing at most a tenth of
 * the right answers.
 */
function calibrated(outcomes: readonly Outcome[]): number {
  const floor = figures(outcomes, -Infinity).ranked_recall_at_3 * RECALL_KEPT;
  let best = 0;
  for (let step = 0; step <= 200; step++) {
    const threshold = Number((step * 0.005).toFixed(3));
    if (figures(outcomes, threshold).recall_at_3 >= floor) best = threshold;
  }
  return best;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { pairs: { type: 'string' }, provider: { type: 'string' }, 'embedding-cache': { type: 'string' }, threshold: { type: 'string' }, json: { type: 'string' } },
  });
  if (!values.pairs) throw new Error(USAGE);
  const { detector } = await evalDetector(values.provider, memoryStore(), values['embedding-cache']);
  try {
    const embedder = detector.embedder;
    const threshold = values.threshold === undefined ? answerThreshold(embedder?.model ?? null) : Number(values.threshold);
    if (!Number.isFinite(threshold)) throw new Error(USAGE);
    const pairs = readPairs(values.pairs);
    const started = performance.now();
    const sets = [...new Set(pairs.map((p) => p.set))].sort();
    const outcomes = new Map<string, Outcome[]>();
    for (const set of sets) {
      outcomes.set(set, await runSet(set, pairs.filter((p) => p.set === set), embedder));
    }
    const all = [...outcomes.values()].flat();
    const cikm = [...outcomes].filter(([name]) => name.startsWith('cikm')).flatMap(([, list]) => list);
    const out = [
      `answers by ${embedder ? embedder.name : 'words (lexical)'}, threshold ${threshold}, ${all.length} questions in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      '',
      '| set          | questions | unrelated | recall@1 | recall@3 | unrelated, no answer | ranked recall@1 | ranked recall@3 |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...[...outcomes].map(([name, list]) => row(name, figures(list, threshold))),
      ...(cikm.length ? [row('cikm (all)', figures(cikm, threshold))] : []),
      row('overall', figures(all, threshold)),
      '',
      'recall@k: a label-1 question whose article is among the first k shown (score at or above the threshold);',
      'ranked: the same with no threshold; unrelated, no answer: label-0 questions for which nothing reaches the threshold.',
    ];
    if (cikm.length) {
      const sweep = [-0.1, -0.05, -0.02, 0, 0.02, 0.05].map((d) => Number((threshold + d).toFixed(3)));
      out.push('', 'CIKM sets together by threshold: recall@1 / recall@3 / unrelated, no answer', '',
        `| ${sweep.join(' | ')} |`, `|${sweep.map(() => '---:').join('|')}|`,
        `| ${sweep.map((t) => { const f = figures(cikm, t); return `${fixed(f.recall_at_1)} / ${fixed(f.recall_at_3)} / ${fixed(f.unrelated_no_answer)}`; }).join(' | ')} |`,
        '', `highest threshold keeping ${RECALL_KEPT} of the ranking's recall@3 over the CIKM sets: ${calibrated(cikm)}`);
    }
    process.stdout.write(`${out.join('\n')}\n`);
    if (values.json) {
      const report = { matcher: embedder ? embedder.name : 'lexical', threshold, sets: Object.fromEntries([...outcomes].map(([name, list]) => [name, figures(list, threshold)])),
        cikm: cikm.length ? figures(cikm, threshold) : null, overall: figures(all, threshold), calibrated: cikm.length ? calibrated(cikm) : null,
        cikm_curve: Array.from({ length: 21 }, (_, i) => Number((i * 0.05).toFixed(2))).map((t) => ({ threshold: t, ...figures(cikm, t) })) };
      writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
    }
  } finally {
    await detector.close();
  }
}

await main();
