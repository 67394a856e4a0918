// The Reports screen's state lives in its URL (reload and share keep it): the window — the last 7,
// 30 or 90 days, or custom dates — and the conversations' filters. Windows are whole local days in
// the member's time zone (else the browser's), today included, so a window's figures line up with
// its day buckets; the bucket size follows the window's length.
import { Temporal } from 'temporal-polyfill';

export const RANGES: [string, string][] = [['7d', 'Last 7 days'], ['30d', 'Last 30 days'], ['90d', 'Last 90 days'], ['custom', 'Custom dates']];
const RANGE_DAYS: Record<string, number> = { '7d': 7, '30d': 30, '90d': 90 };
export const DEFAULT_RANGE = '7d';

/** The filters of the reports, named as the API names them. */
export const FILTER_KEYS = ['product_id', 'assignee_id', 'tag', 'type', 'source', 'business_hours'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export type Interval = 'hour' | 'day' | 'week';

export interface ReportWindow {
  /** `7d`, `30d`, `90d` or `custom`. */
  range: string;
  /** The first and last local day (YYYY-MM-DD), both included. */
  fromDate: string;
  toDate: string;
  /** The instants the API is asked for: the first day's midnight, the midnight after the last day. */
  from: string;
  to: string;
  interval: Interval;
  timeZone: string;
}

export type WindowOrError = ReportWindow | { error: string };

const isDate = (text: string | null): text is string => text !== null && /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text));

/** The window the query names (`range`, or `from` and `to` dates for custom), in `timeZone`. */
export function reportWindow(query: URLSearchParams, timeZone: string, today = Temporal.Now.plainDateISO(timeZone)): WindowOrError {
  const custom = query.has('from') || query.has('to');
  let first: Temporal.PlainDate;
  let last: Temporal.PlainDate;
  if (custom) {
    const from = query.get('from');
    const to = query.get('to');
    if (!isDate(from) || !isDate(to)) return { error: 'Pick both dates of the custom window.' };
    first = Temporal.PlainDate.from(from);
    last = Temporal.PlainDate.from(to);
    if (Temporal.PlainDate.compare(first, last) > 0) return { error: 'The window\'s first day is after its last day.' };
  } else {
    last = today;
    first = today.subtract({ days: (RANGE_DAYS[query.get('range') ?? DEFAULT_RANGE] ?? RANGE_DAYS[DEFAULT_RANGE]) - 1 });
  }
  const start = first.toZonedDateTime({ timeZone });
  const end = last.add({ days: 1 }).toZonedDateTime({ timeZone });
  const hours = start.until(end, { largestUnit: 'hours' }).hours;
  const days = first.until(last).days + 1;
  return {
    range: custom ? 'custom' : RANGE_DAYS[query.get('range') ?? ''] ? query.get('range')! : DEFAULT_RANGE,
    fromDate: first.toString(),
    toDate: last.toString(),
    from: start.toInstant().toString(),
    to: end.toInstant().toString(),
    interval: hours <= 48 ? 'hour' : days <= 90 ? 'day' : 'week',
    timeZone,
  };
}

/** The API's query for a window and the URL's filters (what the CSV link carries too). */
export function apiQuery(window: ReportWindow, query: URLSearchParams): Record<string, string> {
  const params: Record<string, string> = { from: window.from, to: window.to };
  for (const key of FILTER_KEYS) {
    const value = query.get(key);
    if (value) params[key] = value;
  }
  return params;
}
