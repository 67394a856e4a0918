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

    /**
     * Counts a run of each rule of `ids` (a rule listed twice ran twice): `runs` up by as many,
     * `last_run_at` now (updated_at stays: a run is no edit). One statement per number of runs.
     */
    async recordRuns(workspaceId: string, ids: readonly string[], at: string, tx: Executor = db): Promise<void> {
      const runsOf = new Map<string, number>();
      for (const id of ids) runsOf.set(id, (runsOf.get(id) ?? 0) + 1);
      for (const runs of new Set(runsOf.values())) {
        await tx.updateTable('automation_rules')
          .set((eb) => ({ runs: eb('runs', '+', runs), last_run_at: at }))
          .where('workspace_id', '=', workspaceId).where('id', 'in', [...runsOf].filter(([, count]) => count === runs).map(([id]) => id))
          .execute();
      }
    },

    /** The workspace's active rules, in order (a process's rule cache reads them when the version moved). */
    active(workspaceId: string, tx: Executor = db): Promise<AutomationRuleRow[]> {
      return inWorkspace(tx, workspaceId).select(RULE_COLUMNS).where('active', '=', 1)
        .orderBy('position').orderBy('created_at').orderBy('id')
        .execute();
    },

    /** The version of each workspace's rule set among `workspaceIds` (0 for one whose rules were never written). */
    async versions(workspaceIds: readonly string[], tx: Executor = db): Promise<Map<string, number>> {
      const rows = await tx.selectFrom('automation_rule_versions').select(['workspace_id', 'version']).where('workspace_id', 'in', workspaceIds).execute();
      return new Map(workspaceIds.map((id) => [id, Number(rows.find((row) => row.workspace_id === id)?.version ?? 0)]));
    },

    /** Moves the workspace's rule-set version: in every transaction that writes its rules. */
    async bumpVersion(workspaceId: string, tx: Executor): Promise<void> {
      await tx.insertInto('automation_rule_versions').values({ workspace_id: workspaceId, version: 1 })
        .onConflict((conflict) => conflict.column('workspace_id').doUpdateSet((eb) => ({ version: eb('automation_rule_versions.version', '+', 1) })))
        .execute();
    },
  };
}

export type AutomationRuleRepository = ReturnType<typeof automationRuleRepository>;
