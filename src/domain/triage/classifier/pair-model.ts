// The pair classifier: logistic regression over the features of a (conversation, candidate) pair,
// shipped as JSON per matcher (`models/`, written by `npm run train:triage`), and the decision it
// makes over a matcher's shortlist: link to the most probable candidate from the calibrated
// threshold up, else offer the candidates from the review threshold up.
import { featuresOf, signalsOf, type FeatureName, type RankedScore, type TextSignals } from './features.js';
import { POSSIBLE_DUPLICATES } from '../../../dedup/thresholds.js';

/** Figures of the held-out folds of the cross-validation the thresholds were chosen by (docs/triage.md). */
export interface PublishedFigures {
  link_precision: number;
  link_recall: number;
  review_precision: number;
  review_recall: number;
  /** Conversations (development pairs) they were measured on, and the folds. */
  conversations: number;
  folds: number;
}

export interface PairModel {
  /** Which matcher's scores it was trained on: `lexical` or an embedding model's family. */
  matcher: string;
  features: FeatureName[];
  /** Each feature is standardized ((x − mean) / scale) before its weight applies. */
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** Probability from which the best candidate is linked (calibrated for link precision ≥ 0.9). */
  auto_link: number;
  /** Probability from which a candidate is offered as a possible duplicate. */
  review: number;
  published: PublishedFigures;
}

/** A candidate of the matcher's shortlist, best score first, with the text it is matched on. */
export interface ShortlistedText extends RankedScore {
  id: string;
  text: string;
}

export interface Judged {
  id: string;
  probability: number;
}

export interface PairDecision {
  /** The candidate to link, at or above the model's auto-link probability. */
  link: Judged | null;
  /** When nothing is linked: candidates at or above the review probability, most probable first (at most POSSIBLE_DUPLICATES). */
  possible: Judged[];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The probability that the pair with these features is a duplicate. */
export function probabilityOf(model: Pick<PairModel, 'features' | 'mean' | 'scale' | 'weights' | 'bias'>, features: Record<FeatureName, number>): number {
  let z = model.bias;
  for (const [i, name] of model.features.entries()) z += model.weights[i] * ((features[name] - model.mean[i]) / model.scale[i]);
  return sigmoid(z);
}

/** Every shortlisted candidate's probability, in shortlist order. */
export function probabilities(model: PairModel, report: TextSignals | string, shortlist: readonly ShortlistedText[]): number[] {
  const signals = typeof report === 'string' ? signalsOf(report) : report;
  return shortlist.map((candidate, at) => probabilityOf(model, featuresOf(signals, signalsOf(candidate.text), shortlist, at)));
}

/** The decision over probabilities given in shortlist order; `thresholds` default to the model's. */
export function decideBy(ids: readonly string[], probability: readonly number[], thresholds: { auto_link: number; review: number }): PairDecision {
  const judged = ids.map((id, i) => ({ id, probability: probability[i] })).sort((a, b) => b.probability - a.probability);
  const [best] = judged;
  if (best && best.probability >= thresholds.auto_link) return { link: best, possible: [] };
  return { link: null, possible: judged.filter((j) => j.probability >= thresholds.review).slice(0, POSSIBLE_DUPLICATES) };
}

export function decidePair(model: PairModel, report: string, shortlist: readonly ShortlistedText[]): PairDecision {
  return decideBy(shortlist.map((c) => c.id), probabilities(model, report, shortlist), model);
}
