// Calendars of business hours (migration 0034), oldest first.
import { findInWorkspace } from '../compiled-query.js';
import { oldestFirstPage, type Executor, type Page, type PageOf } from '../executor.js';
import type { CalendarTable } from '../../schema.js';

const CALENDAR_COLUMNS = ['id', 'workspace_id', 'name', 'timezone', 'hours', 'holidays', 'created_at', 'updated_at'] as const;

export type CalendarRow = CalendarTable;
export type CalendarChanges = Partial<Pick<CalendarTable, 'name' | 'timezone' | 'hours' | 'holidays' | 'updated_at'>>;

export function calendarRepository(db: Executor) {
  return {
    async insert(row: CalendarRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('calendars').values(row).execute();
    },

    findById: findInWorkspace<CalendarRow>(db, 'calendars', CALENDAR_COLUMNS),

    /** The workspace's oldest calendar of this name (the default calendar is named by LOOPDESK_DEFAULT_CALENDAR). */
    async findByName(workspaceId: string, name: string, tx: Executor = db): Promise<CalendarRow | undefined> {
      return tx.selectFrom('calendars').select(CALENDAR_COLUMNS).where('workspace_id', '=', workspaceId).where('name', '=', name)
        .orderBy('created_at', 'asc').orderBy('id', 'asc').limit(1).executeTakeFirst();
    },

    list: (workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<CalendarRow>> =>
      oldestFirstPage<CalendarRow>(tx, 'calendars', CALENDAR_COLUMNS, workspaceId, page),

    async update(workspaceId: string, id: string, changes: CalendarChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('calendars').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('calendars').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}

export type CalendarRepository = ReturnType<typeof calendarRepository>;
