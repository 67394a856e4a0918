// Training the pair classifier and choosing its thresholds by cross-validation grouped by text
// (docs/triage.md, "The pair classifier"): pairs that share a text (a CIKM question in several
// pairs, a PAWS-X sentence in its language's set and a cross-language one) are one group, and a
// group's conversations are all in one fold, so no text is ever on both sides. The figures
// reported are those of the held-out folds, each decided by a model and thresholds chosen without it.
import { createHash } from 'node:crypto';
import type { Pair } from '../../../dedup/eval/pairs.js';
import { featuresOf, FEATURE_NAMES, signalsOf, type FeatureName } from '../classifier/features.js';
import { decideBy, probabilityOf, type PairModel, type PublishedFigures } from '../classifier/pair-model.js';
import { fitLogistic } from './logistic.js';
import type { MatchedConversation, MatchedRun, TriageOutcome } from './triage-eval.js';

/**
 * Labels of (issue text, conversation text) pairs, in both orders: a pair labels a duplicate either
 * way. A text is a duplicate of itself: the sets repeat texts across pairs (a CIKM question in
 * several pairs, a PAWS-X sentence in its language's set and in a cross-language one), so a
 * conversation may meet its own text as another pair's issue.
 */
export type Labels = Map<string, 0 | 1>;
export const labelKey = (a: string, b: string) => `${a}\u0000${b}`;

export function labelsOf(pairs: readonly Pair[]): Labels {
  const labels: Labels = new Map();
  for (const { a, b, label } of pairs) {
    // A text pair labelled both ways (rare) counts as a duplicate.
    for (const key of [labelKey(a, b), labelKey(b, a)]) labels.set(key, labels.get(key) === 1 ? 1 : label);
    for (const text of [a, b]) labels.set(labelKey(text, text), 1);
  }
  return labels;
}

export const FOLDS = 5;
/** The seed of the fold assignment: changing it reshuffles the groups among the folds. */
export const SEED = 'loopdesk-triage-1';
/** What the thresholds are chosen for, on predictions of models that did not see the conversations. */
export const LINK_PRECISION_TARGET = 0.9;
export const REVIEW_PRECISION_TARGET = 0.35;
/**
 * Chosen on the training folds' own held-out predictions, a threshold lands a little lower on new
 * conversations; aiming this much higher keeps the held-out folds at the target.
 */
const MARGIN = 0.02;
const GRID = Array.from({ length: 200 }, (_, i) => (200 - i) / 200);

/** A conversation ready for training: its candidates' features and labels (1: the pairs call it a duplicate). */
export interface Example {
  conversation: MatchedConversation;
  /** The issue text of each shortlisted candidate (as the pairs have it, for the labels). */
  issues: string[];
  features: number[][];
  labels: (0 | 1)[];
  fold: number;
}

/** Fold of each text group: a group is the texts joined by pairs; its fold a hash of its smallest text and the seed. */
function foldsOf(pairs: readonly Pair[], folds: number, seed: string): Map<string, number> {
  const parent = new Map<string, string>();
  const root = (text: string): string => {
    let at = text;
    while (parent.get(at) !== undefined && parent.get(at) !== at) at = parent.get(at)!;
    parent.set(text, at);
    return at;
  };
  for (const { a, b } of pairs) {
    for (const text of [a, b]) if (!parent.has(text)) parent.set(text, text);
    const [ra, rb] = [root(a), root(b)];
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const fold = new Map<string, number>();
  for (const text of parent.keys()) {
    const group = root(text);
    fold.set(text, createHash('sha256').update(`${seed}\u0000${group}`).digest().readUInt32BE(0) % folds);
  }
  return fold;
}

export function examplesOf(run: MatchedRun, labels: Labels, features: readonly FeatureName[] = FEATURE_NAMES, folds = FOLDS, seed = SEED): Example[] {
  const foldOf = foldsOf(run.conversations.map((c) => c.pair), folds, seed);
  return run.conversations.map((conversation) => {
    const report = signalsOf(conversation.report);
    const issues = conversation.shortlist.map((c) => run.issueTexts.get(c.id)!);
    return {
      conversation, issues, fold: foldOf.get(conversation.pair.b)!,
      features: conversation.shortlist.map((candidate, at) => {
        const all = featuresOf(report, signalsOf(candidate.text), conversation.shortlist, at);
        return features.map((name) => all[name]);
      }),
      labels: issues.map((issue) => (labels.get(labelKey(issue, conversation.pair.b)) === 1 ? 1 : 0)),
    };
  });
}

type Weights = Pick<PairModel, 'features' | 'mean' | 'scale' | 'weights' | 'bias'>;

function fit(examples: readonly Example[], features: readonly FeatureName[]): Weights {
  const xs = examples.flatMap((e) => e.features);
  const ys = examples.flatMap((e) => e.labels);
  return { features: [...features], ...fitLogistic(xs, ys) };
}

const probabilitiesOf = (model: Weights, example: Example): number[] =>
  example.features.map((x) => probabilityOf(model, Object.fromEntries(model.features.map((name, i) => [name, x[i]])) as Record<FeatureName, number>));

export interface Predicted {
  example: Example;
  probabilities: number[];
}

/** What triage suggests for a conversation at these thresholds, as the evaluation judges it. */
export function outcomeOf({ example, probabilities }: Predicted, thresholds: { auto_link: number; review: number }): TriageOutcome {
  const { conversation, issues } = example;
  const ids = conversation.shortlist.map((c) => c.id);
  const decision = decideBy(ids, probabilities, thresholds);
  const text = (id: string) => issues[ids.indexOf(id)];
  return { ...conversation.pair, linked: decision.link && text(decision.link.id), possible: decision.possible.map((p) => text(p.id)) };
}

/** Link and review precision and recall of outcomes (labels: every pair's). */
export function figuresOf(outcomes: readonly TriageOutcome[], labels: Labels) {
  let links = 0;
  let rightLinks = 0;
  let offers = 0;
  let rightOffers = 0;
  let linkedPairs = 0;
  let offeredPairs = 0;
  let duplicates = 0;
  for (const o of outcomes) {
    const offered = o.linked !== null ? [o.linked] : o.possible;
    const right = (issue: string) => labels.get(labelKey(issue, o.b)) === 1;
    if (o.linked !== null) {
      links++;
      if (right(o.linked)) rightLinks++;
    }
    offers += offered.length;
    rightOffers += offered.filter(right).length;
    if (o.label === 1) {
      duplicates++;
      if (o.linked === o.a) linkedPairs++;
      if (offered.includes(o.a)) offeredPairs++;
    }
  }
  const ratio = (a: number, b: number, empty: number) => (b === 0 ? empty : a / b);
  return {
    link_precision: ratio(rightLinks, links, 1), link_recall: ratio(linkedPairs, duplicates, 0), links,
    review_precision: ratio(rightOffers, offers, 1), review_recall: ratio(offeredPairs, duplicates, 0), offers,
  };
}

/**
 * The thresholds for predictions of held-out conversations: auto-link, the lowest probability from
 * which every higher one keeps link precision at the target (plus the margin); review, the lowest
 * from which review precision stays at its target (plus the margin), never above auto-link.
 */
export function chooseThresholds(predicted: readonly Predicted[], labels: Labels, margin = MARGIN): { auto_link: number; review: number } {
  let autoLink = 1;
  for (const t of GRID) {
    if (figuresOf(predicted.map((p) => outcomeOf(p, { auto_link: t, review: 1 })), labels).link_precision < LINK_PRECISION_TARGET + margin) break;
    autoLink = t;
  }
  let review = autoLink;
  for (const t of GRID.filter((g) => g <= autoLink)) {
    if (figuresOf(predicted.map((p) => outcomeOf(p, { auto_link: autoLink, review: t })), labels).review_precision < REVIEW_PRECISION_TARGET + margin) break;
    review = t;
  }
  return { auto_link: autoLink, review };
}

/** Out-of-fold predictions: each fold's conversations scored by a model fitted on the other folds. */
function outOfFold(examples: readonly Example[], features: readonly FeatureName[]): Predicted[] {
  const folds = [...new Set(examples.map((e) => e.fold))].sort();
  return folds.flatMap((fold) => {
    const model = fit(examples.filter((e) => e.fold !== fold), features);
    return examples.filter((e) => e.fold === fold).map((example) => ({ example, probabilities: probabilitiesOf(model, example) }));
  });
}

/**
 * Nested cross-validation: for each fold, thresholds chosen on the out-of-fold predictions of the
 * other folds and a model fitted on them decide the fold's conversations. Answers those held-out outcomes.
 */
export function heldOut(examples: readonly Example[], labels: Labels, features: readonly FeatureName[] = FEATURE_NAMES) {
  const folds = [...new Set(examples.map((e) => e.fold))].sort();
  const outcomes: TriageOutcome[] = [];
  const predicted: Predicted[] = [];
  const thresholds: { auto_link: number; review: number }[] = [];
  for (const fold of folds) {
    const training = examples.filter((e) => e.fold !== fold);
    const chosen = chooseThresholds(outOfFold(training, features), labels);
    const model = fit(training, features);
    thresholds.push(chosen);
    for (const example of examples.filter((e) => e.fold === fold)) {
      const scored = { example, probabilities: probabilitiesOf(model, example) };
      predicted.push(scored);
      outcomes.push(outcomeOf(scored, chosen));
    }
  }
  return { outcomes, predicted, thresholds };
}

/** The held-out precision–recall curve of the auto-link: link precision and recall at each probability threshold. */
export function linkCurve(predicted: readonly Predicted[], labels: Labels, thresholds: readonly number[]) {
  return thresholds.map((t) => ({ threshold: t, ...figuresOf(predicted.map((p) => outcomeOf(p, { auto_link: t, review: 1 })), labels) }));
}

/** The model to ship: fitted on every conversation, its thresholds chosen on the out-of-fold predictions of all folds. */
export function shippedModel(matcher: string, examples: readonly Example[], labels: Labels, published: PublishedFigures, features: readonly FeatureName[] = FEATURE_NAMES): PairModel {
  const thresholds = chooseThresholds(outOfFold(examples, features), labels);
  const round = (n: number) => Number(n.toPrecision(8));
  const weights = fit(examples, features);
  return {
    matcher, features: weights.features, mean: weights.mean.map(round), scale: weights.scale.map(round), weights: weights.weights.map(round),
    bias: round(weights.bias), ...thresholds, published,
  };
}
