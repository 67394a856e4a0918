// What the API shows of a suggestion, mapped from its row and the issues it names; shared by the
// triage service, which reads suggestions, and the suggestion writes, whose events carry them.
import type { IssueRow } from '../../db/repositories/issue.repository.js';
import type { SuggestionRow } from '../../db/repositories/suggestion.repository.js';
import type { IssueStatus, Priority, SuggestionKind, SuggestionStatus } from '../shared/enums.js';

/** An issue as a suggestion names it (the API's `IssueBase`). */
export interface IssueBrief {
  id: string;
  shortcode: string;
  title: string;
  status: IssueStatus;
  priority: Priority;
}

export interface Suggestion {
  id: string;
  conversation_id: string;
  kind: SuggestionKind;
  status: SuggestionStatus;
  /** The link target, or the issue an accepted create made. */
  issue: IssueBrief | null;
  title: string | null;
  description: string | null;
  priority: Priority | null;
  score: number | null;
  possible_duplicates: { issue: IssueBrief; score: number }[];
  created_at: string;
  updated_at: string;
}

/** As stored in suggestions.possible_duplicates. */
export interface StoredDuplicate {
  issue_id: string;
  score: number;
}

export const toIssueBrief = (row: Pick<IssueRow, 'id' | 'shortcode' | 'title' | 'status' | 'priority'>): IssueBrief => ({
  id: row.id, shortcode: row.shortcode, title: row.title, status: row.status as IssueStatus, priority: row.priority as Priority,
});

export const storedDuplicates = (row: Pick<SuggestionRow, 'possible_duplicates'>): StoredDuplicate[] => JSON.parse(row.possible_duplicates);

/** The issues a suggestion names: its own and its possible duplicates'. */
export const issueIdsOf = (row: SuggestionRow): string[] => [
  ...(row.issue_id === null ? [] : [row.issue_id]),
  ...storedDuplicates(row).map((duplicate) => duplicate.issue_id),
];

/** The suggestion with the issues it names as they are now (`issues` holds them, by id; issues are never deleted). */
export function toSuggestion(row: SuggestionRow, issues: ReadonlyMap<string, IssueRow>): Suggestion {
  const brief = (id: string) => toIssueBrief(issues.get(id)!);
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    kind: row.kind as SuggestionKind,
    status: row.status as SuggestionStatus,
    issue: row.issue_id === null ? null : brief(row.issue_id),
    title: row.title,
    description: row.description,
    priority: row.priority as Priority | null,
    score: row.score,
    possible_duplicates: storedDuplicates(row).map(({ issue_id, score }) => ({ issue: brief(issue_id), score })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
