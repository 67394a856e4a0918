// The reports' reads (docs/reports.md): stopped SLA clocks (what each measured, migration 0038),
// messages and ratings in a window, each narrowed by the conversations' filters. Every read is a
// range of an index by workspace and time (test/integration/query-plans.test.ts); none reads the
// messages' text or replays a conversation.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../../dialect.js';
import type { Executor } from '../executor.js';
import type { Database } from '../../schema.js';
import { taggedIds } from '../tag.repository.js';
import { utcDayOf } from './report-days.js';

/** [from, to): the instants a report covers, canonical ISO strings. */
export interface ReportWindow {
  from: string;
  to: string;
}

/** The conversations a report counts (an absent or empty list does not filter). */
export interface ReportFilters {
  productId?: string;
  types?: readonly string[];
  sources?: readonly string[];
  tagKeys?: readonly string[];
  assigneeIds?: readonly string[];
  unassigned?: boolean;
}

/** Which of a stopped clock's values a report reads: round the clock, or in business hours. */
export type ClockValueColumn = 'value_seconds' | 'business_seconds';

export interface ClockTally {
  target: string;
  /** Clocks stopped with a value (answered, or resolved). */
  measured: number;
  total: number;
  /** The nearest-rank median and p90 of the measured values; null when none was measured. */
  median: number | null;
  p90: number | null;
  /** Clocks with a due time (an SLA target), and how they came out. */
  applied: number;
  hit: number;
  missed: number;
}

/** Measured values: how many, their total, and their nearest-rank median and p90. */
export interface MeasuredValues {
  measured: number;
  total: number;
  median: number;
  p90: number;
}

export interface ClockPoint {
  /** Epoch milliseconds. */
  at: number;
  value: number | null;
  outcome: string | null;
}

export interface CsvConversationRow {
  id: string;
  product: string;
  type: string;
  source: string;
  status: string;
  assignee: string | null;
  tags: string;
  created_at: string;
  rating: number | null;
  sla_status: string | null;
  first_response_seconds: number | null;
  resolution_seconds: number | null;
}

/**
 * The filters' conditions on a query over conversations (`c`), or over stopped clocks (`k`) or
 * messages (`m`), which carry their conversation's dimensions (report-dimensions.ts): every
 * filter is a condition on the row itself, the tag filter a set of conversation ids, so a filtered
 * report reads the window's rows and looks no conversation up.
 */
function narrowed<Q extends SelectQueryBuilder<any, any, any>>(tx: Executor, workspaceId: string, query: Q, alias: 'c' | 'k' | 'm', filters: ReportFilters): Q {
  const column = (name: string) => `${alias}.${name}`;
  let q = byProductTypeSource(query as SelectQueryBuilder<any, any, any>, column, filters);
  if (filters.tagKeys?.length) q = q.where(alias === 'c' ? 'c.id' : column('conversation_id'), 'in', taggedIds(tx, workspaceId, 'conversation', filters.tagKeys));
  const { assigneeIds = [], unassigned = false } = filters;
  if (assigneeIds.length || unassigned) {
    q = q.where((eb) => eb.or([
      ...(assigneeIds.length ? [eb(column('assignee_id'), 'in', assigneeIds)] : []),
      ...(unassigned ? [eb(column('assignee_id'), 'is', null)] : []),
    ]));
  }
  return q as Q;
}

/** The product, type and source filters, on the columns of those names (`column` gives each its alias). */
function byProductTypeSource(query: SelectQueryBuilder<any, any, any>, column: (name: string) => string, filters: ReportFilters) {
  let q = query;
  if (filters.productId !== undefined) q = q.where(column('product_id'), '=', filters.productId);
  if (filters.types?.length) q = q.where(column('type'), 'in', filters.types);
  if (filters.sources?.length) q = q.where(column('source'), 'in', filters.sources);
  return q;
}

/** How many conversations were created and messages received and sent. */
export interface Volume {
  created: number;
  received: number;
  sent: number;
}

const DAY_MS = 86_400_000;

/**
 * The window as its whole UTC days ([from, to) as YYYY-MM-DD; null when it holds none) and the
 * parts of a day before and after them.
 */
export function splitAtDays(window: ReportWindow): { days: { from: string; to: string } | null; edges: ReportWindow[] } {
  const [from, to] = [Date.parse(window.from), Date.parse(window.to)];
  const [firstMidnight, lastMidnight] = [Math.ceil(from / DAY_MS) * DAY_MS, Math.floor(to / DAY_MS) * DAY_MS];
  if (firstMidnight >= lastMidnight) return { days: null, edges: from < to ? [window] : [] };
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    days: { from: utcDayOf(iso(firstMidnight)), to: utcDayOf(iso(lastMidnight)) },
    edges: [
      ...(from < firstMidnight ? [{ from: window.from, to: iso(firstMidnight) }] : []),
      ...(lastMidnight < to ? [{ from: iso(lastMidnight), to: window.to }] : []),
    ],
  };
}

export function reportRepository(db: Executor, dialect: Pick<Dialect, 'medianAndP90' | 'epochMs'>) {
  const epochMsOf = (column: string) => dialect.epochMs(sql.ref(column));
  /** Stopped clocks of a target in the window, of the kept conversations. */
  const stoppedClocks = (workspaceId: string, window: ReportWindow, filters: ReportFilters, tx: Executor = db) => {
    const query = tx.selectFrom('sla_clocks as k')
      .where('k.workspace_id', '=', workspaceId).where('k.stopped_at', 'is not', null)
      .where('k.stopped_at', '>=', window.from).where('k.stopped_at', '<', window.to);
    return narrowed(tx, workspaceId, query, 'k', filters);
  };

  const messagesIn = (workspaceId: string, window: ReportWindow, filters: ReportFilters, tx: Executor = db) => {
    const query = tx.selectFrom('messages as m')
      .where('m.workspace_id', '=', workspaceId).where('m.created_at', '>=', window.from).where('m.created_at', '<', window.to);
    return narrowed(tx, workspaceId, query, 'm', filters);
  };

  /** The day counts of [days.from, days.to), narrowed by the filters their rows carry (all but tags). */
  const countedDays = async (workspaceId: string, days: { from: string; to: string }, filters: ReportFilters): Promise<Volume> => {
    let query = byProductTypeSource(
      db.selectFrom('report_days').where('workspace_id', '=', workspaceId).where('day', '>=', days.from).where('day', '<', days.to),
      (name) => name, filters,
    );
    const { assigneeIds = [], unassigned = false } = filters;
    if (assigneeIds.length || unassigned) query = query.where('assignee_key', 'in', [...assigneeIds, ...(unassigned ? [''] : [])]);
    const row = await query.select((eb) => [
      eb.fn.sum<number | null>('conversations_created').as('created'),
      eb.fn.sum<number | null>('messages_received').as('received'),
      eb.fn.sum<number | null>('messages_sent').as('sent'),
    ]).executeTakeFirstOrThrow();
    return { created: Number(row.created ?? 0), received: Number(row.received ?? 0), sent: Number(row.sent ?? 0) };
  };

  const createdIn = (workspaceId: string, window: ReportWindow, filters: ReportFilters, tx: Executor = db) =>
    narrowed(tx, workspaceId, tx.selectFrom('conversations as c')
      .where('c.workspace_id', '=', workspaceId).where('c.created_at', '>=', window.from).where('c.created_at', '<', window.to), 'c', filters);

  const ratedIn = (workspaceId: string, window: ReportWindow, filters: ReportFilters, tx: Executor = db) =>
    narrowed(tx, workspaceId, tx.selectFrom('conversations as c')
      .where('c.workspace_id', '=', workspaceId).where('c.rated_at', 'is not', null)
      .where('c.rated_at', '>=', window.from).where('c.rated_at', '<', window.to), 'c', filters);

  /** The rows where `condition` holds (an aggregate FILTER: cheaper per row than a sum of CASEs on both). */
  const countOf = (eb: ExpressionBuilder<any, any>, condition: ReturnType<typeof sql<boolean>>) =>
    eb.fn.countAll<number>().filterWhere(condition);

  return {
    /**
     * Conversations created, contacts' messages received and agents' replies sent (not notes, not
     * system messages) in the window: its whole UTC days summed from the day counts
     * (report-days.ts), the parts of a day at either end counted on the rows. The tag filter, which
     * the day counts do not carry, reads the whole window's rows.
     */
    async countVolume(workspaceId: string, window: ReportWindow, filters: ReportFilters): Promise<Volume> {
      const { days, edges } = filters.tagKeys?.length ? { days: null, edges: [window] } : splitAtDays(window);
      const parts = await Promise.all([
        ...(days ? [countedDays(workspaceId, days, filters)] : []),
        ...edges.map(async (edge): Promise<Volume> => {
          const [created, messages] = await Promise.all([
            createdIn(workspaceId, edge, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
            messagesIn(workspaceId, edge, filters).select((eb) => [
              countOf(eb, sql<boolean>`m.sender_type = 'contact'`).as('received'),
              countOf(eb, sql<boolean>`m.sender_type = 'agent' and m.internal = 0`).as('sent'),
            ]).executeTakeFirstOrThrow(),
          ]);
          return { created: Number(created.n), received: Number(messages.received), sent: Number(messages.sent) };
        }),
      ]);
      return parts.reduce((sum, part) => ({ created: sum.created + part.created, received: sum.received + part.received, sent: sum.sent + part.sent }), { created: 0, received: 0, sent: 0 });
    },

    /**
     * Per target: how many stopped clocks were measured, their total, median and p90, and the SLA
     * targets among them, in one read of the window: a statement per target, each a range of
     * `sla_clocks_reported` (PostgreSQL runs them side by side on the pool's connections; grouped in
     * one statement, its ordered-set aggregates ran in one process, a year's summary a third slower).
     */
    async tallyClocks(workspaceId: string, window: ReportWindow, filters: ReportFilters, column: ClockValueColumn, targets: readonly string[]): Promise<ClockTally[]> {
      const value = sql.ref(`k.${column}`);
      return Promise.all(targets.map(async (target) => {
        const row: Record<string, unknown> = await stoppedClocks(workspaceId, window, filters).where('k.target', '=', target)
          .select((eb) => [
            eb.fn.count<number>(`k.${column}`).as('measured'),
            eb.fn.sum<number | null>(`k.${column}`).as('total'),
            eb.fn.count<number>('k.due_at').as('applied'),
            countOf(eb, sql<boolean>`k.outcome = 'hit'`).as('hit'),
            countOf(eb, sql<boolean>`k.outcome = 'missed'`).as('missed'),
            ...dialect.medianAndP90.aggregates(value),
          ])
          .executeTakeFirstOrThrow();
        const measured = Number(row.measured);
        const [median, p90] = measured > 0 ? dialect.medianAndP90.read(row, measured) : [null, null];
        return {
          target, measured, total: Number(row.total ?? 0), median, p90,
          applied: Number(row.applied), hit: Number(row.hit), missed: Number(row.missed),
        };
      }));
    },

    /** The stopped clocks of a target: when each stopped, its value (null: unanswered) and how it came out. */
    async clockPoints(workspaceId: string, window: ReportWindow, filters: ReportFilters, target: string, column: ClockValueColumn): Promise<ClockPoint[]> {
      return stoppedClocks(workspaceId, window, filters).where('k.target', '=', target)
        .select([epochMsOf('k.stopped_at').as('at'), `k.${column} as value`, 'k.outcome']).execute() as Promise<ClockPoint[]>;
    },

    /** Every stopped clock with an SLA target (for the hit rate over time). */
    async targetPoints(workspaceId: string, window: ReportWindow, filters: ReportFilters): Promise<ClockPoint[]> {
      return stoppedClocks(workspaceId, window, filters).where('k.due_at', 'is not', null)
        .select([epochMsOf('k.stopped_at').as('at'), sql<null>`null`.as('value'), 'k.outcome']).execute() as Promise<ClockPoint[]>;
    },

    /** Ratings given in the window: how many, and how many positive (4 or 5). */
    async tallyRatings(workspaceId: string, window: ReportWindow, filters: ReportFilters): Promise<{ responses: number; positive: number }> {
      const row = await ratedIn(workspaceId, window, filters)
        .select((eb) => [eb.fn.countAll<number>().as('responses'), countOf(eb, sql<boolean>`c.rating >= 4`).as('positive')])
        .executeTakeFirstOrThrow();
      return { responses: Number(row.responses), positive: Number(row.positive) };
    },

    /** The ratings given in the window, when (epoch milliseconds) and what. */
    async ratingPoints(workspaceId: string, window: ReportWindow, filters: ReportFilters): Promise<{ at: number; rating: number }[]> {
      return ratedIn(workspaceId, window, filters).select([epochMsOf('c.rated_at').as('at'), 'c.rating as rating']).execute() as Promise<{ at: number; rating: number }[]>;
    },

    /** When each conversation of the window was created, in epoch milliseconds. */
    async createdTimes(workspaceId: string, window: ReportWindow, filters: ReportFilters): Promise<number[]> {
      return (await createdIn(workspaceId, window, filters).select(epochMsOf('c.created_at').as('at')).execute()).map((row) => Number(row.at));
    },

    /** Replies sent per member (sender) in the window. */
    async repliesByMember(workspaceId: string, window: ReportWindow, filters: ReportFilters): Promise<Map<string, number>> {
      const rows = await messagesIn(workspaceId, window, filters)
        .where('m.sender_type', '=', 'agent').where('m.internal', '=', 0)
        .select((eb) => ['m.sender_id', eb.fn.countAll<number>().as('n')]).groupBy('m.sender_id').execute();
      return new Map(rows.map((row) => [row.sender_id, Number(row.n)]));
    },

    /** Resolution clocks stopped in the window, per assignee of their conversation. */
    async resolvedByAssignee(workspaceId: string, window: ReportWindow, filters: ReportFilters): Promise<Map<string, number>> {
      const rows = await stoppedClocks(workspaceId, window, filters).where('k.target', '=', 'resolution').where('k.assignee_id', 'is not', null)
        .select((eb) => ['k.assignee_id', eb.fn.countAll<number>().as('n')]).groupBy('k.assignee_id').execute();
      return new Map(rows.map((row) => [row.assignee_id!, Number(row.n)]));
    },

    /** First responses in the window per member who gave them: how many, their total, median and p90 (one row per member). */
    async firstResponsesByMember(workspaceId: string, window: ReportWindow, filters: ReportFilters, column: ClockValueColumn): Promise<Map<string, MeasuredValues>> {
      const value = sql.ref(`k.${column}`);
      const rows: Record<string, unknown>[] = await stoppedClocks(workspaceId, window, filters).where('k.target', '=', 'first_response')
        .where('k.answered_by', 'is not', null).where(`k.${column}`, 'is not', null)
        .select((eb) => ['k.answered_by', eb.fn.count<number>(`k.${column}`).as('measured'), eb.fn.sum<number>(`k.${column}`).as('total'), ...dialect.medianAndP90.aggregates(value)])
        .groupBy('k.answered_by').execute();
      return new Map(rows.map((row) => {
        const measured = Number(row.measured);
        const [median, p90] = dialect.medianAndP90.read(row, measured);
        return [row.answered_by as string, { measured, total: Number(row.total), median, p90 }];
      }));
    },

    /** The agents' replies (not notes) in these conversations, oldest first: what stopped their response clocks. */
    async agentRepliesOf(conversationIds: readonly string[], tx: Executor = db): Promise<{ conversation_id: string; sender_id: string; created_at: string }[]> {
      if (conversationIds.length === 0) return [];
      return tx.selectFrom('messages').select(['conversation_id', 'sender_id', 'created_at'])
        .where('conversation_id', 'in', conversationIds).where('sender_type', '=', 'agent').where('internal', '=', 0)
        .orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    },

    /** A page of the conversations created in the window, oldest first, after the (created_at, id) given. */
    async csvPage(workspaceId: string, window: ReportWindow, filters: ReportFilters, column: ClockValueColumn, after: { created_at: string; id: string } | null, limit: number): Promise<CsvConversationRow[]> {
      // A conversation's first measured clock of a target (first: its first response) or its last (resolution: the latest close).
      const measured = (target: string, order: 'asc' | 'desc') => db.selectFrom('sla_clocks as k').select(`k.${column}`)
        .where('k.conversation_id', '=', sql.ref<string>('c.id')).where('k.target', '=', target).where(`k.${column}`, 'is not', null)
        .orderBy('k.started_at', order).orderBy('k.id', order).limit(1);
      let query = createdIn(workspaceId, window, filters)
        .innerJoin('products as p', 'p.id', 'c.product_id')
        .leftJoin('members as a', 'a.id', 'c.assignee_id')
        .select(['c.id', 'p.name as product', 'c.type', 'c.source', 'c.status', 'a.display_name as assignee', 'c.tags', 'c.created_at', 'c.rating', 'c.sla_status'])
        .select([measured('first_response', 'asc').as('first_response_seconds'), measured('resolution', 'desc').as('resolution_seconds')]);
      if (after) query = query.where((eb) => eb.or([eb('c.created_at', '>', after.created_at), eb.and([eb('c.created_at', '=', after.created_at), eb('c.id', '>', after.id)])]));
      return query.orderBy('c.created_at', 'asc').orderBy('c.id', 'asc').limit(limit).execute() as Promise<CsvConversationRow[]>;
    },

  };
}

export type ReportRepository = ReturnType<typeof reportRepository>;
