// Reading the audit log (docs/audit-log.md): the settings role only (a read-only key of such a
// member too: reading is all there is), newest first, as a page or as CSV streamed in batches.
// Nothing here or anywhere else changes or deletes an entry; housekeeping purges old ones.
import type { AuditLogFilters, AuditLogRepository, AuditLogRow } from '../../db/repositories/audit/audit-log.repository.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import { csvRecord } from '../../lib/csv.js';
import type { Actor } from '../accounts/actor.js';
import { requireSettingsRole } from '../accounts/roles.js';
import type { AuditActor, AuditChanges } from './audit-log.js';

export interface AuditLogEntry {
  id: string;
  actor: AuditActor;
  action: string;
  target_type: string;
  target_id: string | null;
  changes: AuditChanges | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

/** Entries a CSV batch reads: a few milliseconds of the database at a time. */
export const CSV_BATCH = 500;

const CSV_COLUMNS = [
  'id', 'created_at', 'actor_type', 'actor_id', 'actor_name', 'action', 'target_type', 'target_id', 'changes', 'ip', 'user_agent',
] as const satisfies readonly (keyof AuditLogRow)[];

const toEntry = (row: AuditLogRow): AuditLogEntry => ({
  id: row.id,
  actor: { type: row.actor_type as AuditActor['type'], id: row.actor_id, name: row.actor_name },
  action: row.action,
  target_type: row.target_type,
  target_id: row.target_id,
  changes: row.changes === null ? null : JSON.parse(row.changes),
  ip: row.ip,
  user_agent: row.user_agent,
  created_at: row.created_at,
});

export interface AuditLogServiceDeps {
  auditEntries: Pick<AuditLogRepository, 'list' | 'batchAfter'>;
}

export function createAuditLogService({ auditEntries }: AuditLogServiceDeps) {
  return {
    authorize: (actor: Actor) => requireSettingsRole(actor, 'the audit log'),

    async list(actor: Actor, filters: AuditLogFilters, page: Page): Promise<PageOf<AuditLogEntry>> {
      requireSettingsRole(actor, 'the audit log');
      const { rows, total } = await auditEntries.list(actor.workspaceId, filters, page);
      return { rows: rows.map(toEntry), total };
    },

    /**
     * The entries matching the filters as CSV lines (a header first), newest first, read a batch
     * at a time after the last one sent: an entry recorded meanwhile is not repeated or skipped.
     */
    async *csv(actor: Actor, filters: AuditLogFilters): AsyncGenerator<string> {
      requireSettingsRole(actor, 'the audit log');
      yield csvRecord(CSV_COLUMNS);
      for (let cursor: AuditLogRow | null = null; ;) {
        const rows: AuditLogRow[] = await auditEntries.batchAfter(actor.workspaceId, filters, cursor, CSV_BATCH);
        if (rows.length > 0) yield rows.map((row) => csvRecord(CSV_COLUMNS.map((column) => row[column]))).join('');
        if (rows.length < CSV_BATCH) return;
        cursor = rows[rows.length - 1];
      }
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;
