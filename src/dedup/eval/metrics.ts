// Precision, recall and F1 of labelled pair decisions, per set and overall.

export interface PairResult {
  set: string;
  label: 0 | 1;
  /** The detector's score for the pair (null when it gave none). */
  score: number | null;
  /** Whether the detector matched the pair at its operating point. */
  matched: boolean;
  ms: number;
}

export interface Quality {
  precision: number;
  recall: number;
  f1: number;
  n: number;
  positives: number;
}

/**
 * Quality of the predictions. Precision is 1 when nothing was matched: a matcher that merges
 * nothing merges nothing wrongly (its recall of 0 shows the cost).
 */
export function quality(results: readonly PairResult[], predicted: (r: PairResult) => boolean): Quality {
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (const r of results) {
    if (r.label === 1) positives++;
    if (predicted(r)) {
      if (r.label === 1) tp++;
      else fp++;
    }
  }
  return qualityOf({ predicted: tp + fp, right: tp, found: tp, positives, n: results.length });
}

/**
 * Quality from counts: `right` of the `predicted` were correct, and `found` of the `positives`
 * (of `n` cases) were among them. The two differ when one case can be predicted wrongly and
 * found elsewhere (triage links a conversation to some issue, the pair names one). Precision is 1
 * when nothing was predicted (see quality).
 */
export function qualityOf({ predicted, right, found, positives, n }: { predicted: number; right: number; found: number; positives: number; n: number }): Quality {
  const precision = predicted === 0 ? 1 : right / predicted;
  const recall = positives === 0 ? 0 : found / positives;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, n, positives };
}

export const atThreshold = (threshold: number) => (r: PairResult) => r.score !== null && r.score >= threshold;

export function bySet<T extends { set: string }>(results: readonly T[]): Map<string, T[]> {
  const sets = new Map<string, T[]>();
  for (const r of [...results].sort((a, b) => a.set.localeCompare(b.set))) {
    const list = sets.get(r.set) ?? [];
    list.push(r);
    sets.set(r.set, list);
  }
  return sets;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * The lowest threshold (0.005 steps) from which every higher one keeps precision ≥ target on
 * every listed set: the safest operating point with the most recall.
 */
export function lowestSafeThreshold(sets: readonly PairResult[][], target: number): number | null {
  let safe: number | null = null;
  for (let step = 200; step >= 0; step--) {
    const threshold = step / 200;
    if (!sets.every((set) => quality(set, atThreshold(threshold)).precision >= target)) break;
    safe = threshold;
  }
  return safe;
}

/**
 * The precision–recall curve at one recall: the best precision of any threshold whose recall
 * reaches `recall` (interpolated precision); 0 when no threshold reaches it.
 */
export function precisionAtRecall(results: readonly PairResult[], recall: number): number {
  const scored = results.filter((r) => r.score !== null).sort((a, b) => b.score! - a.score!);
  const positives = results.filter((r) => r.label === 1).length;
  let best = 0;
  let tp = 0;
  for (let i = 0; i < scored.length; i++) {
    if (scored[i].label === 1) tp++;
    // Only between distinct scores: a threshold takes all pairs of equal score or none.
    if (i + 1 < scored.length && scored[i + 1].score === scored[i].score) continue;
    if (positives > 0 && tp / positives >= recall) best = Math.max(best, tp / (i + 1));
  }
  return best;
}

/** The highest threshold (0.005 steps) at which recall reaches `target`; null when none does. */
export function highestThresholdWithRecall(results: readonly PairResult[], target: number): number | null {
  for (let step = 200; step >= 0; step--) {
    if (quality(results, atThreshold(step / 200)).recall >= target) return step / 200;
  }
  return null;
}
