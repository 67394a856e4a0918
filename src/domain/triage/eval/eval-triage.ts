// `npm run eval:triage -- --pairs FILE [--provider P] [--per-set N] [--json OUT]`: triage measured
// on labelled pairs (docs/triage.md, "Evaluation"). Every pair's first text is an open issue of one
// product, its second a new conversation triaged by runTriage on a SQLite database; printed: the
// precision and recall of link suggestions (auto-link threshold) and of the review band (the link's
// issue or a create suggestion's possible duplicates), per set and overall, the confusion counts by
// label, the backlog's size and the time per triage run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase } from '../../../db/database.js';
import { embeddingRepository } from '../../../db/repositories/embedding.repository.js';
import { evalDetector } from '../../../dedup/eval/eval-detector.js';
import { bySet, percentile, qualityOf, type Quality } from '../../../dedup/eval/metrics.js';
import { readPairs, samplePerSet, type Pair } from '../../../dedup/eval/pairs.js';
import type { Band } from '../../../dedup/thresholds.js';
import { runTriageEval, type TriageOutcome, type TriageRun } from './triage-eval.js';

const USAGE = 'usage: npm run eval:triage -- --pairs FILE [--provider lexical|openai|local|auto] [--per-set N] [--json OUT]';

/**
 * Labels of (issue text, conversation text) pairs, in both orders: a pair labels a duplicate either
 * way. A text is a duplicate of itself: the sets repeat texts across pairs (a CIKM question in
 * several pairs, a PAWS-X sentence in its language's set and in a cross-language one), so a
 * conversation may meet its own text as another pair's issue.
 */
type Labels = Map<string, 0 | 1>;
const labelKey = (a: string, b: string) => `${a}\u0000${b}`;

function labelsOf(pairs: readonly Pair[]): Labels {
  const labels: Labels = new Map();
  for (const { a, b, label } of pairs) {
    // A text pair labelled both ways (rare) counts as a duplicate.
    for (const key of [labelKey(a, b), labelKey(b, a)]) labels.set(key, labels.get(key) === 1 ? 1 : label);
    for (const text of [a, b]) labels.set(labelKey(text, text), 1);
  }
  return labels;
}

/** The issue texts triage offered for a conversation: the link's issue, or the possible duplicates. */
const offered = (o: TriageOutcome): string[] => (o.linked !== null ? [o.linked] : o.possible);
const partnerLinked = (o: TriageOutcome) => o.linked === o.a;
const partnerOffered = (o: TriageOutcome) => offered(o).includes(o.a);

interface Judged {
  right: number;
  /** Labelled not a duplicate by some pair. */
  wrong: number;
  /** Named by no pair: counted as wrong in the precision. */
  unlabelled: number;
}

function judge(labels: Labels, offers: [issue: string, conversation: string][]): Judged {
  const judged: Judged = { right: 0, wrong: 0, unlabelled: 0 };
  for (const [issue, conversation] of offers) {
    const label = labels.get(labelKey(issue, conversation));
    judged[label === 1 ? 'right' : label === 0 ? 'wrong' : 'unlabelled']++;
  }
  return judged;
}

interface Scores {
  link: Quality;
  review: Quality;
  links: Judged;
  offers: Judged;
}

/**
 * Link: precision over every link suggestion (right when a pair labels its issue a duplicate of the
 * conversation), recall over the duplicate pairs (their conversation linked to their issue). Review
 * band: the same over every issue offered (the link's, or each possible duplicate).
 */
function scoresOf(labels: Labels, outcomes: readonly TriageOutcome[]): Scores {
  const n = outcomes.length;
  const duplicates = outcomes.filter((o) => o.label === 1);
  const links = judge(labels, outcomes.flatMap((o) => (o.linked !== null ? [[o.linked, o.b] as [string, string]] : [])));
  const offers = judge(labels, outcomes.flatMap((o) => offered(o).map((issue) => [issue, o.b] as [string, string])));
  const count = (judged: Judged) => judged.right + judged.wrong + judged.unlabelled;
  return {
    link: qualityOf({ predicted: count(links), right: links.right, found: duplicates.filter(partnerLinked).length, positives: duplicates.length, n }),
    review: qualityOf({ predicted: count(offers), right: offers.right, found: duplicates.filter(partnerOffered).length, positives: duplicates.length, n }),
    links,
    offers,
  };
}

/** What became of each conversation, one column each (they exclude one another). */
const CONFUSION = {
  linked_to_pair_issue: partnerLinked,
  linked_to_another_issue: (o: TriageOutcome) => o.linked !== null && !partnerLinked(o),
  pair_issue_a_possible_duplicate: (o: TriageOutcome) => o.linked === null && partnerOffered(o),
  pair_issue_not_offered: (o: TriageOutcome) => o.linked === null && !partnerOffered(o),
};

function confusionOf(outcomes: readonly TriageOutcome[]) {
  return Object.fromEntries(([1, 0] as const).map((label) => {
    const list = outcomes.filter((o) => o.label === label);
    return [`label_${label}`, { conversations: list.length, ...Object.fromEntries(Object.entries(CONFUSION).map(([name, test]) => [name, list.filter(test).length])) }];
  })) as Record<'label_1' | 'label_0', Record<'conversations' | keyof typeof CONFUSION, number>>;
}

function reportOf(matcher: string, band: Band, run: TriageRun, labels: Labels) {
  const ms = run.outcomes.map((o) => o.ms);
  return {
    matcher,
    auto_link: band.autoLink,
    review: band.review,
    backlog_open_issues: run.backlog,
    conversations: run.outcomes.length,
    overall: scoresOf(labels, run.outcomes),
    sets: Object.fromEntries([...bySet(run.outcomes)].map(([set, list]) => [set, scoresOf(labels, list)])),
    confusion: confusionOf(run.outcomes),
    p50_ms: percentile(ms, 50),
    p95_ms: percentile(ms, 95),
    seconds: run.seconds,
  };
}

const fixed = (n: number) => n.toFixed(3);
const judged = (j: Judged) => `${j.right + j.wrong + j.unlabelled} (right ${j.right}, labelled not a duplicate ${j.wrong}, unlabelled ${j.unlabelled})`;

function print(report: ReturnType<typeof reportOf>): void {
  const row = (name: string, s: Scores) =>
    `| ${name} | ${s.link.n} | ${s.link.positives} | ${s.links.right + s.links.wrong + s.links.unlabelled} | ${fixed(s.link.precision)} | ${fixed(s.link.recall)} | ` +
    `${s.offers.right + s.offers.wrong + s.offers.unlabelled} | ${fixed(s.review.precision)} | ${fixed(s.review.recall)} |`;
  const names = Object.keys(CONFUSION);
  const out = [
    `matcher ${report.matcher}: auto-link ${report.auto_link}, review band from ${report.review}`,
    `backlog: ${report.backlog_open_issues} open issues in one product; ${report.conversations} conversations triaged in ${report.seconds.triage.toFixed(1)} s` +
      (report.seconds.vectors === null ? '' : ` (issue vectors stored in ${report.seconds.vectors.toFixed(1)} s)`),
    '',
    '| set | pairs | duplicates | links | link precision | link recall | offers | review precision | review recall |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(report.sets).map(([name, scores]) => row(name, scores)),
    row('overall', report.overall),
    '',
    `| label | conversations | ${names.map((name) => name.replaceAll('_', ' ')).join(' | ')} |`,
    `|---|---:|${names.map(() => '---:').join('|')}|`,
    ...(['label_1', 'label_0'] as const).map((label) => {
      const counts = report.confusion[label];
      return `| ${label.at(-1)} | ${counts.conversations} | ${names.map((name) => counts[name as keyof typeof CONFUSION]).join(' | ')} |`;
    }),
    '',
    `links: ${judged(report.overall.links)}`,
    `offers (links and possible duplicates): ${judged(report.overall.offers)}`,
    `time per triage run: p50 ${report.p50_ms.toFixed(2)} ms, p95 ${report.p95_ms.toFixed(2)} ms`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pairs: { type: 'string' }, provider: { type: 'string' }, 'per-set': { type: 'string' }, json: { type: 'string' } } });
  if (!values.pairs) throw new Error(USAGE);
  const perSet = values['per-set'] === undefined ? null : Number(values['per-set']);
  if (perSet !== null && !(Number.isInteger(perSet) && perSet > 0)) throw new Error(`--per-set must be a positive integer; ${USAGE}`);
  const all = readPairs(values.pairs);
  const pairs = perSet === null ? all : samplePerSet(all, perSet);
  const dir = mkdtempSync(join(tmpdir(), 'loopdesk-eval-triage-'));
  const database = createDatabase(`sqlite:${join(dir, 'eval.db')}`);
  try {
    await database.migrate();
    const { detector, band } = await evalDetector(values.provider, embeddingRepository(database.db));
    try {
      const report = reportOf(detector.name, band, await runTriageEval(database, detector, pairs), labelsOf(all));
      print(report);
      if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
    } finally {
      await detector.close();
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
