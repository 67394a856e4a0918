// Automation rules (migration 0037), in the order they run: position, then created_at.
import { findInWorkspace } from '../compiled-query.js';
import type { Executor, Page, PageOf } from '../executor.js';
import { countRows, readPage, type ListOrder } from '../paging.js';
import { positionShifter } from '../positions.js';
import type { AutomationRuleTable } from '../../schema.js';

const RULE_COLUMNS = [
  'id', 'workspace_id', 'name', 'active', 'position', 'event', 'conditions', 'actions', 'runs', 'last_run_at', 'created_at', 'updated_at',
] as const;

const POSITION_ORDER: ListOrder = [['position', 'asc'], ['created_at', 'asc'], ['id', 'asc']];

export type AutomationRuleRow = AutomationRuleTable;
export type AutomationRuleChanges = Partial<Pick<AutomationRuleTable, 'name' | 'active' | 'position' | 'event' | 'conditions' | 'actions' | 'updated_at'>>;

/** Which rules listen to an event: its workspace's active ones for its type, in order. */
export type ListeningRule = Pick<AutomationRuleTable, 'id' | 'workspace_id' | 'event'>;

export function automationRuleRepository(db: Executor) {
  const inWorkspace = (tx: Executor, workspaceId: string) => tx.selectFrom('automation_rules').where('workspace_id', '=', workspaceId);

  return {
    async insert(row: AutomationRuleRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('automation_rules').values(row).execute();
    },

    findById: findInWorkspace<AutomationRuleRow>(db, 'automation_rules', RULE_COLUMNS),

    list(workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<AutomationRuleRow>> {
      const scoped = inWorkspace(tx, workspaceId);
      return readPage(POSITION_ORDER, page, () => countRows(scoped), (read) => read.sliced(scoped).select(RULE_COLUMNS).execute());
    },

    count: (workspaceId: string, tx: Executor = db): Promise<number> => countRows(inWorkspace(tx, workspaceId)),

    /** Moves the rules at positions `from`…`to` (inclusive) by `by` places. */
    shift: positionShifter('automation_rules', db),

    async update(workspaceId: string, id: string, changes: AutomationRuleChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('automation_rules').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('automation_rules').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Counts a run: `runs` up by one, `last_run_at` now (updated_at stays: a run is no edit). */
    async recordRun(workspaceId: string, id: string, at: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('automation_rules')
        .set((eb) => ({ runs: eb('runs', '+', 1), last_run_at: at }))
        .where('workspace_id', '=', workspaceId).where('id', '=', id)
        .execute();
    },

    /** The workspace's rules among `ids` (a job's, read once for all of them). */
    byIds(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<AutomationRuleRow[]> {
      return ids.length === 0 ? Promise.resolve([]) : inWorkspace(tx, workspaceId).select(RULE_COLUMNS).where('id', 'in', ids).execute();
    },

    /** The active rules of these workspaces listening to any of `events`, in each workspace's order. */
    listening(workspaceIds: readonly string[], events: readonly string[], tx: Executor = db): Promise<ListeningRule[]> {
      return tx.selectFrom('automation_rules')
        .select(['id', 'workspace_id', 'event'])
        .where('workspace_id', 'in', workspaceIds).where('event', 'in', events).where('active', '=', 1)
        .orderBy('workspace_id').orderBy('position').orderBy('created_at').orderBy('id')
        .execute();
    },
  };
}

export type AutomationRuleRepository = ReturnType<typeof automationRuleRepository>;
