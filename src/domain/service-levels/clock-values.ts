// What a stopped SLA clock measured, as the reports read it (docs/reports.md, "Business hours"):
// its length in seconds, and the same counted in business hours — in the calendar of the SLA policy
// it was measured by, else in the default calendar (LOOPDESK_DEFAULT_CALENDAR, a calendar's name in
// the workspace), else round the clock. The clocks' write path and `loopdesk reports rebuild` both
// measure through here, so a rebuild writes what live writing wrote.
import { Temporal } from 'temporal-polyfill';
import type { CalendarRepository, CalendarRow } from '../../db/repositories/service-levels/calendar.repository.js';
import type { SlaPolicyRepository } from '../../db/repositories/service-levels/sla-policy.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import { businessSecondsBetween, scheduleOf, type Schedule, type WeeklyHours } from './business-time.js';

export interface ClockValues {
  value_seconds: number;
  business_seconds: number;
}

/** A calendar's rules as business time reads them. */
export const scheduleOfCalendar = (calendar: Pick<CalendarRow, 'timezone' | 'hours' | 'holidays'>): Schedule =>
  scheduleOf({ timezone: calendar.timezone, hours: JSON.parse(calendar.hours) as WeeklyHours, holidays: JSON.parse(calendar.holidays) as string[] });

/** Whole seconds, so that every figure a report derives from them is exact. */
const wholeSeconds = (seconds: number) => Math.round(seconds);

/** A clock's values between its start and its stop; round the clock when `schedule` is null. */
export function clockValuesOf(startedAt: string, stoppedAt: string, schedule: Schedule | null): ClockValues {
  const value = wholeSeconds(Math.max(0, Date.parse(stoppedAt) - Date.parse(startedAt)) / 1000);
  if (schedule === null) return { value_seconds: value, business_seconds: value };
  const business = businessSecondsBetween(schedule, Temporal.Instant.from(startedAt), Temporal.Instant.from(stoppedAt));
  return { value_seconds: value, business_seconds: wholeSeconds(business) };
}

export interface ClockMeasuresDeps {
  slaPolicies: Pick<SlaPolicyRepository, 'findById'>;
  calendars: Pick<CalendarRepository, 'findById' | 'findByName'>;
  /** LOOPDESK_DEFAULT_CALENDAR: the name of the calendar durations are counted in when no policy's calendar applies; null: none. */
  defaultCalendar: string | null;
}

export function createClockMeasures({ slaPolicies, calendars, defaultCalendar }: ClockMeasuresDeps) {
  return {
    /** The business hours a clock measured by `policyId` is counted in; null: round the clock. */
    async scheduleFor(workspaceId: string, policyId: string | null, tx: Executor): Promise<Schedule | null> {
      const policy = policyId === null ? null : await slaPolicies.findById(workspaceId, policyId, tx);
      const calendar = policy?.calendar_id
        ? await calendars.findById(workspaceId, policy.calendar_id, tx)
        : defaultCalendar === null ? null : await calendars.findByName(workspaceId, defaultCalendar, tx);
      return calendar ? scheduleOfCalendar(calendar) : null;
    },
  };
}

export type ClockMeasures = ReturnType<typeof createClockMeasures>;
