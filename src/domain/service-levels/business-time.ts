// Business time (docs/service-levels.md): how much of a calendar's open time lies between two
// instants, and the instant when a given amount of it has passed. Everything is computed in the
// calendar's own time zone through Temporal (temporal-polyfill), never the server's, and no offset
// is ever assumed: a wall-clock time becomes an instant only through the zone's rules.
//
// The rule for wall-clock times a daylight-saving change makes odd: `HH:MM` on a date means the
// first instant at which the calendar's clock shows that time or later. A time the clock skips (in
// the spring gap) is the instant of the jump; a time it shows twice (the autumn fold) is its first
// showing. An interval counts its real length between those instants: 01:00–04:00 on the night
// the clock goes forward is two hours, on the night it goes back four.
//
// The work per call is bounded by the irregular days it meets, not by the length of time it
// covers: a run of ordinary days (no holiday, no offset change) is crossed in one step by adding
// up each weekday's open time, and only the days a change or a holiday touches are walked.
import { Temporal } from 'temporal-polyfill';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** `["09:00", "17:00"]`: open from the first time to the second, local; `24:00` ends at midnight. */
export type OpenInterval = [start: string, end: string];
/** Open intervals per weekday; a weekday left out (or with none) is closed. */
export type WeeklyHours = Partial<Record<Weekday, OpenInterval[]>>;

export interface CalendarRules {
  /** An IANA time zone name. */
  timezone: string;
  hours: WeeklyHours;
  /** Local dates (`YYYY-MM-DD`) closed all day. */
  holidays: readonly string[];
}

/** The longest open time a due time or a target may ask for: 365 days, in seconds. */
export const SECONDS_MAX = 365 * 24 * 3600;

/** The furthest a due time is searched for: a calendar open a few minutes a week may never reach a long target in practice. */
export const DUE_HORIZON_YEARS = 100;

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

/** A calendar made ready for arithmetic: minutes of the day per weekday (Monday first), holidays sorted. */
export interface Schedule {
  readonly timeZone: string;
  /** Per ISO weekday - 1: open [start, end) in minutes of the local day (end up to 1440). */
  readonly minutes: readonly (readonly (readonly [number, number])[])[];
  /** Per ISO weekday - 1: the open time of an ordinary day, in milliseconds. */
  readonly dayMs: readonly number[];
  readonly weekMs: number;
  readonly holidays: readonly string[];
  readonly holidaySet: ReadonlySet<string>;
}

/** Minutes since midnight of `HH:MM` (`24:00` is 1440). */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The calendar ready for the functions below; its rules are taken as valid (calendar-rules.ts checks them). */
export function scheduleOf({ timezone, hours, holidays }: CalendarRules): Schedule {
  const minutes = WEEKDAYS.map((day) => (hours[day] ?? []).map(([start, end]) => [minutesOf(start), minutesOf(end)] as const).sort((x, y) => x[0] - y[0]));
  const dayMs = minutes.map((intervals) => intervals.reduce((sum, [start, end]) => sum + (end - start) * MINUTE_MS, 0));
  const sorted = [...new Set(holidays)].sort();
  return { timeZone: timezone, minutes, dayMs, weekMs: dayMs.reduce((a, b) => a + b, 0), holidays: sorted, holidaySet: new Set(sorted) };
}

/** The local date of an instant in the zone. */
const localDate = (epochMs: number, timeZone: string): Temporal.PlainDate =>
  Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone).toPlainDate();

/** The first instant at which the zone's clock shows `minute` of `date` or later (see the rule above). */
function instantAt(date: Temporal.PlainDate, minute: number, timeZone: string): number {
  if (minute === DAY_MINUTES) return date.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds;
  const wall = date.toPlainDateTime({ hour: Math.floor(minute / 60), minute: minute % 60 });
  const earlier = wall.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  if (earlier.toPlainDateTime().equals(wall)) return earlier.epochMilliseconds;
  // Skipped by the clock: `earlier` lies before the jump, which is when this time is passed.
  return earlier.getTimeZoneTransition('next')!.epochMilliseconds;
}

/**
 * Finds the next date, from a given one on, whose open time may differ from its weekday's: a
 * holiday, or a day an offset change touches (the day of the change and the one before, so that
 * a change at midnight is caught on either side). Transitions are looked up lazily and cached.
 */
function irregularDates(schedule: Schedule) {
  let holidayIndex = 0;
  // The next transition's dates, valid for dates up to `transitionDates[1]`; null when the zone has no more.
  let transitionDates: [Temporal.PlainDate, Temporal.PlainDate] | null | undefined;
  const { timeZone } = schedule;

  function nextTransition(date: Temporal.PlainDate): Temporal.PlainDate | null {
    if (transitionDates === null) return null;
    if (transitionDates === undefined || Temporal.PlainDate.compare(transitionDates[1], date) < 0) {
      // From just before the day's start, so that a change exactly at midnight is found too.
      const dayStart = date.toZonedDateTime({ timeZone }).subtract({ milliseconds: 1 });
      const transition = dayStart.getTimeZoneTransition('next');
      if (!transition) return (transitionDates = null);
      const at = transition.epochMilliseconds;
      transitionDates = [localDate(at - 1, timeZone), localDate(at, timeZone)];
    }
    const [before, after] = transitionDates;
    return Temporal.PlainDate.compare(before, date) >= 0 ? before : after;
  }

  return (date: Temporal.PlainDate): Temporal.PlainDate | null => {
    const iso = date.toString();
    while (holidayIndex < schedule.holidays.length && schedule.holidays[holidayIndex]! < iso) holidayIndex++;
    const holiday = holidayIndex < schedule.holidays.length ? Temporal.PlainDate.from(schedule.holidays[holidayIndex]!) : null;
    const transition = nextTransition(date);
    if (!holiday || !transition) return holiday ?? transition;
    return Temporal.PlainDate.compare(holiday, transition) <= 0 ? holiday : transition;
  };
}

/**
 * How many ordinary days from `date` on (at most `limit`) can be crossed without using up `budget`
 * (strictly less: the day where the budget ends is walked exactly), and their open time.
 */
function ordinaryStretch(schedule: Schedule, date: Temporal.PlainDate, limit: number, budget: number): { days: number; ms: number } {
  const { weekMs, dayMs } = schedule;
  const weeks = Math.min(Math.floor(limit / 7), weekMs === 0 ? Infinity : Math.floor((budget - 1) / weekMs));
  let days = weeks * 7;
  let ms = weeks * weekMs;
  for (let weekday = date.dayOfWeek - 1; days < limit; weekday = (weekday + 1) % 7) {
    const next = dayMs[weekday]!;
    if (ms + next >= budget) break;
    ms += next;
    days++;
  }
  return { days, ms };
}

const daysFrom = (from: Temporal.PlainDate, to: Temporal.PlainDate): number => from.until(to, { largestUnit: 'days' }).days;

/**
 * Walks the calendar's open time from `from` until `budget` milliseconds of it have passed or the
 * instant `until` is reached, whichever comes first; the instant it stopped at and the open time it counted.
 */
function walk(schedule: Schedule, from: number, until: number, budget: number): { at: number; counted: number } {
  const { timeZone } = schedule;
  const untilDate = localDate(until, timeZone);
  const nextIrregular = irregularDates(schedule);
  let date = localDate(from, timeZone);
  let counted = 0;
  for (let first = true; ; first = false) {
    // Whole ordinary days after the first, before the last (its intervals are cut at `until`).
    if (!first) {
      const irregular = nextIrregular(date);
      const limit = Math.min(irregular ? daysFrom(date, irregular) : Infinity, daysFrom(date, untilDate));
      const stretch = limit > 0 ? ordinaryStretch(schedule, date, limit, budget - counted) : { days: 0, ms: 0 };
      if (stretch.days > 0) {
        counted += stretch.ms;
        date = date.add({ days: stretch.days });
        continue;
      }
    }
    if (!schedule.holidaySet.has(date.toString())) {
      for (const [startMinute, endMinute] of schedule.minutes[date.dayOfWeek - 1]!) {
        const start = Math.max(instantAt(date, startMinute, timeZone), from);
        const end = Math.min(instantAt(date, endMinute, timeZone), until);
        if (end <= start) continue;
        if (counted + (end - start) >= budget) return { at: start + (budget - counted), counted: budget };
        counted += end - start;
      }
    }
    if (Temporal.PlainDate.compare(date, untilDate) >= 0) return { at: until, counted };
    date = date.add({ days: 1 });
  }
}

/**
 * The instant when `seconds` of open time have passed since `from` (`from` itself for 0); null
 * when the calendar has no open time at all, or not that much within DUE_HORIZON_YEARS.
 */
export function addBusinessSeconds(schedule: Schedule, from: Temporal.Instant, seconds: number): Temporal.Instant | null {
  if (seconds === 0) return from;
  if (schedule.weekMs === 0) return null;
  const horizon = from.toZonedDateTimeISO(schedule.timeZone).add({ years: DUE_HORIZON_YEARS }).epochMilliseconds;
  const budget = seconds * 1000;
  const { at, counted } = walk(schedule, from.epochMilliseconds, horizon, budget);
  return counted < budget ? null : Temporal.Instant.fromEpochMilliseconds(at);
}

/** The open time between two instants, in seconds (to the millisecond); 0 when `to` is not after `from`. */
export function businessSecondsBetween(schedule: Schedule, from: Temporal.Instant, to: Temporal.Instant): number {
  if (Temporal.Instant.compare(to, from) <= 0 || schedule.weekMs === 0) return 0;
  return walk(schedule, from.epochMilliseconds, to.epochMilliseconds, Infinity).counted / 1000;
}
