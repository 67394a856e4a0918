// Every write of a suggestion goes through here (a triage run making one, an accept, a dismiss, a
// re-run dismissing the open ones), so each records its event in its transaction.
import type { Executor } from '../../db/repositories/executor.js';
import type { IssueRepository } from '../../db/repositories/issue.repository.js';
import type { SuggestionChanges, SuggestionRepository, SuggestionRow } from '../../db/repositories/suggestion.repository.js';
import type { Outbox } from '../../events/outbox.js';
import type { Work } from '../shared/unit-of-work.js';
import { issueIdsOf, toSuggestion, type Suggestion } from './suggestion.shapes.js';

export interface SuggestionWritesDeps {
  suggestions: Pick<SuggestionRepository, 'insert' | 'update'>;
  issues: Pick<IssueRepository, 'findManyByIds'>;
  outbox: Outbox;
}

/** The fields of `after` whose values differ from `before`, with their old values: an `*.updated` event's `previous`. */
const changedFields = (before: Suggestion, after: Suggestion): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(before).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(after[field as keyof Suggestion])),
  );

export function createSuggestionWrites({ suggestions, issues, outbox }: SuggestionWritesDeps) {
  /** The suggestions as the API shows them, with the issues they name read in one query. */
  async function shown(workspaceId: string, rows: readonly SuggestionRow[], tx: Executor): Promise<Suggestion[]> {
    const ids = [...new Set(rows.flatMap(issueIdsOf))];
    const found = new Map((await issues.findManyByIds(workspaceId, ids, tx)).map((issue) => [issue.id, issue]));
    return rows.map((row) => toSuggestion(row, found));
  }

  return {
    shown,

    async create(work: Work, row: SuggestionRow): Promise<Suggestion> {
      await suggestions.insert(row, work.tx);
      const [suggestion] = await shown(row.workspace_id, [row], work.tx);
      await outbox.record(work, { type: 'suggestion.created', workspaceId: row.workspace_id, data: suggestion! });
      return suggestion!;
    },

    /** Writes the changes (updated_at among them) of a suggestion read in the same transaction. */
    async update(work: Work, current: SuggestionRow, changes: SuggestionChanges): Promise<Suggestion> {
      await suggestions.update(current.workspace_id, current.id, changes, work.tx);
      const [before, after] = await shown(current.workspace_id, [current, { ...current, ...changes }], work.tx);
      await outbox.record(work, { type: 'suggestion.updated', workspaceId: current.workspace_id, data: after!, previous: changedFields(before!, after!) });
      return after!;
    },
  };
}

export type SuggestionWrites = ReturnType<typeof createSuggestionWrites>;
