// The buckets of a report's time series (docs/reports.md, "Time series"): each starts at a local
// hour, midnight or Monday midnight in the asked time zone, and the next starts one local interval
// later, so a day of a daylight-saving change lasts 23 or 25 hours. Computed with Temporal, never by
// adding hours to UTC.
import { Temporal } from 'temporal-polyfill';

export const REPORT_INTERVALS = ['hour', 'day', 'week'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** The most buckets one series answers (a year of days, or a month of hours). */
export const BUCKETS_MAX = 1000;

/** The start of the bucket `instant` falls in. */
function bucketStart(at: Temporal.ZonedDateTime, interval: ReportInterval): Temporal.ZonedDateTime {
  if (interval === 'hour') return at.round({ smallestUnit: 'hour', roundingMode: 'floor' });
  const midnight = at.startOfDay();
  return interval === 'day' ? midnight : midnight.subtract({ days: midnight.dayOfWeek - 1 }).startOfDay();
}

const STEP: Record<ReportInterval, Temporal.DurationLike> = { hour: { hours: 1 }, day: { days: 1 }, week: { weeks: 1 } };

/**
 * The starts (epoch milliseconds) of the buckets covering [from, to): the first holds `from`, the
 * last starts before `to`. Null when there would be more than BUCKETS_MAX.
 */
export function bucketStarts(from: string, to: string, interval: ReportInterval, timeZone: string): number[] | null {
  const end = Date.parse(to);
  const starts: number[] = [];
  if (Date.parse(from) >= end) return starts; // an empty window has no bucket
  let start = bucketStart(Temporal.Instant.from(from).toZonedDateTimeISO(timeZone), interval);
  while (start.epochMilliseconds < end) {
    if (starts.length === BUCKETS_MAX) return null;
    starts.push(start.epochMilliseconds);
    // An hour step in zoned time is an exact hour; a day's or week's lands on the local midnight.
    start = interval === 'hour' ? start.add(STEP.hour) : bucketStart(start.add(STEP[interval]), interval);
  }
  return starts;
}

/** The index of the bucket the instant `time` (epoch milliseconds) falls in (starts ascending; `time` at or after the first start). */
export function bucketIndex(starts: readonly number[], time: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= time) low = middle;
    else high = middle - 1;
  }
  return low;
}
