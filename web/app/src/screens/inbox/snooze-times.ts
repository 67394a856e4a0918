// When a snooze ends, in the member's own time zone (GET /me's time_zone; without one, the
// browser's). Temporal (temporal-polyfill) does the calendar, daylight saving time included: no
// hours are added to a UTC time by hand. It is loaded on first use, so the app's first load stays
// small (scripts/first-load-budget.ts).

export type SnoozeChoice = 'later' | 'tomorrow' | 'next-week';

export const SNOOZE_CHOICES: [SnoozeChoice, string][] = [
  ['later', 'Later today (in 3 hours)'],
  ['tomorrow', 'Tomorrow 9:00 (Z)'],
  ['next-week', 'Next week (Monday 9:00)'],
];

/** The hour a morning snooze ends, on the member's wall clock. */
const MORNING = { hour: 9 };

/** The instant a choice means now, as ISO 8601 with the zone's offset then (`2026-11-22T09:00:00+01:00`). */
export async function snoozeInstant(choice: SnoozeChoice, timeZone: string | null): Promise<string> {
  const { Temporal } = await import('temporal-polyfill');
  const zone = timeZone ?? Temporal.Now.timeZoneId();
  const now = Temporal.Now.zonedDateTimeISO(zone);
  const today = now.toPlainDate();
  const morning = (date: InstanceType<typeof Temporal.PlainDate>) => date.toZonedDateTime({ timeZone: zone, plainTime: MORNING });
  const until = choice === 'later' ? now.add({ hours: 3 }).round({ smallestUnit: 'minute', roundingMode: 'ceil' })
    : choice === 'tomorrow' ? morning(today.add({ days: 1 }))
    // The coming Monday (a week ahead on a Monday): dayOfWeek counts Monday as 1.
    : morning(today.add({ days: 8 - now.dayOfWeek }));
  return until.toString({ timeZoneName: 'never' });
}

/** "Tue, Nov 22, 09:00", on the member's wall clock. */
export const wakeLabel = (iso: string, timeZone: string | null): string =>
  new Intl.DateTimeFormat('en', {
    weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
