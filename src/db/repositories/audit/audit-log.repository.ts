// The audit log's rows (docs/audit-log.md): inserted by the audit recorder inside the change's own
// transaction, read newest first (a page, or every entry in batches for the CSV), and deleted only
// by housekeeping once past the retention. There is no update.
import type { AuditLogTable } from '../../schema.js';
import type { Executor, Page, PageOf } from '../executor.js';
import { NEWEST_FIRST, countRows, readPage } from '../paging.js';
import { uuidv7Floor } from '../../../lib/ids.js';

export type AuditLogRow = AuditLogTable;

const COLUMNS = [
  'id', 'workspace_id', 'actor_type', 'actor_id', 'actor_name', 'action', 'target_type', 'target_id', 'changes', 'ip', 'user_agent', 'created_at',
] as const;

export interface AuditLogFilters {
  actorId?: string;
  actions?: string[];
  targetTypes?: string[];
  /** Entries at or after this instant. */
  from?: string;
  /** Entries before this instant. */
  to?: string;
}

/** Where a batch of the CSV continues: after the last entry of the batch before, in newest-first order. */
export interface AuditLogCursor {
  created_at: string;
  id: string;
}

export function auditLogRepository(db: Executor) {
  const filtered = (workspaceId: string, filters: AuditLogFilters, tx: Executor) => {
    let query = tx.selectFrom('audit_log').where('workspace_id', '=', workspaceId);
    if (filters.actorId !== undefined) query = query.where('actor_id', '=', filters.actorId);
    if (filters.actions !== undefined) query = query.where('action', 'in', filters.actions);
    if (filters.targetTypes !== undefined) query = query.where('target_type', 'in', filters.targetTypes);
    if (filters.from !== undefined) query = query.where('created_at', '>=', filters.from);
    if (filters.to !== undefined) query = query.where('created_at', '<', filters.to);
    return query;
  };

  return {
    async insert(rows: AuditLogRow[], tx: Executor = db): Promise<void> {
      if (rows.length > 0) await tx.insertInto('audit_log').values(rows).execute();
    },

    /** A page of the workspace's entries matching the filters, newest first. */
    async list(workspaceId: string, filters: AuditLogFilters, page: Page, tx: Executor = db): Promise<PageOf<AuditLogRow>> {
      const scoped = filtered(workspaceId, filters, tx);
      return readPage(NEWEST_FIRST, page, () => countRows(scoped), (read) => read.sliced(scoped).select([...COLUMNS]).execute());
    },

    /** Up to `limit` entries matching the filters, newest first, after `cursor` (from the newest when null). */
    async batchAfter(workspaceId: string, filters: AuditLogFilters, cursor: AuditLogCursor | null, limit: number, tx: Executor = db): Promise<AuditLogRow[]> {
      let query = filtered(workspaceId, filters, tx);
      if (cursor) {
        query = query.where((eb) => eb.or([
          eb('created_at', '<', cursor.created_at),
          eb.and([eb('created_at', '=', cursor.created_at), eb('id', '<', cursor.id)]),
        ]));
      }
      return query.select([...COLUMNS]).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /**
     * Entries of every workspace made before `cutoff`, up to `limit` a statement (housekeeping);
     * how many went. Their UUIDv7 ids bound the scan to the old rows.
     */
    async deleteBefore(cutoff: string, limit: number, tx: Executor = db): Promise<number> {
      const result = await tx.deleteFrom('audit_log')
        .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('id', '<', uuidv7Floor(cutoff)).where('created_at', '<', cutoff).limit(limit))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type AuditLogRepository = ReturnType<typeof auditLogRepository>;
