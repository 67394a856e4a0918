// The parameters every report takes (docs/reports.md, "Window and filters"), checked together: each
// bad one is named in one 400, as the conversations' list does. The service settles the rest (the
// default window, `me`).
import { Type, type Static } from '@sinclair/typebox';
import { checkAll } from '../errors.js';
import { CONVERSATION_SOURCES, CONVERSATION_TYPES } from '../domain/shared/enums.js';
import { canonicalInstant } from '../domain/shared/instants.js';
import type { ReportRequest } from '../domain/reports/report.service.js';
import { enumFilter, idFilter, singleIdFilter, tagFilter } from './filters.js';
import { CsvFilter, CsvIdFilter, IdFilter, Timestamp } from './schemas/common.js';
import { TagFilter } from './schemas/tag.js';

export const ReportQuery = {
  from: Type.Optional(Timestamp('Start of the window (inclusive), an RFC 3339 instant; default: 7 days before `to`')),
  to: Type.Optional(Timestamp('End of the window (exclusive), an RFC 3339 instant; default: now')),
  product_id: Type.Optional(IdFilter('Only conversations of this product (UUID)')),
  assignee_id: Type.Optional(CsvIdFilter('Only conversations assigned to these members: comma-separated member ids, `me` for the caller\'s member, `none` for unassigned', ['none', 'me'])),
  tag: Type.Optional(TagFilter()),
  type: Type.Optional(CsvFilter('Only these types', CONVERSATION_TYPES)),
  source: Type.Optional(CsvFilter('Only these sources', CONVERSATION_SOURCES)),
  business_hours: Type.Optional(Type.Boolean({
    description: 'true: every duration counted in business hours — the calendar of the SLA policy that measured it, else the default calendar ' +
      '(LOOPDESK_DEFAULT_CALENDAR), else round the clock. Default false: round the clock',
  })),
};

/** The parameters as sent (after the schema's checks). */
export type ReportQueryParams = Static<ReturnType<typeof Type.Object<typeof ReportQuery>>>;

export async function reportRequestOf(query: ReportQueryParams): Promise<ReportRequest> {
  const [from, to, productId, types, sources, assignees] = await checkAll([
    () => (query.from === undefined ? undefined : canonicalInstant('from', query.from)),
    () => (query.to === undefined ? undefined : canonicalInstant('to', query.to)),
    () => singleIdFilter('product_id', query.product_id),
    () => enumFilter('type', query.type, CONVERSATION_TYPES),
    () => enumFilter('source', query.source, CONVERSATION_SOURCES),
    () => idFilter('assignee_id', query.assignee_id, ['none', 'me'] as const),
  ] as const);
  return {
    from, to,
    filters: { productId, types, sources, tagKeys: tagFilter(query.tag), assigneeIds: assignees.ids, unassigned: assignees.given.has('none') },
    assignedToMe: assignees.given.has('me'),
    column: query.business_hours ? 'business_seconds' : 'value_seconds',
  };
}
