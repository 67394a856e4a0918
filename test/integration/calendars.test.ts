// /api/v1/calendars and GET /calendars/{id}/due (docs/service-levels.md): business hours in a
// time zone, with holidays; every member reads them and asks for due times, the settings role
// writes them; a calendar an SLA policy measures in cannot be deleted.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { describeEachDialect, unique, type Client } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { newPerson } from '../helpers/sessions.js';

const BASE = '/api/v1/calendars';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';
const NINE_TO_FIVE = { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '17:00']] };
const NOW = '2026-11-20T16:30:00.000Z';

async function createCalendar(api: Client, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post(BASE, { name: unique('Office'), timezone: 'Europe/Berlin', hours: NINE_TO_FIVE, ...overrides });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

describeEachDialect('calendars CRUD [ext]', (ctx) => {
  it('creates one (name trimmed, intervals sorted, holidays in date order) and reads it back by id and in the list', async () => {
    const res = await ctx().a.api.post(BASE, {
      name: '  Berlin office ', timezone: 'Europe/Berlin',
      hours: { mon: [['13:30', '17:00'], ['09:00', '12:30']], sat: [], sun: [['22:00', '24:00']] },
      holidays: ['2026-12-25', '2026-12-24'],
    });
    assert.equal(res.status, 201, res.text);
    const { id, created_at, ...rest } = res.body.data;
    assert.deepEqual(rest, {
      name: 'Berlin office', timezone: 'Europe/Berlin', hours: { mon: [['09:00', '12:30'], ['13:30', '17:00']], sun: [['22:00', '24:00']] },
      holidays: ['2026-12-24', '2026-12-25'], updated_at: created_at,
    });
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${id}`)).body.data, res.body.data);
    const second = await createCalendar(ctx().a.api);
    const list = await ctx().a.api.get(`${BASE}?limit=200`);
    const listed = list.body.data.map((calendar: any) => calendar.id);
    assert.ok(listed.indexOf(id) < listed.indexOf(second.id));
    assert.equal(list.body.pagination.total, listed.length);
  });

  it('takes holidays as optional (none) and 366 of them, adjacent intervals, and a day open round the clock', async () => {
    const calendar = await createCalendar(ctx().a.api, { hours: { tue: [['00:00', '12:00'], ['12:00', '24:00']] } });
    assert.deepEqual(calendar.holidays, []);
    const days = Array.from({ length: 366 }, (_, i) => new Date(Date.UTC(2028, 0, 1 + i)).toISOString().slice(0, 10));
    assert.equal((await createCalendar(ctx().a.api, { holidays: days })).holidays.length, 366);
  });

  it('PATCH replaces what it is given; updated_at moves only on an effective change', async () => {
    const calendar = await createCalendar(ctx().a.api, { holidays: ['2026-12-25'] });
    await sleep(5);
    const same = await ctx().a.api.patch(`${BASE}/${calendar.id}`, { name: calendar.name, hours: Object.fromEntries(Object.entries(NINE_TO_FIVE).reverse()), holidays: ['2026-12-25'] });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.data.updated_at, calendar.updated_at);
    const changed = await ctx().a.api.patch(`${BASE}/${calendar.id}`, { timezone: 'America/New_York', hours: { sat: [['10:00', '14:00']] }, holidays: [] });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.body.data.timezone, changed.body.data.hours, changed.body.data.holidays], ['America/New_York', { sat: [['10:00', '14:00']] }, []]);
    assert.equal(changed.body.data.name, calendar.name);
    assert.ok(changed.body.data.updated_at > calendar.updated_at);
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${calendar.id}`)).body.data, changed.body.data);
  });

  it('DELETE answers 204, then the calendar is gone', async () => {
    const calendar = await createCalendar(ctx().a.api);
    assert.equal((await ctx().a.api.delete(`${BASE}/${calendar.id}`)).status, 204);
    assertNotFound(await ctx().a.api.get(`${BASE}/${calendar.id}`));
    assertNotFound(await ctx().a.api.delete(`${BASE}/${calendar.id}`));
  });

  it('refuses to delete a calendar an SLA policy measures in, naming the policy; once it moves, the delete goes through', async () => {
    const calendar = await createCalendar(ctx().a.api, { name: 'Support hours' });
    const policy = await ctx().a.api.post('/api/v1/sla-policies', { name: 'Tickets in hours', first_response_seconds: 3600, calendar_id: calendar.id });
    assert.equal(policy.status, 201, policy.text);
    const refused = await ctx().a.api.delete(`${BASE}/${calendar.id}`);
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error_code, 'validation_error');
    assert.match(refused.body.detail, /calendar "Support hours" is used by the SLA policy "Tickets in hours"/);
    assert.equal((await ctx().a.api.get(`${BASE}/${calendar.id}`)).status, 200);
    assert.equal((await ctx().a.api.patch(`/api/v1/sla-policies/${policy.body.data.id}`, { calendar_id: null })).status, 200);
    assert.equal((await ctx().a.api.delete(`${BASE}/${calendar.id}`)).status, 204);
  });

  const day = (intervals: unknown) => ({ hours: { ...NINE_TO_FIVE, mon: intervals } });
  for (const [what, body, field, mentions] of [
    ['a missing name', { name: undefined }, 'name'],
    ['a blank name', { name: '  ' }, 'name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a missing time zone', { timezone: undefined }, 'timezone'],
    ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }, 'timezone', 'IANA'],
    ['a UTC offset for a time zone', { timezone: '+01:00' }, 'timezone'],
    ['missing hours', { hours: undefined }, 'hours'],
    ['an unknown day', { hours: { monday: [['09:00', '17:00']] } }, 'hours.monday'],
    ['a day that is not a list', day('09:00-17:00'), 'hours.mon'],
    ['five intervals in a day', day([['01:00', '02:00'], ['03:00', '04:00'], ['05:00', '06:00'], ['07:00', '08:00'], ['09:00', '10:00']]), 'hours.mon'],
    ['an interval of one time', day([['09:00']]), 'hours.mon'],
    ['an interval of three times', day([['09:00', '12:00', '17:00']]), 'hours.mon'],
    ['a time without a leading zero', day([['9:00', '17:00']]), 'hours.mon', '9:00'],
    ['an hour past 24', day([['09:00', '25:00']]), 'hours.mon'],
    ['minutes past 59', day([['09:60', '17:00']]), 'hours.mon'],
    ['24:00 as a start', day([['24:00', '24:00']]), 'hours.mon', 'start time'],
    ['24:30 as an end', day([['09:00', '24:30']]), 'hours.mon'],
    ['a start after the end', day([['17:00', '09:00']]), 'hours.mon', 'does not start before it ends'],
    ['a start equal to the end', day([['09:00', '09:00']]), 'hours.mon', 'does not start before it ends'],
    ['overlapping intervals', day([['09:00', '13:00'], ['12:00', '17:00']]), 'hours.mon', 'overlap'],
    ['an interval inside another', { hours: { sun: [['08:00', '18:00'], ['10:00', '11:00']] } }, 'hours.sun', 'overlap'],
    ['holidays that are not a list', { holidays: '2026-12-25' }, 'holidays'],
    ['a holiday that is not a date', { holidays: ['Christmas'] }, 'holidays', 'Christmas'],
    ['a holiday on 30 February', { holidays: ['2026-02-30'] }, 'holidays', '2026-02-30'],
    ['a holiday in month 13', { holidays: ['2026-13-01'] }, 'holidays'],
    ['a holiday listed twice', { holidays: ['2026-12-25', '2026-12-25'] }, 'holidays', 'twice'],
    ['367 holidays', { holidays: Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2028, 0, 1 + i)).toISOString().slice(0, 10)) }, 'holidays'],
    ['an unknown field', { open: true }, 'open'],
  ] as const) {
    it(`POST rejects ${what}`, async () => {
      // An override of undefined leaves the field out (JSON has no undefined).
      assertInvalid(await ctx().a.api.post(BASE, { name: unique('Office'), timezone: 'Europe/Berlin', hours: NINE_TO_FIVE, ...(body as Record<string, unknown>) }), field, mentions);
    });
  }

  it('POST names every bad day and field at once', async () => {
    const res = await ctx().a.api.post(BASE, {
      name: 'Bad', timezone: 'Nowhere/Land', hours: { mon: [['10:00', '09:00']], fri: [['08:00', '12:00'], ['11:00', '13:00']] }, holidays: ['2026-02-29'],
    });
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['holidays', 'hours.fri', 'hours.mon', 'timezone']);
  });

  for (const [what, body, field] of [
    ['a blank name', { name: ' ' }, 'name'],
    ['null hours', { hours: null }, 'hours'],
    ['overlapping intervals', { hours: { wed: [['09:00', '12:00'], ['11:59', '13:00']] } }, 'hours.wed'],
    ['an unknown time zone', { timezone: 'Europe/Atlantis' }, 'timezone'],
    ['a duplicate holiday', { holidays: ['2027-01-01', '2027-01-01'] }, 'holidays'],
    ['an unknown field', { id: UNKNOWN_ID }, 'id'],
  ] as const) {
    it(`PATCH rejects ${what}, changing nothing`, async () => {
      const calendar = await createCalendar(ctx().a.api);
      assertInvalid(await ctx().a.api.patch(`${BASE}/${calendar.id}`, body), field);
      assert.deepEqual((await ctx().a.api.get(`${BASE}/${calendar.id}`)).body.data, calendar);
    });
  }

  it('answers 404 for a malformed or unknown id (before the body), on every method', async () => {
    for (const id of ['nope', UNKNOWN_ID]) {
      assertNotFound(await ctx().a.api.get(`${BASE}/${id}`));
      assertNotFound(await ctx().a.api.get(`${BASE}/${id}/due?seconds=1`));
      assertNotFound(await ctx().a.api.get(`${BASE}/${id}/due?seconds=bad`));
      assertNotFound(await ctx().a.api.patch(`${BASE}/${id}`, { name: '' }));
      assertNotFound(await ctx().a.api.delete(`${BASE}/${id}`));
    }
  });

  it('keeps each workspace\'s calendars its own', async () => {
    const calendar = await createCalendar(ctx().a.api);
    assertNotFound(await ctx().b.api.get(`${BASE}/${calendar.id}`));
    assertNotFound(await ctx().b.api.get(`${BASE}/${calendar.id}/due?seconds=60`));
    assertNotFound(await ctx().b.api.patch(`${BASE}/${calendar.id}`, { name: 'Taken' }));
    assertNotFound(await ctx().b.api.delete(`${BASE}/${calendar.id}`));
    assert.ok(!(await ctx().b.api.get(`${BASE}?limit=200`)).body.data.some((c: any) => c.id === calendar.id));
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${calendar.id}`)).body.data, calendar);
  });

  it('lets read-only keys read and ask for due times, and nothing else', async () => {
    const calendar = await createCalendar(ctx().a.api);
    const readOnly = ctx().client(ctx().a.readOnlyKey);
    assert.equal((await readOnly.get(BASE)).status, 200);
    assert.equal((await readOnly.get(`${BASE}/${calendar.id}`)).status, 200);
    assert.equal((await readOnly.get(`${BASE}/${calendar.id}/due?seconds=60`)).status, 200);
    assertForbidden(await readOnly.post(BASE, { name: 'x', timezone: 'UTC', hours: {} }));
    assertForbidden(await readOnly.patch(`${BASE}/${calendar.id}`, { name: 'x' }));
    assertForbidden(await readOnly.delete(`${BASE}/${calendar.id}`));
  });

  it('lets agents read, and refuses them every change (403 before lookup or validation)', async () => {
    const calendar = await createCalendar(ctx().a.api);
    const agent = await newPerson(ctx(), ctx().a);
    const agentKey = ctx().client((await ctx().services.admin.createKey({ workspaceId: ctx().a.id, memberId: agent.member.id })).key);
    for (const api of [agent.app, agentKey]) {
      assert.equal((await api.get(BASE)).status, 200);
      assert.equal((await api.get(`${BASE}/${calendar.id}`)).status, 200);
      assert.equal((await api.get(`${BASE}/${calendar.id}/due?seconds=60`)).status, 200);
      assertForbidden(await api.post(BASE, { name: 'x', timezone: 'UTC', hours: {} }));
      assertForbidden(await api.post(BASE, {}));
      assertForbidden(await api.patch(`${BASE}/${calendar.id}`, { name: 'x' }));
      assertForbidden(await api.patch(`${BASE}/${UNKNOWN_ID}`, { name: 'x' }));
      assertForbidden(await api.delete(`${BASE}/${calendar.id}`));
    }
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    assert.equal((await admin.app.patch(`${BASE}/${calendar.id}`, { name: 'By admin' })).status, 200);
    const integration = ctx().client(ctx().a.memberlessKey);
    assert.equal((await integration.post(BASE, { name: 'By integration', timezone: 'UTC', hours: {} })).status, 201);
  });
});

describeEachDialect('GET /api/v1/calendars/{id}/due [ext]', (ctx) => {
  const due = (api: Client, id: string, query: string) => api.get(`${BASE}/${id}/due?${query}`);

  it('answers the instant N seconds of open time after `from`, in the calendar\'s zone', async () => {
    const berlin = await createCalendar(ctx().a.api, { holidays: ['2026-12-24', '2026-12-25'] });
    // Friday 20 November 17:30 CET is after hours: one hour from Monday 09:00 CET (08:00Z).
    const res = await due(ctx().a.api, berlin.id, 'from=2026-11-20T16:30:00Z&seconds=3600');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { data: { due_at: '2026-11-23T09:00:00.000Z' } });
    // Holidays are skipped: Wednesday 23 December 16:00 CET + 2 h is Monday 28th 10:00 CET.
    assert.equal((await due(ctx().a.api, berlin.id, 'from=2026-12-23T15:00:00Z&seconds=7200')).body.data.due_at, '2026-12-28T09:00:00.000Z');
    // An offset in `from` is an instant like any other.
    assert.equal((await due(ctx().a.api, berlin.id, 'from=2026-11-23T10:00:00%2B01:00&seconds=60')).body.data.due_at, '2026-11-23T09:01:00.000Z');
  });

  it('follows the zone\'s daylight-saving rules: hours stay local across a change', async () => {
    const newYork = await createCalendar(ctx().a.api, { timezone: 'America/New_York' });
    // Friday 6 March 16:00 EST + 2 h: one hour then, one from Monday 09:00 EDT (13:00Z).
    assert.equal((await due(ctx().a.api, newYork.id, 'from=2026-03-06T21:00:00Z&seconds=7200')).body.data.due_at, '2026-03-09T14:00:00.000Z');
    const nights = await createCalendar(ctx().a.api, { timezone: 'Europe/Berlin', hours: { sun: [['01:00', '04:00']] } });
    // 01:00–04:00 on 29 March is two real hours (00:00Z–02:00Z): the third runs into the next Sunday.
    assert.equal((await due(ctx().a.api, nights.id, 'from=2026-03-28T12:00:00Z&seconds=7200')).body.data.due_at, '2026-03-29T02:00:00.000Z');
    assert.equal((await due(ctx().a.api, nights.id, 'from=2026-03-28T12:00:00Z&seconds=7260')).body.data.due_at, '2026-04-04T23:01:00.000Z');
  });

  it('answers `from` itself for 0 seconds, and starts from now without `from`', async () => {
    const calendar = await createCalendar(ctx().a.api);
    assert.equal((await due(ctx().a.api, calendar.id, 'from=2026-11-21T12:00:00.000Z&seconds=0')).body.data.due_at, '2026-11-21T12:00:00.000Z');
    // The test clock stands at Friday 20 November 16:30Z (17:30 CET, after hours).
    assert.equal((await due(ctx().a.api, calendar.id, 'seconds=60')).body.data.due_at, '2026-11-23T08:01:00.000Z');
  });

  it('takes the longest target, a year of open time', async () => {
    const calendar = await createCalendar(ctx().a.api);
    const res = await due(ctx().a.api, calendar.id, 'from=2026-01-05T08:00:00Z&seconds=31536000');
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.data.due_at > '2030-01-01');
  });

  it('answers a calendar never open, or too rarely open, with a 400 on seconds (and 0 seconds still with `from`)', async () => {
    const never = await createCalendar(ctx().a.api, { name: 'Closed', hours: {} });
    assertInvalid(await due(ctx().a.api, never.id, 'from=2026-01-05T08:00:00Z&seconds=60'), 'seconds', 'no open hours');
    assert.equal((await due(ctx().a.api, never.id, 'from=2026-01-05T08:00:00Z&seconds=0')).body.data.due_at, '2026-01-05T08:00:00.000Z');
    const rare = await createCalendar(ctx().a.api, { name: 'Rare', hours: { mon: [['09:00', '09:01']] } });
    assertInvalid(await due(ctx().a.api, rare.id, 'from=2026-01-05T08:00:00Z&seconds=31536000'), 'seconds', 'within 100 years');
  });

  for (const [what, query, field] of [
    ['missing seconds', 'from=2026-01-05T08:00:00Z', 'seconds'],
    ['negative seconds', 'seconds=-1', 'seconds'],
    ['fractional seconds', 'seconds=1.5', 'seconds'],
    ['seconds that are not a number', 'seconds=soon', 'seconds'],
    ['more than a year of seconds', 'seconds=31536001', 'seconds'],
    ['a `from` that is not a timestamp', 'from=tomorrow&seconds=60', 'from'],
    ['a `from` without an offset', 'from=2026-01-05T08:00:00&seconds=60', 'from'],
    ['a `from` on 30 February', 'from=2026-02-30T08:00:00Z&seconds=60', 'from'],
  ] as const) {
    it(`rejects ${what}`, async () => {
      const calendar = await createCalendar(ctx().a.api);
      assertInvalid(await due(ctx().a.api, calendar.id, query), field);
    });
  }
}, { clock: manualClock(NOW) });
