// What a calendar's rules may hold (docs/service-levels.md), checked beyond what the request schema
// says: each day's intervals in order and apart, holidays real dates named once, a zone the time
// zone data knows. Errors name the field as the client sent it (`hours.mon`, `holidays`, `timezone`).
import { Temporal } from 'temporal-polyfill';
import { checkAll, invalidField } from '../../errors.js';
import { ianaTimeZone } from '../accounts/member-settings.js';
import { WEEKDAYS, minutesOf, type CalendarRules, type OpenInterval, type Weekday, type WeeklyHours } from './business-time.js';

/** Weekly hours as a request sends them, before they are checked: `[start, end]` pairs of `HH:MM`. */
export type HoursInput = Partial<Record<Weekday, readonly (readonly string[])[]>>;
export type CalendarRulesInput = { timezone?: string; hours?: HoursInput; holidays?: readonly string[] };

export const INTERVALS_PER_DAY_MAX = 4;
export const HOLIDAYS_MAX = 366;
/** `HH:MM` from 00:00 to 23:59. */
export const START_TIME_PATTERN = '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$';
/** `HH:MM` from 00:00 to 24:00 (midnight at the day's end). */
export const END_TIME_PATTERN = '^(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]|24:00)$';
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

const startPattern = new RegExp(START_TIME_PATTERN);
const endPattern = new RegExp(END_TIME_PATTERN);

/** One day's intervals sorted by start; each starts before it ends, none overlaps the next (touching is fine). */
function dayIntervals(day: string, intervals: readonly (readonly string[])[]): OpenInterval[] {
  const field = `hours.${day}`;
  for (const [start, end] of intervals) {
    if (!startPattern.test(start)) throw invalidField(field, `"${start}" is not a start time (HH:MM, 00:00–23:59)`);
    if (!endPattern.test(end)) throw invalidField(field, `"${end}" is not an end time (HH:MM, 00:00–24:00)`);
    if (minutesOf(start) >= minutesOf(end)) throw invalidField(field, `${start}–${end} does not start before it ends`);
  }
  const sorted = [...intervals].sort((x, y) => minutesOf(x[0]) - minutesOf(y[0]));
  for (let i = 1; i < sorted.length; i++) {
    const [previous, next] = [sorted[i - 1]!, sorted[i]!];
    if (minutesOf(next[0]) < minutesOf(previous[1])) throw invalidField(field, `${previous[0]}–${previous[1]} and ${next[0]}–${next[1]} overlap`);
  }
  return sorted.map(([start, end]) => [start!, end!]);
}

/** Holidays as stored: real calendar dates, each once, in date order. */
export function normalizeHolidays(holidays: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const date of holidays) {
    let valid = new RegExp(DATE_PATTERN).test(date);
    try {
      if (valid) Temporal.PlainDate.from(date, { overflow: 'reject' });
    } catch {
      valid = false;
    }
    if (!valid) throw invalidField('holidays', `"${date.slice(0, 20)}" is not a date (YYYY-MM-DD)`);
    if (seen.has(date)) throw invalidField('holidays', `${date} is listed twice`);
    seen.add(date);
  }
  return [...seen].sort();
}

/**
 * Every given part of a calendar's rules checked and normalized, all problems in one
 * validation_error (each day's on its own field). Hours as stored: days in week order, each
 * sorted; a day without intervals is left out (closed).
 */
export async function checkCalendarRules(rules: CalendarRulesInput): Promise<Partial<CalendarRules>> {
  const { timezone, hours, holidays } = rules;
  const openDays = WEEKDAYS.filter((day) => (hours?.[day]?.length ?? 0) > 0);
  const [checkedZone, checkedHolidays, ...days] = await checkAll([
    () => (timezone === undefined ? undefined : ianaTimeZone(timezone, 'timezone')!),
    () => (holidays === undefined ? undefined : normalizeHolidays(holidays)),
    ...openDays.map((day) => () => dayIntervals(day, hours![day]!)),
  ]);
  return {
    ...(checkedZone !== undefined && { timezone: checkedZone as string }),
    ...(hours !== undefined && { hours: Object.fromEntries(openDays.map((day, i) => [day, days[i]])) as WeeklyHours }),
    ...(checkedHolidays !== undefined && { holidays: checkedHolidays as string[] }),
  };
}
