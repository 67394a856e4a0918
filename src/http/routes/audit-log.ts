import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { AuditLogService } from '../../domain/audit/audit-log.service.js';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../domain/audit/audit-log.js';
import { canonicalInstant } from '../../domain/shared/instants.js';
import type { AuditLogFilters } from '../../db/repositories/audit/audit-log.repository.js';
import { checkAll } from '../../errors.js';
import { enumFilter, singleIdFilter } from '../filters.js';
import type { TypedApp } from '../route.js';
import { AuditLogCsvQuery, AuditLogEntry, ListAuditLogQuery } from '../schemas/audit-log.js';
import { ListOf, errorResponses, listBody, pageOf } from '../schemas/common.js';

const TAGS = ['Audit log'];
const SETTINGS = ' Needs an owner or admin (a read-only key of one included), or a key without a member (403 otherwise).';
const FILTERS = 'actor_id names one member, key or rule; action and target_type take comma-separated values; from (inclusive) and to (exclusive) bound created_at.';

type FilterQuery = { actor_id?: string; action?: string; target_type?: string; from?: string; to?: string };

const filtersOf = async (query: FilterQuery): Promise<AuditLogFilters> => {
  const [actorId, actions, targetTypes, from, to] = await checkAll([
    () => singleIdFilter('actor_id', query.actor_id),
    () => enumFilter('action', query.action, AUDIT_ACTIONS),
    () => enumFilter('target_type', query.target_type, AUDIT_TARGET_TYPES),
    () => (query.from === undefined ? undefined : canonicalInstant('from', query.from)),
    () => (query.to === undefined ? undefined : canonicalInstant('to', query.to)),
  ] as const);
  return { actorId, actions, targetTypes, from, to };
};

/**
 * [ext] The audit log (docs/audit-log.md): read-only, as a page or as CSV. Its own plugin, so the
 * settings role is checked first; there is no route that changes or deletes an entry.
 */
export async function auditLogRoutes(app: TypedApp, auditLog: AuditLogService): Promise<void> {
  app.addHook('onRequest', async (request) => auditLog.authorize(request.actor));

  app.get('/audit-log', {
    schema: {
      operationId: 'listAuditLog', tags: TAGS, summary: '[ext] List the audit log',
      description: `Who changed the workspace's settings, signed in or failed to, exported or erased a contact, or took a backup; newest first (created_at, then id). ${FILTERS}${SETTINGS}`,
      querystring: ListAuditLogQuery,
      response: { 200: ListOf(AuditLogEntry, 'A page of audit log entries'), ...errorResponses(403) },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await auditLog.list(request.actor, await filtersOf(request.query), page), page);
    },
  });

  app.get('/audit-log.csv', {
    schema: {
      operationId: 'exportAuditLogCsv', tags: TAGS, summary: '[ext] Download the audit log as CSV',
      description:
        'Every entry matching the filters, newest first, streamed as CSV (RFC 4180, UTF-8, a header row): id, created_at, actor_type, actor_id, ' +
        'actor_name, action, target_type, target_id, changes (JSON), ip, user_agent. A cell that a spreadsheet would read as a formula ' +
        `starts with an apostrophe. ${FILTERS}${SETTINGS}`,
      querystring: AuditLogCsvQuery,
      response: {
        200: {
          description: 'The entries as CSV',
          headers: { 'Content-Disposition': Type.String({ description: 'attachment; filename="audit-log.csv"' }) },
          content: { 'text/csv': { schema: Type.String() } },
        },
        ...errorResponses(403),
      },
    },
    handler: async (request, reply) => {
      const lines = auditLog.csv(request.actor, await filtersOf(request.query));
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="audit-log.csv"')
        .header('X-Content-Type-Options', 'nosniff')
        // A stream of text: the schema's string type names the body, not how it is sent.
        .send(Readable.from(lines) as unknown as string);
    },
  });
}
