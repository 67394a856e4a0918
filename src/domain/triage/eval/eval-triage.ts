// `npm run eval:triage -- --pairs FILE [--provider P] [--per-set N] [--json OUT]`: triage measured
// on labelled pairs (docs/triage.md, "Evaluation"). Every pair's first text is an open issue of one
// product, its second a new conversation triaged by runTriage on a SQLite database; printed: the
// precision and recall of link suggestions (auto-link threshold) and of the review band (the link's
// issue or a create suggestion's possible duplicates), per set and overall, the confusion counts by
// label, the backlog's size and the time per triage run.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { bySet, percentile, qualityOf, type Quality } from '../../../dedup/eval/metrics.js';
import { readPairs, samplePerSet } from '../../../dedup/eval/pairs.js';
import { pairModelFor } from '../classifier/calibration.js';
import { decidePair, type PairDecision } from '../classifier/pair-model.js';
import { examplesOf, FOLDS, heldOut, labelKey, labelsOf, linkCurve, type Labels } from './cross-validation.js';
import { withMatchedRun, type MatchedRun, type TriageOutcome } from './triage-eval.js';

const USAGE = 'usage: npm run eval:triage -- --pairs FILE [--provider lexical|openai|local|auto] [--per-set N] [--embedding-cache DIR] [--model shipped] [--json OUT]';

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

function reportOf(decider: string, run: MatchedRun, outcomes: readonly TriageOutcome[], labels: Labels) {
  const ms = run.conversations.map((c) => c.ms);
  return {
    decider,
    backlog_open_issues: run.issueTexts.size,
    conversations: outcomes.length,
    overall: scoresOf(labels, outcomes),
    sets: Object.fromEntries([...bySet(outcomes)].map(([set, list]) => [set, scoresOf(labels, list)])),
    confusion: confusionOf(outcomes),
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
    report.decider,
    `backlog: ${report.backlog_open_issues} open issues in one product; ${report.conversations} conversations matched in ${report.seconds.matching.toFixed(1)} s` +
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
    `time per match: p50 ${report.p50_ms.toFixed(2)} ms, p95 ${report.p95_ms.toFixed(2)} ms`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

const CURVE = [0.99, 0.98, 0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pairs: { type: 'string' }, provider: { type: 'string' }, 'per-set': { type: 'string' }, json: { type: 'string' },
      'embedding-cache': { type: 'string' }, model: { type: 'string' },
    },
  });
  if (!values.pairs) throw new Error(USAGE);
  const perSet = values['per-set'] === undefined ? null : Number(values['per-set']);
  if (perSet !== null && !(Number.isInteger(perSet) && perSet > 0)) throw new Error(`--per-set must be a positive integer; ${USAGE}`);
  if (values.model !== undefined && values.model !== 'shipped') throw new Error(`--model takes only "shipped"; ${USAGE}`);
  const all = readPairs(values.pairs);
  const pairs = perSet === null ? all : samplePerSet(all, perSet);
  const labels = labelsOf(all);
  await withMatchedRun({ pairs, provider: values.provider, embeddingCache: values['embedding-cache'] }, (run, matcher) => {
    const reports = [reportOf(`matcher ${matcher.name} alone: auto-link ${matcher.band.autoLink}, review band from ${matcher.band.review}`, run, run.conversations.map((c) => c.band), labels)];
    const shipped = pairModelFor(matcher.name);
    let curve: ReturnType<typeof linkCurve> = [];
    if (values.model === 'shipped') {
      if (!shipped) throw new Error(`no pair classifier is shipped for ${matcher.name}`);
      const outcomes = run.conversations.map((c) => ({ ...c.pair, ...textsOf(run, decidePair(shipped, c.report, c.shortlist)) }));
      reports.push(reportOf(`pair classifier as shipped (${shipped.matcher}): auto-link from p ${shipped.auto_link}, review from p ${shipped.review}`, run, outcomes, labels));
    } else {
      const held = heldOut(examplesOf(run, labels), labels);
      curve = linkCurve(held.predicted, labels, CURVE);
      const chosen = held.thresholds.map((t) => `${t.auto_link}/${t.review}`).join(', ');
      reports.push(reportOf(`pair classifier, held-out folds of ${FOLDS}-fold cross-validation grouped by text (auto-link/review thresholds per fold: ${chosen})`, run, held.outcomes, labels));
    }
    for (const report of reports) print(report);
    if (curve.length > 0) printCurve(curve);
    if (values.json) writeFileSync(values.json, `${JSON.stringify({ reports, curve }, null, 2)}\n`);
  });
}

/** A pair classifier's decision as the evaluation judges it: the issues' texts. */
function textsOf(run: MatchedRun, decision: PairDecision): Pick<TriageOutcome, 'linked' | 'possible'> {
  const text = (id: string) => run.issueTexts.get(id)!;
  return { linked: decision.link && text(decision.link.id), possible: decision.possible.map((p) => text(p.id)) };
}

function printCurve(curve: ReturnType<typeof linkCurve>): void {
  const out = [
    'held-out precision-recall of the auto-link, by probability threshold', '',
    '| probability | links | link precision | link recall |', '|---:|---:|---:|---:|',
    ...curve.map((p) => `| ${p.threshold} | ${p.links} | ${fixed(p.link_precision)} | ${fixed(p.link_recall)} |`),
  ];
  process.stdout.write(`\n${out.join('\n')}\n`);
}

await main();
