// Business time (src/domain/service-levels/business-time.ts): due times and open time between two
// instants, in the calendar's zone, across daylight-saving changes both ways, 30-minute offsets,
// changes at midnight, holidays, 24:00 ends and every boundary.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Temporal } from 'temporal-polyfill';
import {
  DUE_HORIZON_YEARS, addBusinessSeconds, businessSecondsBetween, scheduleOf, type WeeklyHours,
} from '../../src/domain/service-levels/business-time.js';

const HOUR = 3600;
const WEEKDAYS_9_TO_5: WeeklyHours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, [['09:00', '17:00']]]));

const calendar = (timezone: string, hours: WeeklyHours, holidays: string[] = []) => scheduleOf({ timezone, hours, holidays });
const instant = (iso: string) => Temporal.Instant.from(iso);
const iso = (at: Temporal.Instant | null) => (at === null ? null : new Date(at.epochMilliseconds).toISOString());
const due = (schedule: ReturnType<typeof scheduleOf>, from: string, seconds: number) => iso(addBusinessSeconds(schedule, instant(from), seconds));
const between = (schedule: ReturnType<typeof scheduleOf>, from: string, to: string) => businessSecondsBetween(schedule, instant(from), instant(to));

describe('business time at the boundaries of an open interval (Berlin, 09:00–17:00 CET = 08:00–16:00Z on Monday 5 January 2026)', () => {
  const office = calendar('Europe/Berlin', WEEKDAYS_9_TO_5);
  const cases: [what: string, from: string, seconds: number, expected: string][] = [
    ['0 seconds from inside the hours is `from`', '2026-01-05T12:00:00.000Z', 0, '2026-01-05T12:00:00.000Z'],
    ['0 seconds from outside the hours is `from` too', '2026-01-03T12:00:00.000Z', 0, '2026-01-03T12:00:00.000Z'],
    ['1 s from the opening instant', '2026-01-05T08:00:00.000Z', 1, '2026-01-05T08:00:01.000Z'],
    ['1 s from just before the opening', '2026-01-05T07:59:59.000Z', 1, '2026-01-05T08:00:01.000Z'],
    ['1 s from just after the opening', '2026-01-05T08:00:01.000Z', 1, '2026-01-05T08:00:02.000Z'],
    ['1 s from just before the closing ends at the closing, not the next morning', '2026-01-05T15:59:59.000Z', 1, '2026-01-05T16:00:00.000Z'],
    ['1 s from the closing instant is the next opening plus 1 s', '2026-01-05T16:00:00.000Z', 1, '2026-01-06T08:00:01.000Z'],
    ['1 s from just after the closing', '2026-01-05T16:00:01.000Z', 1, '2026-01-06T08:00:01.000Z'],
    ['the rest of the day exactly ends at the closing', '2026-01-05T12:00:00.000Z', 4 * HOUR, '2026-01-05T16:00:00.000Z'],
    ['one second more runs into the next morning', '2026-01-05T12:00:00.000Z', 4 * HOUR + 1, '2026-01-06T08:00:01.000Z'],
    ['a whole day from the opening ends at its closing', '2026-01-05T08:00:00.000Z', 8 * HOUR, '2026-01-05T16:00:00.000Z'],
    ['from Friday evening to Monday', '2026-01-09T15:00:00.000Z', 2 * HOUR, '2026-01-12T09:00:00.000Z'],
    ['from a Saturday', '2026-01-10T10:00:00.000Z', HOUR, '2026-01-12T09:00:00.000Z'],
    ['milliseconds of `from` are kept', '2026-01-05T08:00:00.250Z', 1, '2026-01-05T08:00:01.250Z'],
  ];
  for (const [what, from, seconds, expected] of cases) it(what, () => assert.equal(due(office, from, seconds), expected));

  it('counts the open time between instants at, before and after the boundaries', () => {
    assert.equal(between(office, '2026-01-05T08:00:00Z', '2026-01-05T16:00:00Z'), 8 * HOUR);
    assert.equal(between(office, '2026-01-05T07:00:00Z', '2026-01-05T17:00:00Z'), 8 * HOUR);
    assert.equal(between(office, '2026-01-05T08:00:01Z', '2026-01-05T15:59:59Z'), 8 * HOUR - 2);
    assert.equal(between(office, '2026-01-05T16:00:00Z', '2026-01-06T08:00:00Z'), 0);
    assert.equal(between(office, '2026-01-05T12:00:00.500Z', '2026-01-05T12:00:01Z'), 0.5);
    assert.equal(between(office, '2026-01-09T12:00:00Z', '2026-01-12T12:00:00Z'), 8 * HOUR);
  });

  it('counts nothing when `to` is not after `from`', () => {
    assert.equal(between(office, '2026-01-05T12:00:00Z', '2026-01-05T12:00:00Z'), 0);
    assert.equal(between(office, '2026-01-05T13:00:00Z', '2026-01-05T12:00:00Z'), 0);
  });
});

describe('business time across daylight-saving changes', () => {
  it('Berlin, spring: 01:00–04:00 on the night of the gap is two real hours', () => {
    const nights = calendar('Europe/Berlin', { sun: [['01:00', '04:00']] });
    // 01:00 CET = 00:00Z; 04:00 CEST = 02:00Z.
    assert.equal(between(nights, '2026-03-28T12:00:00Z', '2026-03-30T00:00:00Z'), 2 * HOUR);
    assert.equal(due(nights, '2026-03-28T12:00:00Z', HOUR), '2026-03-29T01:00:00.000Z');
    assert.equal(due(nights, '2026-03-28T12:00:00Z', 2 * HOUR), '2026-03-29T02:00:00.000Z');
    // The next Sunday, in summer time: 01:00 CEST = 23:00Z the day before.
    assert.equal(due(nights, '2026-03-28T12:00:00Z', 2 * HOUR + 1), '2026-04-04T23:00:01.000Z');
  });

  it('Berlin, autumn: 01:00–04:00 on the night of the repeated hour is four real hours', () => {
    const nights = calendar('Europe/Berlin', { sun: [['01:00', '04:00']] });
    // 01:00 CEST = 23:00Z; 04:00 CET = 03:00Z.
    assert.equal(between(nights, '2026-10-24T12:00:00Z', '2026-10-26T00:00:00Z'), 4 * HOUR);
    assert.equal(due(nights, '2026-10-24T12:00:00Z', 4 * HOUR), '2026-10-25T03:00:00.000Z');
    // Inside the repeated hour, its second pass (02:30 CET = 01:30Z) still counts.
    assert.equal(due(nights, '2026-10-25T01:30:00Z', 30 * 60), '2026-10-25T02:00:00.000Z');
  });

  it('Berlin: a time the clock skips opens at the jump; one it shows twice counts from its first showing', () => {
    const skipped = calendar('Europe/Berlin', { sun: [['02:30', '05:00']] });
    // 02:30 does not exist on 29 March: open from the jump (03:00 CEST = 01:00Z) to 05:00 CEST = 03:00Z.
    assert.equal(between(skipped, '2026-03-28T00:00:00Z', '2026-03-30T00:00:00Z'), 2 * HOUR);
    assert.equal(due(skipped, '2026-03-28T00:00:00Z', 60), '2026-03-29T01:01:00.000Z');
    const folded = calendar('Europe/Berlin', { sun: [['00:00', '02:30']] });
    // 00:00 CEST = 22:00Z; 02:30 first shows at 00:30Z (CEST).
    assert.equal(between(folded, '2026-10-24T00:00:00Z', '2026-10-26T00:00:00Z'), 2.5 * HOUR);
  });

  it('New York, spring and autumn: the same intervals, two and four hours', () => {
    const nights = calendar('America/New_York', { sun: [['01:00', '04:00']] });
    assert.equal(between(nights, '2026-03-07T12:00:00Z', '2026-03-09T00:00:00Z'), 2 * HOUR); // 06:00Z–08:00Z
    assert.equal(due(nights, '2026-03-07T12:00:00Z', 2 * HOUR), '2026-03-08T08:00:00.000Z');
    assert.equal(between(nights, '2026-10-31T12:00:00Z', '2026-11-02T00:00:00Z'), 4 * HOUR); // 05:00Z–09:00Z
    assert.equal(due(nights, '2026-10-31T12:00:00Z', 3 * HOUR), '2026-11-01T08:00:00.000Z');
  });

  it('New York: office hours stay 09:00–17:00 local on both sides of a change', () => {
    const office = calendar('America/New_York', WEEKDAYS_9_TO_5);
    // Friday 6 March 16:00 EST (21:00Z) + 2 h: one hour on Friday, one on Monday from 09:00 EDT (13:00Z).
    assert.equal(due(office, '2026-03-06T21:00:00Z', 2 * HOUR), '2026-03-09T14:00:00.000Z');
    // Friday 30 October 16:00 EDT (20:00Z) + 2 h: Monday 2 November 10:00 EST (15:00Z).
    assert.equal(due(office, '2026-10-30T20:00:00Z', 2 * HOUR), '2026-11-02T15:00:00.000Z');
    assert.equal(between(office, '2026-03-02T00:00:00Z', '2026-03-14T00:00:00Z'), 10 * 8 * HOUR);
  });

  it('Lord Howe, whose clock moves by 30 minutes: 01:00–03:00 is 2 h 30 in April and 1 h 30 in October', () => {
    const nights = calendar('Australia/Lord_Howe', { sun: [['01:00', '03:00']] });
    // 5 April: 01:00 (+11) = 14:00Z, 03:00 (+10:30) = 16:30Z.
    assert.equal(between(nights, '2026-04-04T00:00:00Z', '2026-04-05T00:00:00Z'), 2.5 * HOUR);
    assert.equal(due(nights, '2026-04-04T00:00:00Z', 2.5 * HOUR), '2026-04-04T16:30:00.000Z');
    // 4 October: 01:00 (+10:30) = 14:30Z, 03:00 (+11) = 16:00Z.
    assert.equal(between(nights, '2026-10-03T00:00:00Z', '2026-10-04T00:00:00Z'), 1.5 * HOUR);
    // The next Sunday, in summer time: 01:00 (+11) = 14:00Z.
    assert.equal(due(nights, '2026-10-03T00:00:00Z', 1.5 * HOUR + 1), '2026-10-10T14:00:01.000Z');
  });

  it('Santiago, whose clock changes at midnight: 24:00 and 00:00 follow the day that really starts', () => {
    const nights = calendar('America/Santiago', { sat: [['22:00', '24:00']], sun: [['00:00', '02:00']] });
    // 6 September: the clock jumps from 00:00 to 01:00; Saturday 22:00–24:00 = 02:00Z–04:00Z, Sunday until 02:00 (-03) = 05:00Z.
    assert.equal(between(nights, '2026-09-05T12:00:00Z', '2026-09-07T00:00:00Z'), 3 * HOUR);
    assert.equal(due(nights, '2026-09-05T12:00:00Z', 2.5 * HOUR), '2026-09-06T04:30:00.000Z');
    // 5 April: 24:00 is 00:00 (-04) after the repeated hour: Saturday 01:00Z–04:00Z, Sunday 04:00Z–06:00Z.
    assert.equal(between(nights, '2026-04-04T12:00:00Z', '2026-04-06T00:00:00Z'), 5 * HOUR);
  });

  it('Kolkata (+05:30, no daylight saving): local hours at a half-hour offset', () => {
    const office = calendar('Asia/Kolkata', WEEKDAYS_9_TO_5);
    // Monday 08:30 IST (03:00Z) + 1 h: 10:00 IST = 04:30Z.
    assert.equal(due(office, '2026-01-05T03:00:00Z', HOUR), '2026-01-05T04:30:00.000Z');
    assert.equal(between(office, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'), 261 * 8 * HOUR);
  });
});

describe('business time with holidays, midnight and sparse hours', () => {
  it('skips holidays, whole local days', () => {
    const office = calendar('Europe/Berlin', WEEKDAYS_9_TO_5, ['2026-12-24', '2026-12-25']);
    // Wednesday 23 December 16:00 CET + 2 h: one hour then, one on Monday 28th (Thursday and Friday are holidays).
    assert.equal(due(office, '2026-12-23T15:00:00Z', 2 * HOUR), '2026-12-28T09:00:00.000Z');
    assert.equal(between(office, '2026-12-21T00:00:00Z', '2026-12-28T00:00:00Z'), 3 * 8 * HOUR);
  });

  it('a holiday is a local date: in Kolkata it closes 18:30Z to 18:30Z', () => {
    const roundTheClock = calendar('Asia/Kolkata', Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['00:00', '24:00']]])), ['2026-01-26']);
    assert.equal(due(roundTheClock, '2026-01-25T18:00:00Z', HOUR), '2026-01-26T19:00:00.000Z');
  });

  it('runs from 24:00 into the next day\'s 00:00 without a gap', () => {
    const lateShift = calendar('Europe/Berlin', { mon: [['22:00', '24:00']], tue: [['00:00', '06:00']] });
    // Monday 23:00 CET (22:00Z) + 3 h: Tuesday 02:00 CET = 01:00Z.
    assert.equal(due(lateShift, '2026-01-05T22:00:00Z', 3 * HOUR), '2026-01-06T01:00:00.000Z');
    assert.equal(due(lateShift, '2026-01-05T21:00:00Z', HOUR), '2026-01-05T22:00:00.000Z');
    assert.equal(between(lateShift, '2026-01-05T00:00:00Z', '2026-01-07T00:00:00Z'), 8 * HOUR);
  });

  it('a calendar open one day a week waits for that day', () => {
    const wednesdays = calendar('Europe/Berlin', { wed: [['10:00', '12:00']] });
    // Thursday 8 January: 2 h on Wednesday 14th, 1 h on Wednesday 21st (10:00 CET = 09:00Z).
    assert.equal(due(wednesdays, '2026-01-08T10:00:00Z', 3 * HOUR), '2026-01-21T10:00:00.000Z');
    assert.equal(between(wednesdays, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'), 52 * 2 * HOUR);
  });

  it('adds many weeks exactly, across a change of offset and holidays', () => {
    const office = calendar('Europe/Berlin', WEEKDAYS_9_TO_5, ['2026-04-03', '2026-04-06']);
    // Monday 5 January 09:00 CET + 20 working weeks less the two holidays: Tuesday 26 May 17:00 CEST (15:00Z).
    assert.equal(due(office, '2026-01-05T08:00:00Z', 20 * 5 * 8 * HOUR), '2026-05-26T15:00:00.000Z');
    assert.equal(between(office, '2026-01-05T08:00:00Z', '2026-05-26T15:00:00Z'), 20 * 5 * 8 * HOUR);
  });

  it('a year of open time, the longest target, is found in a 40-hour week', () => {
    const office = calendar('America/New_York', WEEKDAYS_9_TO_5);
    const at = addBusinessSeconds(office, instant('2026-01-05T14:00:00Z'), 365 * 24 * HOUR);
    assert.ok(at);
    assert.equal(businessSecondsBetween(office, instant('2026-01-05T14:00:00Z'), at), 365 * 24 * HOUR);
    const local = at.toZonedDateTimeISO('America/New_York');
    assert.equal(local.toPlainTime().toString(), '17:00:00');
    assert.equal(local.year, 2030);
  });

  it('answers null for a calendar never open, and for one that cannot reach the target within the horizon', () => {
    assert.equal(addBusinessSeconds(calendar('UTC', {}), instant('2026-01-05T00:00:00Z'), 1), null);
    assert.equal(addBusinessSeconds(calendar('UTC', {}), instant('2026-01-05T00:00:00Z'), 0)?.toString(), '2026-01-05T00:00:00Z');
    const minuteAWeek = calendar('Europe/Berlin', { mon: [['09:00', '09:01']] });
    assert.equal(addBusinessSeconds(minuteAWeek, instant('2026-01-05T00:00:00Z'), 365 * 24 * HOUR), null);
    const weeks = DUE_HORIZON_YEARS * 52;
    assert.ok(addBusinessSeconds(minuteAWeek, instant('2026-01-05T00:00:00Z'), weeks * 60));
    assert.equal(between(calendar('UTC', {}), '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'), 0);
  });
});

describe('business time against a plain count, half hour by half hour', () => {
  // For hours on whole hours away from the changes, a half hour is open when its local wall clock at its start is in an interval.
  function hourlyCount(timeZone: string, hours: WeeklyHours, holidays: string[], from: string, to: string): number {
    const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
    let count = 0;
    for (let at = instant(from); Temporal.Instant.compare(at, instant(to)) < 0; at = at.add({ minutes: 30 })) {
      const local = at.toZonedDateTimeISO(timeZone);
      const time = local.toPlainTime().toString().slice(0, 5);
      const open = (hours[days[local.dayOfWeek - 1]!] ?? []).some(([start, end]) => start <= time && time < end);
      if (open && !holidays.includes(local.toPlainDate().toString())) count += HOUR / 2;
    }
    return count;
  }

  for (const timeZone of ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Adelaide']) {
    it(`agrees over a year in ${timeZone}, and every due time it gives counts back to its seconds`, () => {
      const hours: WeeklyHours = { ...WEEKDAYS_9_TO_5, sat: [['10:00', '12:00'], ['13:00', '15:00']] };
      const holidays = ['2026-01-01', '2026-05-01', '2026-12-25', '2026-12-26'];
      const schedule = calendar(timeZone, hours, holidays);
      const [from, to] = ['2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'];
      assert.equal(between(schedule, from, to), hourlyCount(timeZone, hours, holidays, from, to));
      for (let i = 1; i <= 40; i++) {
        const start = instant(from).add({ minutes: i * 211 * 60 + 15 });
        const seconds = i * 7919;
        const at = addBusinessSeconds(schedule, start, seconds)!;
        assert.equal(businessSecondsBetween(schedule, start, at), seconds, `${start} + ${seconds} s`);
        assert.equal(businessSecondsBetween(schedule, start, at.subtract({ milliseconds: 1 })), seconds - 0.001, `${start} + ${seconds} s is the first such instant`);
      }
    });
  }
});
