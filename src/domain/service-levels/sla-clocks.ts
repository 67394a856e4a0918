// The SLA clocks of conversations (docs/service-levels.md, "Applied to conversations"), driven by
// the conversations' write path (src/domain/conversations/conversation.writes.ts), which calls in
// here on every create, message and change, under the conversation's lock. Each run of a clock is a
// row: started by the rule of its target, due by the applied policy's target in its calendar,
// stopped (hit or missed) by its rule; the conversation's `sla_*` columns are recomputed from the
// rows after every change of them, so a summary shows the SLA without reading the clocks.
import { Temporal } from 'temporal-polyfill';
import type { CalendarRepository } from '../../db/repositories/service-levels/calendar.repository.js';
import type { DueClock, SlaClockRepository, SlaClockRow, SlaColumns } from '../../db/repositories/service-levels/sla-clock.repository.js';
import type { SlaPolicyRepository, SlaPolicyRow } from '../../db/repositories/service-levels/sla-policy.repository.js';
import type { ConversationRow } from '../../db/repositories/conversation.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { MessageRow } from '../../db/repositories/message.repository.js';
import { newId } from '../../lib/ids.js';
import type { ConversationSource, ConversationType, Priority } from '../shared/enums.js';
import { sharedRead, type Work } from '../shared/unit-of-work.js';
import { parseTags } from '../tags/tags.js';
import { addBusinessSeconds, type Schedule } from './business-time.js';
import { clockValuesOf, scheduleOfCalendar, type ClockMeasures } from './clock-values.js';
import { applicablePolicy, type SlaConditions } from './policy-match.js';

export const SLA_TARGETS = ['first_response', 'next_response', 'resolution'] as const;
export type SlaTarget = (typeof SLA_TARGETS)[number];
export const SLA_STATUSES = ['active', 'hit', 'missed'] as const;
export type SlaStatus = (typeof SLA_STATUSES)[number];

const SECONDS_OF = { first_response: 'first_response_seconds', next_response: 'next_response_seconds', resolution: 'resolution_seconds' } as const;
const RESPONSE_TARGETS: readonly string[] = ['first_response', 'next_response'];
const CLOSED: readonly string[] = ['resolved', 'dismissed'];

/** No SLA: what a conversation no policy matches carries. */
export const NO_SLA: SlaColumns = {
  sla_policy_id: null, sla_first_response_due_at: null, sla_next_response_due_at: null, sla_resolution_due_at: null,
  sla_breaches: '[]', sla_status: null, sla_due_at: null,
};

/** A policy with its calendar ready: what due times are computed by. */
interface Measure {
  policy: SlaPolicyRow | null;
  /** null: round the clock. */
  schedule: Schedule | null;
}

const NO_MEASURE: Measure = { policy: null, schedule: null };

/** What a write to a conversation is, for its clocks. */
type Subject = Pick<ConversationRow, 'id' | 'workspace_id' | 'product_id' | 'priority' | 'type' | 'source' | 'tags' | 'status' | 'sla_policy_id'>;

function dueOf({ policy, schedule }: Measure, target: SlaTarget, startedAt: string): string | null {
  const seconds = policy?.[SECONDS_OF[target]] ?? null;
  if (seconds === null) return null;
  if (schedule === null) return new Date(Date.parse(startedAt) + seconds * 1000).toISOString();
  const due = addBusinessSeconds(schedule, Temporal.Instant.from(startedAt), seconds);
  return due && new Date(due.epochMilliseconds).toISOString();
}

/** Applies `change` to each running clock in turn (one statement at a time in the transaction); the clocks as they are after. */
async function eachRunning(clocks: readonly SlaClockRow[], change: (clock: SlaClockRow) => Promise<SlaClockRow>): Promise<SlaClockRow[]> {
  const after: SlaClockRow[] = [];
  for (const clock of clocks) after.push(clock.stopped_at === null ? await change(clock) : clock);
  return after;
}

/** How a stopped clock did: missed once breached or stopped after its due time, else hit; none without a due time. */
const outcomeOf = (clock: SlaClockRow, at: string): 'hit' | 'missed' | null =>
  clock.due_at === null ? null : clock.breached_at !== null || Date.parse(at) > Date.parse(clock.due_at) ? 'missed' : 'hit';

/** The conversation's SLA columns from its clocks (oldest first) under the policy that applies. */
export function slaColumnsOf(policyId: string | null, clocks: readonly SlaClockRow[]): SlaColumns {
  if (policyId === null) return NO_SLA;
  const latestDue = (target: SlaTarget) => clocks.filter((clock) => clock.target === target).at(-1)?.due_at ?? null;
  const running = clocks.filter((clock) => clock.stopped_at === null && clock.due_at !== null).map((clock) => clock.due_at!);
  const breached = clocks.filter((clock) => clock.breached_at !== null).sort((x, y) => Date.parse(x.breached_at!) - Date.parse(y.breached_at!));
  // Nothing to judge yet (no clock with a due time has started) reads as active: the promise stands.
  const started = clocks.some((clock) => clock.due_at !== null);
  const status: SlaStatus = running.length > 0 || !started ? 'active' : clocks.some((clock) => clock.outcome === 'missed') ? 'missed' : 'hit';
  return {
    sla_policy_id: policyId,
    sla_first_response_due_at: latestDue('first_response'),
    sla_next_response_due_at: latestDue('next_response'),
    sla_resolution_due_at: latestDue('resolution'),
    sla_breaches: JSON.stringify([...new Set(breached.map((clock) => clock.target))]),
    sla_status: status,
    sla_due_at: running.sort((x, y) => Date.parse(x) - Date.parse(y))[0] ?? null,
  };
}

export interface SlaClocksDeps {
  slaClocks: SlaClockRepository;
  slaPolicies: Pick<SlaPolicyRepository, 'listActive' | 'findById'>;
  calendars: Pick<CalendarRepository, 'findById'>;
  /** What a stopped clock measured, for the reports (docs/reports.md). */
  measures: ClockMeasures;
}

export function createSlaClocks({ slaClocks, slaPolicies, calendars, measures }: SlaClocksDeps) {
  const measureOf = async (workspaceId: string, policy: SlaPolicyRow | null, tx: Executor): Promise<Measure> => {
    if (policy === null || policy.calendar_id === null) return { policy, schedule: null };
    const calendar = await calendars.findById(workspaceId, policy.calendar_id, tx);
    return { policy, schedule: calendar ? scheduleOfCalendar(calendar) : null };
  };

  /** The policy the conversation's policy id names now (a deleted one measures nothing more). */
  const appliedMeasure = async (subject: Pick<Subject, 'workspace_id' | 'sla_policy_id'>, tx: Executor): Promise<Measure> =>
    subject.sla_policy_id === null ? NO_MEASURE : measureOf(subject.workspace_id, (await slaPolicies.findById(subject.workspace_id, subject.sla_policy_id, tx)) ?? null, tx);

  /** The policy the conversation's fields choose now (the active policies read once per transaction sharing its reads: policies are written elsewhere). */
  const chosenMeasure = async (work: Work, subject: Subject): Promise<Measure> => {
    const { tx } = work;
    const policies = await sharedRead(work, `sla-policies:${subject.workspace_id}`, () => slaPolicies.listActive(subject.workspace_id, tx));
    const ranked = policies.map((row) => ({ row, active: true, position: row.position, created_at: row.created_at, conditions: JSON.parse(row.conditions) as SlaConditions }));
    const chosen = applicablePolicy(ranked, {
      product_id: subject.product_id, priority: subject.priority as Priority, type: subject.type as ConversationType,
      source: subject.source as ConversationSource, tags: parseTags(subject.tags),
    });
    return measureOf(subject.workspace_id, chosen?.row ?? null, tx);
  };

  const newClock = (subject: Pick<Subject, 'id' | 'workspace_id'>, measure: Measure, target: SlaTarget, at: string): SlaClockRow => ({
    id: newId(), workspace_id: subject.workspace_id, conversation_id: subject.id, target, policy_id: measure.policy?.id ?? null,
    started_at: at, due_at: dueOf(measure, target, at), stopped_at: null, outcome: null, breached_at: null,
    value_seconds: null, business_seconds: null, answered_by: null,
  });

  /**
   * Stops a running clock at `at`: by its rule (a reply by `answeredBy`, or the closing for the
   * resolution clock), which measures it for the reports, or by the conversation's closing, which
   * judges only a breached response clock and measures nothing (nobody answered).
   */
  const stop = async (tx: Executor, clock: SlaClockRow, at: string, byRule: boolean, answeredBy: string | null = null): Promise<SlaClockRow> => {
    const outcome = byRule || clock.breached_at !== null ? outcomeOf(clock, at) : null;
    const values = byRule ? clockValuesOf(clock.started_at, at, await measures.scheduleFor(clock.workspace_id, clock.policy_id, tx)) : null;
    const changes = { stopped_at: at, outcome, value_seconds: values?.value_seconds ?? null, business_seconds: values?.business_seconds ?? null, answered_by: answeredBy };
    await slaClocks.update(clock.workspace_id, clock.id, changes, tx);
    return { ...clock, ...changes };
  };

  const refresh = async (tx: Executor, subject: Pick<Subject, 'id' | 'workspace_id'>, policyId: string | null): Promise<SlaColumns> => {
    const columns = slaColumnsOf(policyId, await slaClocks.listOfConversation(subject.workspace_id, subject.id, tx));
    await slaClocks.setConversationSla(subject.workspace_id, subject.id, columns, tx);
    return columns;
  };

  return {
    /**
     * A new conversation's SLA (written with its row) and its first clocks (started once it is in):
     * the contact's first message starts first response and resolution.
     */
    async opened(work: Work, conversation: Subject, first: MessageRow | null): Promise<{ columns: SlaColumns; start: () => Promise<void> }> {
      const measure = await chosenMeasure(work, conversation);
      const clocks = first?.sender_type === 'contact'
        ? [newClock(conversation, measure, 'first_response', first.created_at), newClock(conversation, measure, 'resolution', first.created_at)]
        : [];
      return { columns: slaColumnsOf(measure.policy?.id ?? null, clocks), start: () => slaClocks.insert(clocks, work.tx) };
    },

    /**
     * A message: a contact's that starts a wait starts a response clock (first response if none ran
     * yet, else next response), and the resolution clock if none ever ran; an agent's reply stops
     * the running response clock. Notes and system messages (announcements) do nothing.
     */
    async messageAdded(work: Work, conversation: Subject, message: MessageRow, wait: 'asks' | 'answers' | 'none'): Promise<void> {
      // A closed conversation starts no clock: a contact writing into it reopens it first (or it stays closed).
      if (wait === 'none' || (wait === 'asks' && CLOSED.includes(conversation.status))) return;
      const { tx } = work;
      const clocks = await slaClocks.listOfConversation(conversation.workspace_id, conversation.id, tx);
      const responding = clocks.find((clock) => clock.stopped_at === null && RESPONSE_TARGETS.includes(clock.target));
      if (wait === 'answers') {
        if (!responding) return;
        await stop(tx, responding, message.created_at, true, message.sender_id);
      } else {
        const started: SlaClockRow[] = [];
        const measure = await appliedMeasure(conversation, tx);
        if (!responding) {
          started.push(newClock(conversation, measure, clocks.some((clock) => clock.target === 'first_response') ? 'next_response' : 'first_response', message.created_at));
        }
        if (!clocks.some((clock) => clock.target === 'resolution')) {
          started.push(newClock(conversation, measure, 'resolution', message.created_at));
        }
        if (started.length === 0) return;
        await slaClocks.insert(started, tx);
      }
      await refresh(tx, conversation, conversation.sla_policy_id);
    },

    /**
     * A change of the conversation (`next`, written at `at`): a change of its product, priority,
     * type or tags chooses its policy again (running clocks are measured by the new one from their
     * start); closing stops every running clock; reopening starts the resolution clock anew. The
     * new SLA columns, or null when its SLA did not change.
     */
    async changed(work: Work, current: Subject, next: Subject, at: string): Promise<SlaColumns | null> {
      const { tx } = work;
      const rechoose = (['product_id', 'priority', 'type', 'tags'] as const).some((field) => current[field] !== next[field]);
      const closing = CLOSED.includes(next.status) && !CLOSED.includes(current.status);
      const reopening = CLOSED.includes(current.status) && !CLOSED.includes(next.status);
      if (!rechoose && !closing && !reopening) return null;
      // Chosen before the clocks are read: a change that keeps the policy (most) reads no clock.
      const measure = rechoose ? await chosenMeasure(work, next) : null;
      if (measure && (measure.policy?.id ?? null) === current.sla_policy_id && !closing && !reopening) return null;
      let clocks = await slaClocks.listOfConversation(current.workspace_id, current.id, tx);
      if (measure) {
        const policyId = measure.policy?.id ?? null;
        clocks = await eachRunning(clocks, async (clock) => {
          if (clock.policy_id === policyId) return clock;
          const changes = { policy_id: policyId, due_at: dueOf(measure, clock.target as SlaTarget, clock.started_at) };
          await slaClocks.update(clock.workspace_id, clock.id, changes, tx);
          return { ...clock, ...changes };
        });
      }
      if (closing) clocks = await eachRunning(clocks, (clock) => stop(tx, clock, at, clock.target === 'resolution'));
      if (reopening && clocks.some((clock) => clock.target === 'resolution')) {
        await slaClocks.insert([newClock(next, measure ?? (await appliedMeasure(current, tx)), 'resolution', at)], tx);
      }
      return refresh(tx, current, measure ? measure.policy?.id ?? null : current.sla_policy_id);
    },

    /**
     * Records a due clock's breach at `now` when it still runs unbreached (the claim: on PostgreSQL
     * one transaction of all the processes' marks it); what breached, with the conversation's new
     * SLA columns, or null when there was nothing to record.
     */
    async breach(work: Work, due: DueClock, now: string): Promise<{ target: SlaTarget; due_at: string } | null> {
      const { tx } = work;
      if (!(await slaClocks.claimBreach(due.workspace_id, due.id, now, tx))) return null;
      const clocks = await slaClocks.listOfConversation(due.workspace_id, due.conversation_id, tx);
      const clock = clocks.find((row) => row.id === due.id)!;
      await refresh(tx, { id: due.conversation_id, workspace_id: due.workspace_id }, clock.policy_id);
      return { target: clock.target as SlaTarget, due_at: clock.due_at! };
    },
  };
}

export type SlaClocks = ReturnType<typeof createSlaClocks>;
