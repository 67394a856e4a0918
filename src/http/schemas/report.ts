// The reports' shapes (docs/reports.md).
import { Type } from '@sinclair/typebox';
import { ARTICLE_STATUSES } from '../../domain/help-center/help-center.shapes.js';
import { REPORT_INTERVALS } from '../../domain/reports/buckets.js';
import { REPORT_METRICS } from '../../domain/reports/report.service.js';
import { ReportQuery } from '../report-query.js';
import { IdFilter, Nullable, Ref, StringEnum, Timestamp, Uuid } from './common.js';

const Seconds = (description: string) => Nullable(Type.Number({ minimum: 0, description }));

export const ReportDistribution = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'How many durations were measured in the window' }),
    median_seconds: Seconds('The median (nearest rank: the value at rank ⌈n/2⌉ in ascending order); null when count is 0'),
    p90_seconds: Seconds('The 90th percentile (nearest rank: the value at rank ⌈0.9·n⌉); null when count is 0'),
    average_seconds: Seconds('The mean, to the millisecond; null when count is 0'),
  },
  {
    $id: 'ReportDistribution', additionalProperties: false, description: '[ext] The figures of a duration, exact over every measured row (docs/reports.md)',
    examples: [{ count: 412, median_seconds: 1260, p90_seconds: 9840, average_seconds: 3411.5 }],
  },
);

const Share = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1, description }));

export const ReportSummary = Type.Object(
  {
    conversations_created: Type.Integer({ minimum: 0, description: 'Conversations created in the window' }),
    conversations_resolved: Type.Integer({ minimum: 0, description: 'Resolution clocks stopped in the window (a conversation resolved or dismissed; again after a reopening)' }),
    messages_received: Type.Integer({ minimum: 0, description: 'Contact messages written in the window' }),
    messages_sent: Type.Integer({ minimum: 0, description: 'Agents\' replies sent in the window (internal notes and system messages not counted)' }),
    first_response: Ref(ReportDistribution, { description: 'From the first contact message to the first agent reply; counted where the reply falls' }),
    next_response: Ref(ReportDistribution, { description: 'From a contact message that waits again to the next agent reply; counted where the reply falls' }),
    resolution: Ref(ReportDistribution, { description: 'From the first contact message (or a reopening) to resolved or dismissed; counted where it closes' }),
    csat: Type.Object({
      responses: Type.Integer({ minimum: 0, description: 'Ratings given in the window' }),
      positive: Type.Integer({ minimum: 0, description: 'Of them, 4 or 5' }),
      score: Share('positive / responses; null without responses'),
    }, { additionalProperties: false, description: 'The widget\'s 1–5 ratings' }),
    sla: Type.Object({
      applied: Type.Integer({ minimum: 0, description: 'SLA targets finished in the window (clocks with a due time that stopped)' }),
      hit: Type.Integer({ minimum: 0, description: 'Of them, stopped by their rule by the due time' }),
      missed: Type.Integer({ minimum: 0, description: 'Of them, breached or stopped after the due time' }),
      hit_rate: Share('hit / (hit + missed); null when neither'),
    }, { additionalProperties: false, description: 'SLA targets finished in the window' }),
    self_service: Type.Object({
      searches: Type.Integer({ minimum: 0, description: 'Visitors\' searches for answers in the window (with or without a widget session)' }),
      articles_viewed: Type.Integer({ minimum: 0, description: 'Article views the widget counted in the window (once per visitor session and article)' }),
      answers_shown: Type.Integer({ minimum: 0, description: 'Searches in the window that showed at least one article' }),
      self_served: Type.Integer({
        minimum: 0, description: 'Visitor sessions that saw an answer or opened an article in the window and started no conversation of the product within 30 minutes (counted once the 30 minutes are over)',
      }),
      conversations_after_article: Type.Integer({ minimum: 0, description: 'Visitor sessions that started a conversation within 30 minutes of seeing an answer or opening an article in the window' }),
    }, {
      additionalProperties: false,
      description: 'The help center\'s visitors in the window (docs/help-center.md, "How it is measured"); narrowed by product_id only, the conversation filters do not apply',
    }),
  },
  {
    $id: 'ReportSummary', additionalProperties: false, description: '[ext] The figures of a window',
    examples: [{
      conversations_created: 120, conversations_resolved: 98, messages_received: 301, messages_sent: 264,
      first_response: { count: 110, median_seconds: 1260, p90_seconds: 9840, average_seconds: 3411.5 },
      next_response: { count: 64, median_seconds: 900, p90_seconds: 7200, average_seconds: 2140 },
      resolution: { count: 98, median_seconds: 86400, p90_seconds: 259200, average_seconds: 120110.25 },
      csat: { responses: 40, positive: 34, score: 0.85 },
      sla: { applied: 180, hit: 160, missed: 12, hit_rate: 0.9302325581395349 },
      self_service: { searches: 310, articles_viewed: 190, answers_shown: 244, self_served: 131, conversations_after_article: 38 },
    }],
  },
);

export const SummaryQuery = Type.Object(ReportQuery);

export const TimeseriesQuery = Type.Object({
  ...ReportQuery,
  metric: StringEnum(REPORT_METRICS, { description: 'What each bucket holds: a count, a median in seconds, or a share (0–1)' }),
  interval: Type.Optional(StringEnum(REPORT_INTERVALS, { default: 'day', description: 'Bucket length; default day' })),
  timezone: Type.Optional(Type.String({ maxLength: 64, default: 'UTC', description: 'IANA time zone the buckets start in (local hour, midnight, Monday midnight); default UTC' })),
});

export const ReportTimeseriesPoint = Type.Object(
  {
    start: Timestamp('When the bucket starts'),
    value: Nullable(Type.Number({ description: 'The metric over the bucket: 0 for an empty count, null for a median or share of nothing' })),
  },
  { $id: 'ReportTimeseriesPoint', additionalProperties: false, examples: [{ start: '2026-11-16T23:00:00.000Z', value: 17 }] },
);

export const AgentReport = Type.Object(
  {
    member_id: Uuid('The member'),
    display_name: Nullable(Type.String({ description: 'Their display name' })),
    replies_sent: Type.Integer({ minimum: 0, description: 'Replies they sent in the window' }),
    conversations_resolved: Type.Integer({ minimum: 0, description: 'Resolutions in the window of conversations now assigned to them' }),
    first_response: Ref(ReportDistribution, { description: 'First responses they gave in the window' }),
  },
  {
    $id: 'AgentReport', additionalProperties: false, description: '[ext] A member\'s figures in a window',
    examples: [{
      member_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', display_name: 'Ada', replies_sent: 80, conversations_resolved: 31,
      first_response: { count: 29, median_seconds: 840, p90_seconds: 5400, average_seconds: 1630.2 },
    }],
  },
);

/** How many articles GET /reports/articles lists at most. */
export const ARTICLE_REPORT_LIMIT_MAX = 100;

export const ArticleReportQuery = Type.Object({
  product_id: Type.Optional(IdFilter('Only the articles of this product (UUID)')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ARTICLE_REPORT_LIMIT_MAX, default: 20, description: `How many articles, the most viewed first; 1–${ARTICLE_REPORT_LIMIT_MAX}, default 20` })),
});

export const ArticleReport = Type.Object(
  {
    article_id: Uuid('The article'),
    product_id: Uuid('Its product'),
    title: Type.String({ description: 'Its title' }),
    locale: Type.String({ description: 'Its locale (each translation is its own article)' }),
    status: StringEnum(ARTICLE_STATUSES, { description: 'Its status now' }),
    views: Type.Integer({ minimum: 0, description: 'Views since it was written (once per visitor session)' }),
    helpful: Type.Integer({ minimum: 0, description: '"Was this helpful?" answered yes (one vote per visitor session)' }),
    not_helpful: Type.Integer({ minimum: 0, description: 'Answered no' }),
    helpful_rate: Share('helpful / (helpful + not_helpful); null without votes'),
  },
  {
    $id: 'ArticleReport', additionalProperties: false, description: '[ext] An article\'s views and helpful rate, totals since it was written',
    examples: [{
      article_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8092', product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8001', title: 'Reset your password',
      locale: 'en', status: 'published', views: 412, helpful: 61, not_helpful: 9, helpful_rate: 0.8714285714285714,
    }],
  },
);
