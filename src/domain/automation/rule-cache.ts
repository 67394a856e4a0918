// A process's copy of each workspace's active automation rules, parsed and compiled (docs/automation.md,
// "How rules run"). Every write of a workspace's rules moves its rule-set version in the same
// transaction (automation-rule.service.ts); a reader reads only that version, and the rules again
// when it moved. So a rule saved through any process is used by every process from its next job,
// and planning or running a job reads one number where it read the rules. The version is read
// before the rules: a write committed between the two leaves newer rules under the older number,
// which the next read finds changed and reloads (never older rules under a newer number).
import type { AutomationRuleRepository, AutomationRuleRow } from '../../db/repositories/automation/automation-rule.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import { assignsInTurn, type Action, type Condition, type RuleEvent } from './automation-vocabulary.js';
import { compileConditions, type CompiledConditions } from './conditions.js';

/** An active rule as the runner uses it. */
export interface CachedRule {
  readonly id: string;
  readonly name: string;
  readonly event: RuleEvent;
  readonly conditions: CompiledConditions;
  readonly actions: readonly Action[];
  /** Whether an action asks the product's assignment (its lock comes before the conversation's). */
  readonly assignsInTurn: boolean;
}

/** A workspace's active rules at one version: by id, and each event's in `position` order. */
export interface RuleSet {
  readonly version: number;
  readonly byId: ReadonlyMap<string, CachedRule>;
  readonly byEvent: ReadonlyMap<string, readonly CachedRule[]>;
}

/** Workspaces whose rules a process keeps at most (the least recently loaded go first). */
const WORKSPACES_KEPT = 1_000;

function ruleSetOf(version: number, rows: readonly AutomationRuleRow[]): RuleSet {
  const byEvent = new Map<string, CachedRule[]>();
  const byId = new Map<string, CachedRule>();
  for (const row of rows) {
    const actions = JSON.parse(row.actions) as Action[];
    const rule: CachedRule = {
      id: row.id, name: row.name, event: row.event as RuleEvent, actions, assignsInTurn: assignsInTurn(actions),
      conditions: compileConditions(JSON.parse(row.conditions) as Condition[]),
    };
    byId.set(rule.id, rule);
    byEvent.set(rule.event, [...(byEvent.get(rule.event) ?? []), rule]);
  }
  return { version, byId, byEvent };
}

export function createRuleCache(rules: Pick<AutomationRuleRepository, 'versions' | 'active'>) {
  const sets = new Map<string, RuleSet>();

  return {
    /** Each workspace's active rules as they stand in `tx`'s view: one read of the versions, the rules read again where one moved. */
    async current(workspaceIds: readonly string[], tx: Executor): Promise<Map<string, RuleSet>> {
      const versions = await rules.versions(workspaceIds, tx);
      const current = new Map<string, RuleSet>();
      for (const [workspaceId, version] of versions) {
        let set = sets.get(workspaceId);
        if (set?.version !== version) {
          set = ruleSetOf(version, await rules.active(workspaceId, tx));
          sets.delete(workspaceId);
          if (sets.size >= WORKSPACES_KEPT) sets.delete(sets.keys().next().value!);
          sets.set(workspaceId, set);
        }
        current.set(workspaceId, set);
      }
      return current;
    },
  };
}

export type RuleCache = ReturnType<typeof createRuleCache>;
