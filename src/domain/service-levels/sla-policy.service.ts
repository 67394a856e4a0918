// SLA policies (docs/service-levels.md): the targets a team promises, for the conversations their
// conditions match, measured in a calendar or round the clock. They are tried in `position` order,
// 1 … n in the workspace with no gaps: a new policy goes to the end unless it asks for a place,
// a move (PATCH position) shifts the policies between its old and new places by one, a delete closes
// the gap. Every write takes the workspace's policy lock, so positions stay a permutation.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import type { CalendarRepository } from '../../db/repositories/service-levels/calendar.repository.js';
import type { SlaPolicyChanges, SlaPolicyRepository, SlaPolicyRow } from '../../db/repositories/service-levels/sla-policy.repository.js';
import { AppError, checkAll, invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { requireSettingsRole } from '../accounts/roles.js';
import { changesBetween, type AuditLog } from '../audit/audit-log.js';
import { effectiveChanges } from '../shared/changes.js';
import { orderedPositions } from '../shared/positions.js';
import { holdLock, inTransaction, type Work } from '../shared/unit-of-work.js';
import { normalizeTags } from '../tags/tags.js';
import { calendarLock } from './calendar.service.js';
import type { SlaConditions } from './policy-match.js';

export const SLA_POLICY_NAME_MAX = 200;
/** The most items one condition list holds. */
export const CONDITION_ITEMS_MAX = 100;

const TARGETS = ['first_response_seconds', 'next_response_seconds', 'resolution_seconds'] as const;
type Target = (typeof TARGETS)[number];

export interface SlaPolicy {
  id: string;
  name: string;
  position: number;
  active: boolean;
  conditions: SlaConditions;
  first_response_seconds: number | null;
  next_response_seconds: number | null;
  resolution_seconds: number | null;
  calendar_id: string | null;
  created_at: string;
  updated_at: string;
}

export type SlaPolicyInput = { name: string; position?: number; active?: boolean; conditions?: SlaConditions; calendar_id?: string | null } &
  Partial<Record<Target, number | null>>;

export const toSlaPolicy = (row: SlaPolicyRow): SlaPolicy => ({
  id: row.id, name: row.name, position: row.position, active: Number(row.active) === 1,
  conditions: JSON.parse(row.conditions) as SlaConditions,
  first_response_seconds: row.first_response_seconds, next_response_seconds: row.next_response_seconds, resolution_seconds: row.resolution_seconds,
  calendar_id: row.calendar_id, created_at: row.created_at, updated_at: row.updated_at,
});

const targetsOf = (input: Partial<Record<Target, number | null>>) =>
  Object.fromEntries(TARGETS.map((target) => [target, input[target] ?? null])) as Record<Target, number | null>;

/** The workspace's policy lock: positions change only under it. */
const policiesLock = (workspaceId: string) => `sla_policies:${workspaceId}`;

const distinct = <T>(items: readonly T[]): T[] => [...new Set(items)];


export interface SlaPolicyServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  slaPolicies: SlaPolicyRepository;
  calendars: Pick<CalendarRepository, 'findById'>;
  products: Pick<ProductRepository, 'findById'>;
  audit: AuditLog;
  clock: Clock;
}

export function createSlaPolicyService({ db, dialect, slaPolicies, calendars, products, audit, clock }: SlaPolicyServiceDeps) {
  const positions = orderedPositions(slaPolicies);
  async function find(actor: Actor, id: string, tx: Executor = db): Promise<SlaPolicyRow> {
    const policyId = parseUuid(id);
    const row = policyId ? await slaPolicies.findById(actor.workspaceId, policyId, tx) : undefined;
    if (!row) throw notFound('SLA policy');
    return row;
  }

  /** The conditions as stored: each list without duplicates, empty ones left out, products of this workspace. */
  async function checkConditions(actor: Actor, conditions: SlaConditions): Promise<string> {
    const productIds = distinct((conditions.product_ids ?? []).map((id) => id.toLowerCase()));
    const strangers = [];
    for (const id of productIds) if (!(await products.findById(actor.workspaceId, id))) strangers.push(id);
    if (strangers.length > 0) throw invalidField('conditions.product_ids', `not products of this workspace: ${strangers.join(', ')}`);
    const lists: SlaConditions = {
      product_ids: productIds,
      priorities: distinct(conditions.priorities ?? []),
      types: distinct(conditions.types ?? []),
      sources: distinct(conditions.sources ?? []),
      tags: normalizeTags(conditions.tags ?? [], 'conditions.tags'),
    };
    return JSON.stringify(Object.fromEntries(Object.entries(lists).filter(([, list]) => list.length > 0)));
  }

  /** Refers to a calendar of this workspace, under its lock (so that it cannot be deleted before this commits). */
  async function checkCalendar(actor: Actor, work: Work, id: string | null): Promise<void> {
    if (id === null) return;
    await holdLock(dialect, work, calendarLock(id));
    if (!(await calendars.findById(actor.workspaceId, id, work.tx))) throw invalidField('calendar_id', 'is not a calendar of this workspace');
  }

  function requireTarget(policy: Pick<SlaPolicyRow, Target>): void {
    if (TARGETS.some((target) => policy[target] !== null)) return;
    const message = `give at least one of: ${TARGETS.join(', ')} (not null): a policy needs a target`;
    throw new AppError('validation_error', message, { fields: Object.fromEntries(TARGETS.map((target) => [target, message])) });
  }

  /** The calendar id as stored (lowercase), or null; a string that is no UUID never names a calendar. */
  function calendarIdOf(id: string | null): string | null {
    if (id === null) return null;
    const calendarId = parseUuid(id);
    if (!calendarId) throw invalidField('calendar_id', 'is not a calendar of this workspace');
    return calendarId;
  }

  return {
    /** Creating, changing and deleting policies: owners, admins and keys without a member (403 otherwise). */
    authorizeWrite(actor: Actor): void {
      requireSettingsRole(actor, 'changes to SLA policies');
    },

    /** Throws not_found unless the policy exists in the actor's workspace. */
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await find(actor, id);
    },

    get: async (actor: Actor, id: string): Promise<SlaPolicy> => toSlaPolicy(await find(actor, id)),

    async list(actor: Actor, page: Page): Promise<PageOf<SlaPolicy>> {
      const { rows, total } = await slaPolicies.list(actor.workspaceId, page);
      return { rows: rows.map(toSlaPolicy), total };
    },

    async create(actor: Actor, input: SlaPolicyInput): Promise<SlaPolicy> {
      const [conditions, calendarId] = await checkAll([
        () => checkConditions(actor, input.conditions ?? {}),
        () => calendarIdOf(input.calendar_id ?? null),
        () => requireTarget(targetsOf(input)),
      ] as const);
      return inTransaction(db, async (work) => {
        await holdLock(dialect, work, policiesLock(actor.workspaceId));
        await checkCalendar(actor, work, calendarId);
        const position = await positions.makeRoom(actor.workspaceId, input.position, work.tx);
        const now = clock.now();
        const row: SlaPolicyRow = {
          id: newId(), workspace_id: actor.workspaceId, name: input.name, position, active: input.active === false ? 0 : 1, conditions,
          ...targetsOf(input), calendar_id: calendarId, created_at: now, updated_at: now,
        };
        await slaPolicies.insert(row, work.tx);
        await audit.record(work, { actor, action: 'sla_policy.created', target_type: 'sla_policy', target_id: row.id });
        return toSlaPolicy(row);
      });
    },

    /** Only the fields given; updated_at moves only when something changes. A move shifts the policies in between. */
    async update(actor: Actor, id: string, input: Partial<SlaPolicyInput>): Promise<SlaPolicy> {
      const { id: policyId } = await find(actor, id);
      const [conditions, calendarId] = await checkAll([
        () => (input.conditions === undefined ? undefined : checkConditions(actor, input.conditions)),
        () => (input.calendar_id === undefined ? undefined : calendarIdOf(input.calendar_id)),
      ] as const);
      return inTransaction(db, async (work) => {
        await holdLock(dialect, work, policiesLock(actor.workspaceId));
        const current = await find(actor, policyId, work.tx);
        const changes: SlaPolicyChanges | null = effectiveChanges<SlaPolicyChanges>(current, {
          name: input.name, conditions, calendar_id: calendarId,
          position: await positions.target(actor.workspaceId, input.position, work.tx),
          active: input.active === undefined ? undefined : input.active ? 1 : 0,
          first_response_seconds: input.first_response_seconds, next_response_seconds: input.next_response_seconds, resolution_seconds: input.resolution_seconds,
        });
        if (!changes) return toSlaPolicy(current);
        requireTarget({ ...current, ...changes });
        if (changes.calendar_id !== undefined) await checkCalendar(actor, work, changes.calendar_id);
        await positions.move(actor.workspaceId, current.position, changes.position, work.tx);
        changes.updated_at = clock.now();
        await slaPolicies.update(actor.workspaceId, policyId, changes, work.tx);
        const updated = toSlaPolicy({ ...current, ...changes });
        await audit.record(work, { actor, action: 'sla_policy.updated', target_type: 'sla_policy', target_id: policyId, changes: changesBetween(toSlaPolicy(current), updated) });
        return updated;
      });
    },

    /** Deletes it; the policies after it move up one place. */
    async remove(actor: Actor, id: string): Promise<void> {
      await inTransaction(db, async (work) => {
        await holdLock(dialect, work, policiesLock(actor.workspaceId));
        const { id: policyId, position } = await find(actor, id, work.tx);
        const count = await slaPolicies.count(actor.workspaceId, work.tx);
        await slaPolicies.delete(actor.workspaceId, policyId, work.tx);
        await positions.closeGap(actor.workspaceId, position, count, work.tx);
        await audit.record(work, { actor, action: 'sla_policy.deleted', target_type: 'sla_policy', target_id: policyId });
      });
    },
  };
}

export type SlaPolicyService = ReturnType<typeof createSlaPolicyService>;
