// Calendars (docs/service-levels.md): business hours in a time zone, with holidays, and the due
// time N seconds of their open time after an instant. Everyone reads them; creating, changing and
// deleting them needs the settings role. A calendar an SLA policy measures in cannot be deleted.
import { Temporal } from 'temporal-polyfill';
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import type { CalendarChanges, CalendarRepository, CalendarRow } from '../../db/repositories/service-levels/calendar.repository.js';
import type { SlaPolicyRepository } from '../../db/repositories/service-levels/sla-policy.repository.js';
import { AppError, invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { requireSettingsRole } from '../accounts/roles.js';
import { changesBetween, type AuditLog } from '../audit/audit-log.js';
import { updateUnderLock } from '../shared/changes.js';
import { holdLock, inTransaction } from '../shared/unit-of-work.js';
import { DUE_HORIZON_YEARS, addBusinessSeconds, scheduleOf, type CalendarRules, type WeeklyHours } from './business-time.js';
import { checkCalendarRules, type HoursInput } from './calendar-rules.js';

export interface Calendar extends CalendarRules {
  id: string;
  name: string;
  hours: WeeklyHours;
  holidays: string[];
  created_at: string;
  updated_at: string;
}

export interface CalendarInput {
  name: string;
  timezone: string;
  hours: HoursInput;
  holidays?: string[];
}

/** The last instant an RFC 3339 timestamp (a four-digit year) can show. */
const LAST_SHOWABLE_MS = Date.parse('9999-12-31T23:59:59.999Z');

const toCalendar = ({ id, name, timezone, hours, holidays, created_at, updated_at }: CalendarRow): Calendar =>
  ({ id, name, timezone, hours: JSON.parse(hours) as WeeklyHours, holidays: JSON.parse(holidays) as string[], created_at, updated_at });

/** The lock every write of a calendar takes, and so does a policy write that refers to it (a delete cannot slip between). */
export const calendarLock = (calendarId: string) => `calendar:${calendarId}`;

export interface CalendarServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  calendars: CalendarRepository;
  slaPolicies: Pick<SlaPolicyRepository, 'namesUsingCalendar'>;
  audit: AuditLog;
  clock: Clock;
}

export function createCalendarService({ db, dialect, calendars, slaPolicies, audit, clock }: CalendarServiceDeps) {
  async function find(actor: Actor, id: string, tx = db): Promise<CalendarRow> {
    const calendarId = parseUuid(id);
    const row = calendarId ? await calendars.findById(actor.workspaceId, calendarId, tx) : undefined;
    if (!row) throw notFound('calendar');
    return row;
  }

  return {
    /** Creating, changing and deleting calendars: owners, admins and keys without a member (403 otherwise). */
    authorizeWrite(actor: Actor): void {
      requireSettingsRole(actor, 'changes to calendars');
    },

    /** Throws not_found unless the calendar exists in the actor's workspace. */
    async ensureExists(actor: Actor, id: string): Promise<void> {
      await find(actor, id);
    },

    get: async (actor: Actor, id: string): Promise<Calendar> => toCalendar(await find(actor, id)),

    async list(actor: Actor, page: Page): Promise<PageOf<Calendar>> {
      const { rows, total } = await calendars.list(actor.workspaceId, page);
      return { rows: rows.map(toCalendar), total };
    },

    async create(actor: Actor, input: CalendarInput): Promise<Calendar> {
      const rules = await checkCalendarRules({ timezone: input.timezone, hours: input.hours, holidays: input.holidays ?? [] });
      const now = clock.now();
      const row: CalendarRow = {
        id: newId(), workspace_id: actor.workspaceId, name: input.name, timezone: rules.timezone!,
        hours: JSON.stringify(rules.hours), holidays: JSON.stringify(rules.holidays), created_at: now, updated_at: now,
      };
      await inTransaction(db, async (work) => {
        await calendars.insert(row, work.tx);
        await audit.record(work, { actor, action: 'calendar.created', target_type: 'calendar', target_id: row.id });
      });
      return toCalendar(row);
    },

    /** updated_at moves only when something changes (hours and holidays compared as stored: sorted). */
    async update(actor: Actor, id: string, input: Partial<CalendarInput>): Promise<Calendar> {
      const { id: calendarId } = await find(actor, id);
      const rules = await checkCalendarRules(input);
      const { current, changes } = await updateUnderLock<CalendarRow, CalendarChanges>({ db, dialect, clock }, {
        lockKey: calendarLock(calendarId),
        read: (tx) => find(actor, calendarId, tx),
        wanted: {
          name: input.name, timezone: rules.timezone,
          hours: rules.hours && JSON.stringify(rules.hours), holidays: rules.holidays && JSON.stringify(rules.holidays),
        },
        async write(work, current, changes) {
          await calendars.update(actor.workspaceId, calendarId, changes, work.tx);
          await audit.record(work, {
            actor, action: 'calendar.updated', target_type: 'calendar', target_id: calendarId, changes: changesBetween(toCalendar(current), toCalendar({ ...current, ...changes })),
          });
        },
      });
      return toCalendar({ ...current, ...changes });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await inTransaction(db, async (work) => {
        const calendarId = parseUuid(id);
        if (!calendarId) throw notFound('calendar');
        await holdLock(dialect, work, calendarLock(calendarId));
        const { name } = await find(actor, calendarId, work.tx);
        const users = await slaPolicies.namesUsingCalendar(actor.workspaceId, calendarId, work.tx);
        if (users.length > 0) {
          throw new AppError('validation_error', `calendar "${name}" is used by ${users.length === 1 ? 'the SLA policy' : 'the SLA policies'} ` +
            `${users.map((policy) => `"${policy}"`).join(', ')}: give ${users.length === 1 ? 'it' : 'them'} another calendar (or none) first`);
        }
        await calendars.delete(actor.workspaceId, calendarId, work.tx);
        await audit.record(work, { actor, action: 'calendar.deleted', target_type: 'calendar', target_id: calendarId });
      });
    },

    /**
     * The instant `seconds` of the calendar's open time after `from` (default: now). A calendar
     * never open, or not open that long within DUE_HORIZON_YEARS, is a validation_error on `seconds`.
     */
    async due(actor: Actor, id: string, query: { from?: string; seconds: number }): Promise<{ due_at: string }> {
      const calendar = toCalendar(await find(actor, id));
      let from: Temporal.Instant;
      try {
        from = Temporal.Instant.from(query.from ?? clock.now());
      } catch {
        throw invalidField('from', 'must be an RFC 3339 instant with its offset (e.g. 2026-03-27T16:30:00Z)');
      }
      const schedule = scheduleOf(calendar);
      const at = addBusinessSeconds(schedule, from, query.seconds);
      if (at === null || at.epochMilliseconds > LAST_SHOWABLE_MS) {
        throw invalidField('seconds', schedule.weekMs === 0
          ? `calendar "${calendar.name}" has no open hours: no open time ever passes`
          : `calendar "${calendar.name}" is not open for ${query.seconds} s within ${DUE_HORIZON_YEARS} years of from`);
      }
      return { due_at: new Date(at.epochMilliseconds).toISOString() };
    },
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;
