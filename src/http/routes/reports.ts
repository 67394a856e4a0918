import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { ReportService } from '../../domain/reports/report.service.js';
import { CSV_COLUMNS } from '../../domain/reports/report.service.js';
import { singleIdFilter } from '../filters.js';
import { reportRequestOf } from '../report-query.js';
import type { TypedApp } from '../route.js';
import { DataOf, Ref, errorResponses } from '../schemas/common.js';
import { AgentReport, ArticleReport, ArticleReportQuery, ReportSummary, SummaryQuery, ReportTimeseriesPoint, TimeseriesQuery } from '../schemas/report.js';

const TAGS = ['Reports'];
const WINDOW = 'Window: from (inclusive) to (exclusive), default the 7 days before now; filters as the conversations\' list (docs/reports.md).';

/** [ext] Reports: every key reads them, read-only ones included (docs/reports.md). */
export function reportRoutes(app: TypedApp, reports: ReportService): void {
  app.get('/reports/summary', {
    schema: {
      operationId: 'getReportSummary', tags: TAGS, summary: '[ext] Report summary',
      description: `Volume, first response, next response and resolution (count, median, p90, average), CSAT and SLA figures of a window. ${WINDOW}`,
      querystring: SummaryQuery,
      response: { 200: DataOf(ReportSummary, 'The figures'), ...errorResponses() },
    },
    handler: async (request) => ({ data: await reports.summary(request.actor, await reportRequestOf(request.query)) }),
  });

  app.get('/reports/timeseries', {
    schema: {
      operationId: 'getReportTimeseries', tags: TAGS, summary: '[ext] Report time series',
      description: `One metric per bucket of an hour, a day or a week starting at local midnight (Monday) in \`timezone\`; every bucket from the one holding \`from\` to the last starting before \`to\`, at most 1000. ${WINDOW}`,
      querystring: TimeseriesQuery,
      response: { 200: Type.Object({ data: Type.Array(Ref(ReportTimeseriesPoint)) }, { additionalProperties: false, description: 'The buckets, oldest first' }), ...errorResponses() },
    },
    handler: async (request) => {
      const { metric, interval = 'day', timezone = 'UTC' } = request.query;
      return { data: await reports.timeseries(request.actor, await reportRequestOf(request.query), metric, interval, timezone) };
    },
  });

  app.get('/reports/agents', {
    schema: {
      operationId: 'getReportAgents', tags: TAGS, summary: '[ext] Report per member',
      description: `Each member of the workspace: replies sent, resolutions of the conversations assigned to them, their first responses. ${WINDOW}`,
      querystring: SummaryQuery,
      response: { 200: Type.Object({ data: Type.Array(Ref(AgentReport)) }, { additionalProperties: false, description: 'Every member, in the members\' order' }), ...errorResponses() },
    },
    handler: async (request) => ({ data: await reports.agents(request.actor, await reportRequestOf(request.query)) }),
  });

  app.get('/reports/articles', {
    schema: {
      operationId: 'getReportArticles', tags: TAGS, summary: '[ext] Report per article',
      description: 'The most viewed help center articles (drafts included), each with its views, votes and helpful rate. ' +
        'Views and votes are kept as totals since each article was written, so no window applies (docs/reports.md).',
      querystring: ArticleReportQuery,
      response: { 200: Type.Object({ data: Type.Array(Ref(ArticleReport)) }, { additionalProperties: false, description: 'The most viewed first' }), ...errorResponses() },
    },
    handler: async (request) => {
      const { product_id, limit = 20 } = request.query;
      return { data: await reports.articles(request.actor, singleIdFilter('product_id', product_id), limit) };
    },
  });

  app.get('/reports/conversations.csv', {
    schema: {
      operationId: 'getReportConversationsCsv', tags: TAGS, summary: '[ext] Conversations as CSV',
      description: `The conversations created in the window, oldest first, one RFC 4180 row each (columns: ${CSV_COLUMNS.join(', ')}); streamed, ` +
        `so any number; a text cell starting with = + - or @ gets a leading apostrophe. ${WINDOW}`,
      querystring: SummaryQuery,
      response: {
        200: {
          description: 'The CSV, as a download',
          headers: { 'Content-Disposition': Type.String({ description: 'attachment; filename="conversations.csv"' }) },
          content: { 'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string', description: 'A header line, then one line per conversation' }) } },
        },
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      const csv = await reports.conversationsCsv(request.actor, await reportRequestOf(request.query));
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="conversations.csv"')
        .send(csv);
    },
  });
}
