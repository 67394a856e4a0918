// Operating thresholds, chosen with `npm run eval:dedup` on the development pairs (see
// docs/dedup.md). LOOPDESK_DEDUP_THRESHOLD overrides them for a model not listed here.

/** Lexical score (0..1): the dev pairs keep precision ≥ 0.95 on every CIKM set from 0.80 up; a CIKM negative scores 0.80, hence the margin. */
export const LEXICAL_THRESHOLD = 0.82;

/**
 * Cosine similarity per embedding model. e5 models place unrelated texts around 0.7–0.8 and
 * paraphrases above 0.9; the value needs confirming with the real model (docs/dedup.md).
 */
const EMBEDDING_THRESHOLDS: Record<string, number> = {
  'Xenova/multilingual-e5-small': 0.9,
  'Xenova/multilingual-e5-base': 0.9,
  'text-embedding-3-small': 0.7,
  'text-embedding-3-large': 0.7,
};

/** For embedding models not listed: cautious, since a wrong merge hides a report. */
const DEFAULT_EMBEDDING_THRESHOLD = 0.9;

export function embeddingThreshold(model: string): number {
  return EMBEDDING_THRESHOLDS[model] ?? DEFAULT_EMBEDDING_THRESHOLD;
}

/** With an LLM judge, candidates below this cosine are not worth asking about. */
export const JUDGE_FLOOR_MARGIN = 0.1;

/** How many of the best candidates the judge sees. */
export const JUDGE_CANDIDATES = 5;
