// From a matcher's best candidates to a Decision: the best is merged from the auto-link
// threshold up; otherwise those of the review band are reported as possible duplicates.
import type { Decision } from './detector.js';
import { POSSIBLE_DUPLICATES, SHORTLIST, type Band } from './thresholds.js';

export interface ScoredCandidate {
  id: string;
  score: number;
  /** An embedding matcher's cosine, when its score adds a bonus to it. */
  cosine?: number;
}

/**
 * `ranked`: the best candidates, best first (at least SHORTLIST of them when there are that many).
 * The decision carries the first SHORTLIST of them for triage's pair classifier.
 */
export function decisionIn(band: Band, ranked: readonly ScoredCandidate[]): Decision {
  const [best] = ranked;
  if (!best) return { issueId: null, score: null };
  const shortlist = ranked.slice(0, SHORTLIST).map(({ id, score, cosine }) => ({ issueId: id, score, ...(cosine === undefined ? {} : { cosine }) }));
  if (best.score >= band.autoLink) return { issueId: best.id, score: best.score, shortlist };
  return { issueId: null, score: best.score, possible: possibleIn(band, ranked), shortlist };
}

/** The candidates of the review band, best first, at most POSSIBLE_DUPLICATES. */
export const possibleIn = (band: Band, ranked: readonly ScoredCandidate[]) =>
  ranked
    .filter((c) => c.score >= band.review && c.score < band.autoLink)
    .slice(0, POSSIBLE_DUPLICATES)
    .map((c) => ({ issueId: c.id, score: c.score }));
