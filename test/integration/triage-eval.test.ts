// `npm run eval:triage` (docs/triage.md, "Evaluation"): end to end with the lexical matcher, on six
// pairs whose outcomes the lexical scores decide, and on a few pairs of each dev set when
// LOOPDESK_DEV_PAIRS names them (shared data, never in the repository; skipped loudly without it).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { RUN_TYPESCRIPT } from '../helpers/typescript.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const DEV_PAIRS = process.env.LOOPDESK_DEV_PAIRS;

const CSV = 'Exporting a report to CSV crashes the app';
const DARK_MODE = 'Dark mode toggle does nothing on Android';
/** set, text_a (the open issue), text_b (the conversation), label. */
const PAIRS: [string, string, string, 0 | 1][] = [
  ['support', CSV, CSV, 1], // the same text: a link to its issue
  ['support', 'Invoice PDF shows the wrong currency', 'The invoice PDF shows the wrong currency symbol', 1], // review band
  ['support', 'Password reset email never arrives', DARK_MODE, 0], // links to the issue of its own text (another pair's)
  ['support', CSV, 'Exporting a report to PDF crashes the app', 0], // a wrong link to its pair's issue
  ['support', 'Checkout button does nothing on Android', 'When I tap the checkout button on my Android phone nothing happens at all', 1], // missed
  ['support', DARK_MODE, CSV, 0], // links to the issue of its own text
];

async function evalTriage(pairsFile: string, json: string, ...args: string[]) {
  const { stdout } = await run(
    process.execPath,
    [...RUN_TYPESCRIPT, 'src/domain/triage/eval/eval-triage.ts', '--pairs', pairsFile, '--provider', 'lexical', '--json', json, ...args],
    { cwd: root, timeout: 120_000 },
  );
  // The first report is the matcher's own band; the second the pair classifier's.
  const { reports } = JSON.parse(readFileSync(json, 'utf8'));
  return { stdout, report: reports[0], classifier: reports[1] };
}

/** The report's lines, in the shape docs/triage.md shows. */
function assertReportShape(stdout: string, sets: string[]) {
  const metric = String.raw`\d\.\d{3}`;
  assert.match(stdout, /^matcher lexical alone: auto-link 0\.82, review band from 0\.43$/m);
  assert.match(stdout, /^backlog: \d+ open issues in one product; \d+ conversations matched in [\d.]+ s$/m);
  assert.match(stdout, /^\| set \| pairs \| duplicates \| links \| link precision \| link recall \| offers \| review precision \| review recall \|$/m);
  for (const set of [...sets, 'overall']) {
    assert.match(stdout, new RegExp(String.raw`^\| ${set} \| \d+ \| \d+ \| \d+ \| ${metric} \| ${metric} \| \d+ \| ${metric} \| ${metric} \|$`, 'm'), set);
  }
  assert.match(stdout, /^\| label \| conversations \| linked to pair issue \| linked to another issue \| pair issue a possible duplicate \| pair issue not offered \|$/m);
  assert.match(stdout, /^\| 1 \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \|$/m);
  assert.match(stdout, /^\| 0 \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \|$/m);
  assert.match(stdout, /^links: \d+ \(right \d+, labelled not a duplicate \d+, unlabelled \d+\)$/m);
  assert.match(stdout, /^offers \(links and possible duplicates\): \d+ \(right \d+, labelled not a duplicate \d+, unlabelled \d+\)$/m);
  assert.match(stdout, /^time per match: p50 [\d.]+ ms, p95 [\d.]+ ms$/m);
}

describe('npm run eval:triage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loopdesk-eval-triage-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('puts every pair\'s issue in one backlog, triages each conversation once, and judges links and offers by the labels', async () => {
    const file = join(dir, 'pairs.tsv');
    writeFileSync(file, ['set\ttext_a\ttext_b\tlabel', ...PAIRS.map((pair) => pair.join('\t'))].join('\n'));
    const { stdout, report, classifier } = await evalTriage(file, join(dir, 'six.json'), '--model', 'shipped');
    assertReportShape(stdout, ['support']);
    assert.equal(report.backlog_open_issues, 5, 'each distinct issue text once');
    assert.equal(report.conversations, 6);
    assert.deepEqual(report.confusion, {
      label_1: { conversations: 3, linked_to_pair_issue: 1, linked_to_another_issue: 0, pair_issue_a_possible_duplicate: 1, pair_issue_not_offered: 1 },
      label_0: { conversations: 3, linked_to_pair_issue: 1, linked_to_another_issue: 2, pair_issue_a_possible_duplicate: 0, pair_issue_not_offered: 0 },
    });
    // Links: CSV twice and Dark mode to their own texts (right), PDF to CSV (labelled 0).
    assert.deepEqual(report.overall.links, { right: 3, wrong: 1, unlabelled: 0 });
    assert.deepEqual(report.overall.offers, { right: 4, wrong: 1, unlabelled: 0 });
    assert.deepEqual(
      { link: [report.overall.link.precision, report.overall.link.recall], review: [report.overall.review.precision, report.overall.review.recall] },
      { link: [3 / 4, 1 / 3], review: [4 / 5, 2 / 3] },
    );
    assert.match(stdout, /^\| overall \| 6 \| 3 \| 4 \| 0\.750 \| 0\.333 \| 5 \| 0\.800 \| 0\.667 \|$/m);
    // The shipped pair classifier links the repeats to their own texts and leaves "PDF" for "CSV" unlinked.
    assert.match(stdout, /^pair classifier as shipped \(lexical\): auto-link from p [\d.]+, review from p [\d.]+$/m);
    assert.deepEqual(classifier.overall.links, { right: 3, wrong: 0, unlabelled: 0 });
  });

  it('runs on a sample of each dev set and prints the documented report', async (t) => {
    if (!DEV_PAIRS) {
      process.stderr.write(`\n${'*'.repeat(88)}\n*** WARNING: LOOPDESK_DEV_PAIRS is not set: the dev-pairs sample of eval:triage is SKIPPED.\n${'*'.repeat(88)}\n\n`);
      t.skip('LOOPDESK_DEV_PAIRS is not set');
      return;
    }
    const { stdout, report, classifier } = await evalTriage(DEV_PAIRS, join(dir, 'sample.json'), '--per-set', '20');
    assert.match(stdout, /^pair classifier, held-out folds of 5-fold cross-validation grouped by text/m);
    assert.equal(classifier.conversations, report.conversations);
    const sets = Object.keys(report.sets);
    assert.ok(sets.length > 0);
    assertReportShape(stdout, sets);
    assert.equal(report.conversations, 20 * sets.length);
    assert.ok(report.backlog_open_issues > 0 && report.backlog_open_issues <= report.conversations);
    const { label_1: duplicates, label_0: others } = report.confusion;
    assert.equal(duplicates.conversations + others.conversations, report.conversations);
    for (const counts of [duplicates, others]) {
      const { conversations, ...outcomes } = counts;
      assert.equal(Object.values(outcomes).reduce((sum: number, n) => sum + (n as number), 0), conversations, 'every conversation has one outcome');
    }
  });
});
