// Reports (docs/reports.md): volume, first response, next response and resolution, CSAT and SLA
// figures over a window, as one summary, a time series, per member, and a CSV of the conversations.
// They read what the conversations' write path keeps as things happen (stopped SLA clocks with
// their values, ratings with their time, messages by time): no report replays a conversation.
import { Readable } from 'node:stream';
import type { ArticleRepository } from '../../db/repositories/help-center/article.repository.js';
import type { SelfService } from '../../db/repositories/help-center/help-event.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { ClockValueColumn, ReportFilters, ReportRepository, ReportWindow } from '../../db/repositories/reports/report.repository.js';
import { invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor } from '../accounts/actor.js';
import { resolveMemberRef } from '../accounts/member-ref.js';
import type { ArticleStatus } from '../help-center/help-center.shapes.js';
import type { HelpEvents } from '../help-center/help-events.js';
import { ianaTimeZone } from '../accounts/member-settings.js';
import { SLA_TARGETS } from '../service-levels/sla-clocks.js';
import { parseTags } from '../tags/tags.js';
import { BUCKETS_MAX, bucketIndex, bucketStarts, type ReportInterval } from './buckets.js';
import { csvLine } from './csv.js';
import { distributionOf, distributionOfValues, type Distribution } from './distribution.js';

/** The window when none is given: the 7 days before `to`. */
export const DEFAULT_WINDOW_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;

/** A report's parameters as the HTTP layer checked them (src/http/report-query.ts). */
export interface ReportRequest {
  from?: string;
  to?: string;
  filters: ReportFilters;
  assignedToMe: boolean;
  column: ClockValueColumn;
}

export interface ReportSummary {
  conversations_created: number;
  conversations_resolved: number;
  messages_received: number;
  messages_sent: number;
  first_response: Distribution;
  next_response: Distribution;
  resolution: Distribution;
  csat: { responses: number; positive: number; score: number | null };
  sla: { applied: number; hit: number; missed: number; hit_rate: number | null };
  /** The help center's visitors in the window (§12): only the window and the product filter narrow them. */
  self_service: SelfService;
}

export const REPORT_METRICS = [
  'conversations_created', 'conversations_resolved', 'first_response_median', 'resolution_median', 'csat_score', 'sla_hit_rate',
] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];

/** An article's tallies since it was written (views and votes are kept as totals, not by time). */
export interface ArticleFigures {
  article_id: string;
  product_id: string;
  title: string;
  locale: string;
  status: ArticleStatus;
  views: number;
  helpful: number;
  not_helpful: number;
  helpful_rate: number | null;
}

export interface AgentFigures {
  member_id: string;
  display_name: string | null;
  replies_sent: number;
  conversations_resolved: number;
  first_response: Distribution;
}

/** The CSV's columns, in order (docs/reports.md, "CSV"). */
export const CSV_COLUMNS = [
  'id', 'product', 'type', 'source', 'status', 'assignee', 'tags', 'created_at', 'first_response_seconds', 'resolution_seconds', 'rating', 'sla_status',
] as const;
const CSV_PAGE = 500;

interface Scope {
  workspaceId: string;
  window: ReportWindow;
  filters: ReportFilters;
  column: ClockValueColumn;
}

/** A share, or null when there is nothing to share. */
const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/** The nearest-rank median of values in memory; null for none. */
const medianOf = (values: readonly number[]) => distributionOfValues(values).median_seconds;

export interface ReportServiceDeps {
  reports: ReportRepository;
  members: Pick<MemberRepository, 'findById' | 'listAll'>;
  articles: Pick<ArticleRepository, 'mostViewed'>;
  helpEvents: Pick<HelpEvents, 'selfService'>;
  clock: Clock;
}

export function createReportService({ reports, members, articles, helpEvents, clock }: ReportServiceDeps) {
  const scopeOf = async (actor: Actor, request: ReportRequest): Promise<Scope> => {
    const to = request.to ?? clock.now();
    const from = request.from ?? new Date(Date.parse(to) - DEFAULT_WINDOW_DAYS * DAY_MS).toISOString();
    // from = to is an empty window (nothing in it); from after to is a mistake.
    if (Date.parse(from) > Date.parse(to)) throw invalidField('from', `must not be after to (${to})`);
    const assigneeIds = [...(request.filters.assigneeIds ?? [])];
    if (request.assignedToMe) assigneeIds.push((await resolveMemberRef(members, actor, 'me', 'assignee_id'))!);
    return { workspaceId: actor.workspaceId, window: { from, to }, filters: { ...request.filters, assigneeIds }, column: request.column };
  };

  return {
    async summary(actor: Actor, request: ReportRequest): Promise<ReportSummary> {
      const { workspaceId, window, filters, column } = await scopeOf(actor, request);
      const [volume, tallies, ratings, self_service] = await Promise.all([
        reports.countVolume(workspaceId, window, filters),
        reports.tallyClocks(workspaceId, window, filters, column, SLA_TARGETS),
        reports.tallyRatings(workspaceId, window, filters),
        // A visitor's search or article view has no assignee, tags, type or source: only the product narrows it.
        helpEvents.selfService({ workspaceId, productId: filters.productId ?? null, ...window }),
      ]);
      // One tally per target, in SLA_TARGETS' order.
      const [first_response, next_response, resolution] = tallies.map(distributionOf);
      const sum = (field: 'applied' | 'hit' | 'missed') => tallies.reduce((total, row) => total + row[field], 0);
      const [hit, missed] = [sum('hit'), sum('missed')];
      return {
        conversations_created: volume.created,
        conversations_resolved: resolution!.count,
        messages_received: volume.received,
        messages_sent: volume.sent,
        first_response: first_response!, next_response: next_response!, resolution: resolution!,
        csat: { ...ratings, score: ratio(ratings.positive, ratings.responses) },
        sla: { applied: sum('applied'), hit, missed, hit_rate: ratio(hit, hit + missed) },
        self_service,
      };
    },

    /** The most viewed articles of the workspace (or of one product), with their views and helpful rate. */
    async articles(actor: Actor, productId: string | undefined, limit: number): Promise<ArticleFigures[]> {
      const rows = await articles.mostViewed(actor.workspaceId, productId, limit);
      return rows.map(({ id, status, views, helpful, not_helpful, ...article }) => {
        const [yes, no] = [Number(helpful), Number(not_helpful)];
        return { article_id: id, ...article, status: status as ArticleStatus, views: Number(views), helpful: yes, not_helpful: no, helpful_rate: ratio(yes, yes + no) };
      });
    },

    async timeseries(actor: Actor, request: ReportRequest, metric: ReportMetric, interval: ReportInterval, timezone: string): Promise<{ start: string; value: number | null }[]> {
      const zone = ianaTimeZone(timezone, 'timezone')!;
      const { workspaceId, window, filters, column } = await scopeOf(actor, request);
      const starts = bucketStarts(window.from, window.to, interval, zone);
      if (starts === null) throw invalidField('interval', `gives more than ${BUCKETS_MAX} buckets between from and to: take a longer interval or a shorter window`);
      const buckets: number[][] = starts.map(() => []);
      const put = (at: number, value: number) => buckets[bucketIndex(starts, at)]!.push(value);
      const counted = (values: number[]) => values.length;
      let figure: (values: number[]) => number | null = counted;
      switch (metric) {
        case 'conversations_created':
          for (const at of await reports.createdTimes(workspaceId, window, filters)) put(at, 1);
          break;
        case 'conversations_resolved':
        case 'first_response_median':
        case 'resolution_median': {
          const target = metric === 'first_response_median' ? 'first_response' : 'resolution';
          for (const point of await reports.clockPoints(workspaceId, window, filters, target, column)) {
            if (point.value !== null) put(point.at, Number(point.value));
          }
          if (metric !== 'conversations_resolved') figure = medianOf;
          break;
        }
        case 'csat_score':
          for (const { at, rating } of await reports.ratingPoints(workspaceId, window, filters)) put(at, rating >= 4 ? 1 : 0);
          figure = (values) => ratio(values.filter((value) => value === 1).length, values.length);
          break;
        case 'sla_hit_rate':
          for (const point of await reports.targetPoints(workspaceId, window, filters)) {
            if (point.outcome !== null) put(point.at, point.outcome === 'hit' ? 1 : 0);
          }
          figure = (values) => ratio(values.filter((value) => value === 1).length, values.length);
          break;
      }
      // The first bucket starts at or before `from`: it is reported from its start.
      return starts.map((start, index) => ({ start: new Date(start).toISOString(), value: figure(buckets[index]!) }));
    },

    /** Every member of the workspace, in the members' order, with their figures in the window. */
    async agents(actor: Actor, request: ReportRequest): Promise<AgentFigures[]> {
      const { workspaceId, window, filters, column } = await scopeOf(actor, request);
      const [memberRows, replies, resolved, responses] = await Promise.all([
        members.listAll(workspaceId),
        reports.repliesByMember(workspaceId, window, filters),
        reports.resolvedByAssignee(workspaceId, window, filters),
        reports.firstResponsesByMember(workspaceId, window, filters, column),
      ]);
      return memberRows.map((member) => ({
        member_id: member.id,
        display_name: member.display_name,
        replies_sent: replies.get(member.id) ?? 0,
        conversations_resolved: resolved.get(member.id) ?? 0,
        first_response: distributionOf(responses.get(member.id)),
      }));
    },

    /**
     * The conversations created in the window as CSV lines (a header first), read a page at a time
     * as the client takes them, so any number streams in bounded memory. The scope is checked
     * before the first byte, so a bad request is still a 400.
     */
    async conversationsCsv(actor: Actor, request: ReportRequest): Promise<Readable> {
      const { workspaceId, window, filters, column } = await scopeOf(actor, request);
      async function* lines() {
        yield csvLine(CSV_COLUMNS);
        let after: { created_at: string; id: string } | null = null;
        for (;;) {
          const page = await reports.csvPage(workspaceId, window, filters, column, after, CSV_PAGE);
          if (page.length === 0) return;
          const seconds = (value: number | null) => (value === null ? null : Number(value));
          yield page.map((row) => csvLine([
            row.id, row.product, row.type, row.source, row.status, row.assignee ?? '', parseTags(row.tags).join(', '), new Date(row.created_at).toISOString(),
            seconds(row.first_response_seconds), seconds(row.resolution_seconds), row.rating, row.sla_status ?? '',
          ])).join('');
          const last = page.at(-1)!;
          after = { created_at: last.created_at, id: last.id };
        }
      }
      return Readable.from(lines());
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
