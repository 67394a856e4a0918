// `npm run train:triage -- --pairs FILE [--provider P] [--embedding-cache DIR]`: trains the pair
// classifier of one matcher on labelled pairs (docs/triage.md, "The pair classifier") and writes
// it to src/domain/triage/classifier/models/: logistic regression over the features of each
// conversation's shortlist, fitted on every pair, its thresholds chosen on out-of-fold predictions,
// and the figures of a nested cross-validation grouped by text published with it. Deterministic:
// the same pairs and matcher give the same file.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readPairs } from '../../../dedup/eval/pairs.js';
import { examplesOf, figuresOf, FOLDS, heldOut, labelsOf, shippedModel } from './cross-validation.js';
import { withMatchedRun } from './triage-eval.js';

const USAGE = 'usage: npm run train:triage -- --pairs FILE [--provider lexical|openai|local] [--embedding-cache DIR]';

/** The model's family, named by the matcher: its file name under models/. */
function familyOf(matcher: string, embeddingModel: string | null): string {
  if (embeddingModel === null) return matcher;
  if (/multilingual-e5-small/.test(embeddingModel)) return 'multilingual-e5-small';
  throw new Error(`no pair classifier family for ${matcher}: add one to train-triage.ts and calibration.ts`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pairs: { type: 'string' }, provider: { type: 'string' }, 'embedding-cache': { type: 'string' } } });
  if (!values.pairs) throw new Error(USAGE);
  const pairs = readPairs(values.pairs);
  const labels = labelsOf(pairs);
  await withMatchedRun({ pairs, provider: values.provider, embeddingCache: values['embedding-cache'] }, (run, matcher) => {
    const examples = examplesOf(run, labels);
    const figures = figuresOf(heldOut(examples, labels).outcomes, labels);
    const family = familyOf(matcher.name, matcher.embeddingModel);
    const model = shippedModel(family, examples, labels, {
      link_precision: figures.link_precision, link_recall: figures.link_recall,
      review_precision: figures.review_precision, review_recall: figures.review_recall,
      conversations: examples.length, folds: FOLDS,
    });
    const file = new URL(`../classifier/models/${family}.json`, import.meta.url);
    writeFileSync(file, `${JSON.stringify(model, null, 2)}\n`);
    process.stdout.write(`${matcher.name}: wrote ${file.pathname}\nheld-out folds: ${JSON.stringify(model.published)}\nthresholds: auto-link ${model.auto_link}, review ${model.review}\n`);
  });
}

await main();
