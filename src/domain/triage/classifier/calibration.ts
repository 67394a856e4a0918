// Which pair classifier decides for which matcher. Each model was trained on that matcher's
// shortlists of the development pairs and calibrated for it (`npm run train:triage`); a matcher
// without one (an embedding model never measured, or an LLM judge deciding) has no calibrated
// auto-link, so triage in `auto` leaves its link suggestions for a person (docs/triage.md).
import lexical from './models/lexical.json' with { type: 'json' };
import type { PairModel } from './pair-model.js';

/** Matcher names (as GET /readyz reports them), first match wins. */
const MODELS: readonly [RegExp, PairModel][] = [
  [/^lexical$/, lexical as PairModel],
];

export function pairModelFor(matcher: string): PairModel | null {
  return MODELS.find(([pattern]) => pattern.test(matcher))?.[1] ?? null;
}
