// Triage's decision over a match: the pair classifier of the matcher that matched, when one is
// calibrated for it, decides among the matcher's shortlist; otherwise the matcher's own
// thresholds and review band decide, as for POST /issues/maybe.
import type { IssueText } from '../../../dedup/detector.js';
import { issueText } from '../../../dedup/text.js';
import { reportText } from './features.js';
import type { Match, ScoredIssue } from '../../issues/issue-matcher.js';
import { pairModelFor } from './calibration.js';
import { decidePair } from './pair-model.js';

export interface TriageDecision extends Pick<Match, 'matched' | 'score' | 'possible'> {
  /** Whether the link (if any) was decided at a calibrated threshold: only then may `auto` accept it. */
  calibrated: boolean;
}

/** `report`: the conversation's title and first message; `matcher`: the name of the matcher that matched. */
export function triageDecision(match: Match, report: IssueText, matcher: string): TriageDecision {
  const model = pairModelFor(matcher);
  if (!model || match.shortlist.length === 0) return { matched: match.matched, score: match.score, possible: match.possible, calibrated: false };
  const decision = decidePair(model, reportText(report), match.shortlist.map(({ issue, score, cosine }) => ({ id: issue.id, text: issueText(issue), score, cosine })));
  const scored = (id: string): ScoredIssue => match.shortlist.find(({ issue }) => issue.id === id)!;
  return {
    matched: decision.link && scored(decision.link.id).issue,
    score: match.score,
    possible: decision.possible.map(({ id }) => scored(id)),
    calibrated: true,
  };
}
