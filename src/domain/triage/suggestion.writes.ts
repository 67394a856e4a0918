// Every write of a suggestion goes through here (a triage run making one, an accept, a dismiss, a
// re-run dismissing the open ones, a link or an issue made from the conversation ending them), so
// each records its event in its transaction.
import type { Dialect } from '../../db/dialect.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { IssueRepository } from '../../db/repositories/issue.repository.js';
import type { SuggestionChanges, SuggestionRepository, SuggestionRow } from '../../db/repositories/suggestion.repository.js';
import type { Outbox } from '../../events/outbox.js';
import type { Clock } from '../../lib/clock.js';
import { holdLock, type Work } from '../shared/unit-of-work.js';
import { issueIdsOf, toSuggestion, type Suggestion } from './suggestion.shapes.js';

/**
 * Serializes what a conversation's suggestions depend on: its triage runs, accepts and dismisses,
 * and the links that end them. Taken before any issue or product lock.
 */
export const triageLock = (conversationId: string) => `triage:${conversationId}`;

export interface SuggestionWritesDeps {
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  suggestions: Pick<SuggestionRepository, 'insert' | 'update' | 'openOfConversation'>;
  issues: Pick<IssueRepository, 'findManyByIds'>;
  outbox: Outbox;
  clock: Clock;
}

/** The fields of `after` whose values differ from `before`, with their old values: an `*.updated` event's `previous`. */
const changedFields = (before: Suggestion, after: Suggestion): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(before).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(after[field as keyof Suggestion])),
  );

export function createSuggestionWrites({ dialect, suggestions, issues, outbox, clock }: SuggestionWritesDeps) {
  /** The suggestions as the API shows them, with the issues they name read in one query. */
  async function shown(workspaceId: string, rows: readonly SuggestionRow[], tx: Executor): Promise<Suggestion[]> {
    const ids = [...new Set(rows.flatMap(issueIdsOf))];
    const found = new Map((await issues.findManyByIds(workspaceId, ids, tx)).map((issue) => [issue.id, issue]));
    return rows.map((row) => toSuggestion(row, found));
  }

  /** Writes the changes (updated_at among them) of a suggestion read in the same transaction. */
  async function update(work: Work, current: SuggestionRow, changes: SuggestionChanges): Promise<Suggestion> {
    await suggestions.update(current.workspace_id, current.id, changes, work.tx);
    const [before, after] = await shown(current.workspace_id, [current, { ...current, ...changes }], work.tx);
    await outbox.record(work, { type: 'suggestion.updated', workspaceId: current.workspace_id, data: after!, previous: changedFields(before!, after!) });
    return after!;
  }

  return {
    shown,
    update,

    /**
     * Dismisses the conversation's open suggestions (all but `keepId`, the one being accepted),
     * under the conversation's triage lock: a re-run, or the team linking the conversation to an
     * issue or making one from it, which settles what the suggestions proposed.
     */
    async endOpen(work: Work, workspaceId: string, conversationId: string, keepId?: string): Promise<void> {
      await holdLock(dialect, work, triageLock(conversationId));
      for (const open of await suggestions.openOfConversation(workspaceId, conversationId, work.tx)) {
        if (open.id !== keepId) await update(work, open, { status: 'dismissed', updated_at: clock.now() });
      }
    },

    async create(work: Work, row: SuggestionRow): Promise<Suggestion> {
      await suggestions.insert(row, work.tx);
      const [suggestion] = await shown(row.workspace_id, [row], work.tx);
      await outbox.record(work, { type: 'suggestion.created', workspaceId: row.workspace_id, data: suggestion! });
      return suggestion!;
    },
  };
}

export type SuggestionWrites = ReturnType<typeof createSuggestionWrites>;
