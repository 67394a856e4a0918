// SLA policies (migration 0034), in the order they are tried: position, then created_at.
import { findInWorkspace } from '../compiled-query.js';
import type { Executor, Page, PageOf } from '../executor.js';
import { countRows, readPage, type ListOrder } from '../paging.js';
import { positionShifter } from '../positions.js';
import type { SlaPolicyTable } from '../../schema.js';

const SLA_POLICY_COLUMNS = [
  'id', 'workspace_id', 'name', 'position', 'active', 'conditions', 'first_response_seconds', 'next_response_seconds',
  'resolution_seconds', 'calendar_id', 'created_at', 'updated_at',
] as const;

const POSITION_ORDER: ListOrder = [['position', 'asc'], ['created_at', 'asc'], ['id', 'asc']];

export type SlaPolicyRow = SlaPolicyTable;
export type SlaPolicyChanges = Partial<Omit<SlaPolicyTable, 'id' | 'workspace_id' | 'created_at'>>;

export function slaPolicyRepository(db: Executor) {
  const inWorkspace = (tx: Executor, workspaceId: string) => tx.selectFrom('sla_policies').where('workspace_id', '=', workspaceId);

  return {
    async insert(row: SlaPolicyRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('sla_policies').values(row).execute();
    },

    findById: findInWorkspace<SlaPolicyRow>(db, 'sla_policies', SLA_POLICY_COLUMNS),

    list(workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<SlaPolicyRow>> {
      const scoped = inWorkspace(tx, workspaceId);
      return readPage(POSITION_ORDER, page, () => countRows(scoped), (read) => read.sliced(scoped).select(SLA_POLICY_COLUMNS).execute());
    },

    /** The workspace's active policies, in the order they are tried (what applying one reads). */
    listActive(workspaceId: string, tx: Executor = db): Promise<SlaPolicyRow[]> {
      return inWorkspace(tx, workspaceId).select(SLA_POLICY_COLUMNS).where('active', '=', 1)
        .orderBy('position', 'asc').orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    },

    count: (workspaceId: string, tx: Executor = db): Promise<number> => countRows(inWorkspace(tx, workspaceId)),

    /** Moves the policies at positions `from`…`to` (inclusive) by `by` places. */
    shift: positionShifter('sla_policies', db),

    async update(workspaceId: string, id: string, changes: SlaPolicyChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('sla_policies').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('sla_policies').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** The names of the policies that measure in a calendar, in their order. */
    async namesUsingCalendar(workspaceId: string, calendarId: string, tx: Executor = db): Promise<string[]> {
      const rows = await inWorkspace(tx, workspaceId).select('name').where('calendar_id', '=', calendarId).orderBy('position').orderBy('created_at').execute();
      return rows.map((row) => row.name);
    },
  };
}

export type SlaPolicyRepository = ReturnType<typeof slaPolicyRepository>;
