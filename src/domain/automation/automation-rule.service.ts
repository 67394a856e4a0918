// Automation rules (docs/automation.md): what happens to a conversation when an event of its
// happens. The settings role writes them; everyone reads them. They run in `position` order,
// 1 … n in the workspace with no gaps: a new rule goes to the end unless it asks for a place, a
// move shifts the rules between its old and new places by one, a delete closes the gap; every
// write takes the workspace's rule lock, so positions stay a permutation, and moves the workspace's
// rule-set version, which the processes' rule caches compare (src/events/rule-cache.ts).
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { AutomationRuleChanges, AutomationRuleRepository, AutomationRuleRow } from '../../db/repositories/automation/automation-rule.repository.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import { checkAll, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { requireSettingsRole } from '../accounts/roles.js';
import { changesBetween, type AuditLog } from '../audit/audit-log.js';
import { effectiveChanges } from '../shared/changes.js';
import { orderedPositions } from '../shared/positions.js';
import { holdLock, inTransaction } from '../shared/unit-of-work.js';
import type { Action, AutomationChecks, Condition, RuleEvent } from './automation-vocabulary.js';

export const RULE_NAME_MAX = 200;

export interface AutomationRule {
  id: string;
  name: string;
  active: boolean;
  position: number;
  event: RuleEvent;
  conditions: Condition[];
  actions: Action[];
  runs: number;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Conditions and actions arrive as plain objects: the vocabulary checks them item by item. */
export interface AutomationRuleInput {
  name: string;
  active?: boolean;
  position?: number;
  event: RuleEvent;
  conditions?: unknown[];
  actions: unknown[];
}

export const toAutomationRule = (row: AutomationRuleRow): AutomationRule => ({
  id: row.id, name: row.name, active: Number(row.active) === 1, position: row.position, event: row.event as RuleEvent,
  conditions: JSON.parse(row.conditions) as Condition[], actions: JSON.parse(row.actions) as Action[],
  runs: row.runs, last_run_at: row.last_run_at, created_at: row.created_at, updated_at: row.updated_at,
});

const rulesLock = (workspaceId: string) => `automation_rules:${workspaceId}`;


export interface AutomationRuleServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  automationRules: AutomationRuleRepository;
  checks: AutomationChecks;
  audit: AuditLog;
  clock: Clock;
}

export function createAutomationRuleService({ db, dialect, automationRules: rules, checks, audit, clock }: AutomationRuleServiceDeps) {
  const positions = orderedPositions(rules);
  async function find(actor: Actor, id: string, tx: Executor = db): Promise<AutomationRuleRow> {
    const ruleId = parseUuid(id);
    const row = ruleId ? await rules.findById(actor.workspaceId, ruleId, tx) : undefined;
    if (!row) throw notFound('automation rule');
    return row;
  }

  /** The checked conditions and actions as stored (each undefined when not given). */
  const checked = (actor: Actor, input: Partial<AutomationRuleInput>) =>
    checkAll([
      async () => (input.conditions === undefined ? undefined : JSON.stringify(await checks.conditions(actor.workspaceId, input.conditions))),
      async () => (input.actions === undefined ? undefined : JSON.stringify(await checks.actions(actor.workspaceId, input.actions))),
    ] as const);

  return {
    /** Creating, changing and deleting rules: owners, admins and keys without a member (403 otherwise). */
    authorizeWrite(actor: Actor): void {
      requireSettingsRole(actor, 'changes to automation rules');
    },

    async ensureExists(actor: Actor, id: string): Promise<void> {
      await find(actor, id);
    },

    get: async (actor: Actor, id: string): Promise<AutomationRule> => toAutomationRule(await find(actor, id)),

    async list(actor: Actor, page: Page): Promise<PageOf<AutomationRule>> {
      const { rows, total } = await rules.list(actor.workspaceId, page);
      return { rows: rows.map(toAutomationRule), total };
    },

    async create(actor: Actor, input: AutomationRuleInput): Promise<AutomationRule> {
      const [conditions, actions] = await checked(actor, { conditions: input.conditions ?? [], actions: input.actions });
      return inTransaction(db, async (work) => {
        await holdLock(dialect, work, rulesLock(actor.workspaceId));
        const position = await positions.makeRoom(actor.workspaceId, input.position, work.tx);
        const now = clock.now();
        const row: AutomationRuleRow = {
          id: newId(), workspace_id: actor.workspaceId, name: input.name, active: input.active === false ? 0 : 1, position, event: input.event,
          conditions: conditions!, actions: actions!, runs: 0, last_run_at: null, created_at: now, updated_at: now,
        };
        await rules.insert(row, work.tx);
        await rules.bumpVersion(actor.workspaceId, work.tx);
        await audit.record(work, { actor, action: 'automation_rule.created', target_type: 'automation_rule', target_id: row.id });
        return toAutomationRule(row);
      });
    },

    /** Only the fields given (`conditions` and `actions` replaced whole); updated_at moves only when something changes. */
    async update(actor: Actor, id: string, input: Partial<AutomationRuleInput>): Promise<AutomationRule> {
      const { id: ruleId } = await find(actor, id);
      const [conditions, actions] = await checked(actor, input);
      return inTransaction(db, async (work) => {
        await holdLock(dialect, work, rulesLock(actor.workspaceId));
        const current = await find(actor, ruleId, work.tx);
        const changes: AutomationRuleChanges | null = effectiveChanges<AutomationRuleChanges>(current, {
          name: input.name, event: input.event, conditions, actions,
          position: await positions.target(actor.workspaceId, input.position, work.tx),
          active: input.active === undefined ? undefined : input.active ? 1 : 0,
        });
        if (!changes) return toAutomationRule(current);
        await positions.move(actor.workspaceId, current.position, changes.position, work.tx);
        changes.updated_at = clock.now();
        await rules.update(actor.workspaceId, ruleId, changes, work.tx);
        await rules.bumpVersion(actor.workspaceId, work.tx);
        const updated = toAutomationRule({ ...current, ...changes });
        await audit.record(work, {
          actor, action: 'automation_rule.updated', target_type: 'automation_rule', target_id: ruleId, changes: changesBetween(toAutomationRule(current), updated),
        });
        return updated;
      });
    },

    /** Deletes it; the rules after it move up one place. Events already waiting skip it. */
    async remove(actor: Actor, id: string): Promise<void> {
      await inTransaction(db, async (work) => {
        await holdLock(dialect, work, rulesLock(actor.workspaceId));
        const { id: ruleId, position } = await find(actor, id, work.tx);
        const count = await rules.count(actor.workspaceId, work.tx);
        await rules.delete(actor.workspaceId, ruleId, work.tx);
        await positions.closeGap(actor.workspaceId, position, count, work.tx);
        await rules.bumpVersion(actor.workspaceId, work.tx);
        await audit.record(work, { actor, action: 'automation_rule.deleted', target_type: 'automation_rule', target_id: ruleId });
      });
    },
  };
}

export type AutomationRuleService = ReturnType<typeof createAutomationRuleService>;
