// docs/inbox.md, "Snooze": PATCH /conversations/{id} snoozed_until (a future instant, or null to
// wake it), the list's `snoozed` filter, and the wake: when its time comes (a conversation job due
// then, claimed by any process, run once, surviving a restart) or when the contact writes (by the
// widget or by mail), each one conversation.updated. The services' clock is the test's, so a
// snooze's end comes when the test moves it.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { SUMMARY_DEFAULTS, WEBHOOK_DEFAULTS } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { createServices } from '../../src/services.js';
import { assertInvalid, assertNotFound } from '../helpers/answers.js';
import { plainMail, postMail, testEmailConfig } from '../helpers/email.js';
import { eventually, recorded } from '../helpers/events.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, TEST_SCRYPT, unique, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const BASE = '/api/v1/conversations';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';
const HOUR_MS = 60 * 60 * 1000;
const FAST = { webhooks: { pollIntervalMs: 20 } };

const clock = manualClock();
/** An instant `ms` after the services' now, in UTC. */
const later = (ms: number) => new Date(Date.parse(clock.now()) + ms).toISOString();

/** A new conversation without messages (so no summary job of its own changes it meanwhile). */
async function fresh(ctx: TestContext) {
  return importConversation(ctx.a.api, (await createProduct(ctx.a.api)).id);
}

const snooze = (ctx: TestContext, id: string, snoozed_until: string | null, extra: Record<string, unknown> = {}) =>
  ctx.a.api.patch(`${BASE}/${id}`, { snoozed_until, ...extra });

const snoozedUntilOf = async (ctx: TestContext, id: string): Promise<string | null> => (await ctx.a.api.get(`${BASE}/${id}`)).body.data.snoozed_until;

/** The events `write` recorded about the conversation (other conversations' background jobs may run meanwhile). */
const recordedFor = async (ctx: TestContext, id: string, write: () => Promise<unknown>) =>
  (await recorded(ctx, write)).filter((event) => (event.payload.data.conversation_id ?? event.payload.data.id) === id);

/** The conversation.updated events that changed the conversation's snooze, oldest first. */
async function snoozeEvents(ctx: TestContext, id: string): Promise<any[]> {
  const rows = await ctx.database.db.selectFrom('events').select('payload').where('type', '=', 'conversation.updated').orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => JSON.parse(row.payload).data).filter((data) => data.id === id && 'snoozed_until' in data.previous);
}

const wakeJobsOf = (ctx: Pick<TestContext, 'database'>, id: string) =>
  ctx.database.db.selectFrom('conversation_jobs').select(['status', 'next_attempt_at']).where('conversation_id', '=', id).where('kind', '=', 'wake').execute();

/** Waits until the conversation is awake. */
const woken = (ctx: TestContext, id: string) => eventually(() => snoozedUntilOf(ctx, id), (until) => until === null, 'woken');

describeEachDialect('PATCH /api/v1/conversations/{id} snoozed_until [ext]', (ctx) => {
  it('snoozes until a future instant sent with any offset, stored in UTC, shown in the answer, the detail and the list; updated_at moves', async () => {
    const data = await fresh(ctx());
    assert.equal(data.snoozed_until, null);
    clock.advance(1_000);
    const until = later(20 * HOUR_MS);
    // The same instant as it reads an hour east of Greenwich.
    const sent = new Date(Date.parse(until) + HOUR_MS).toISOString().replace(/\.000Z$/, '+01:00');
    const res = await snooze(ctx(), data.id, sent);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.snoozed_until, until);
    assert.ok(res.body.data.updated_at > data.updated_at);
    assert.equal(await snoozedUntilOf(ctx(), data.id), until);
    const listed = (await ctx().a.api.get(`${BASE}?product_id=${data.product_id}`)).body.data;
    assert.equal(listed[0].snoozed_until, until);
    assert.deepEqual(await wakeJobsOf(ctx(), data.id), [{ status: 'pending', next_attempt_at: until }], 'its wake is due then');
  });

  it('records one conversation.updated with previous.snoozed_until, for a snooze and for null, which wakes it now', async () => {
    const data = await fresh(ctx());
    const until = later(HOUR_MS);
    const [snoozed] = await recorded(ctx(), () => snooze(ctx(), data.id, until));
    assert.equal(snoozed.type, 'conversation.updated');
    const { previous, ...resource } = snoozed.payload.data;
    assert.deepEqual(previous, { snoozed_until: null, updated_at: data.updated_at });
    assert.equal(resource.snoozed_until, until);
    clock.advance(1_000);
    const events = await recorded(ctx(), async () => assert.equal((await snooze(ctx(), data.id, null)).body.data.snoozed_until, null));
    assert.deepEqual(events.map((event) => [event.type, event.payload.data.previous.snoozed_until]), [['conversation.updated', until]]);
  });

  it('changes nothing, updated_at included, when the snooze is the one it has, or null on a conversation not snoozed', async () => {
    const data = await fresh(ctx());
    const until = later(HOUR_MS);
    const snoozed = (await snooze(ctx(), data.id, until)).body.data;
    clock.advance(1_000);
    const events = await recorded(ctx(), async () => {
      assert.equal((await snooze(ctx(), data.id, until)).body.data.updated_at, snoozed.updated_at);
      const awake = await fresh(ctx());
      assert.equal((await snooze(ctx(), awake.id, null)).body.data.updated_at, awake.updated_at);
    });
    assert.deepEqual(events.filter((event) => event.type === 'conversation.updated'), []);
  });

  for (const [what, value] of [
    ['an instant in the past', '2020-01-01T09:00:00Z'],
    ['the present instant', '2026-11-21T10:00:00.000Z'],
    ['a date without a time', '2026-11-22'],
    ['a time without an offset', '2026-11-22T09:00:00'],
    ['a word', 'tomorrow'],
    ['an impossible date', '2026-02-30T09:00:00Z'],
    ['a year PostgreSQL cannot store', '0000-01-01T00:00:00Z'],
    ['a number', 1_800_000_000_000],
    ['an empty string', ''],
  ] as const) {
    it(`rejects ${what} (400 fields.snoozed_until), changing nothing`, async () => {
      const data = await fresh(ctx());
      const present = what === 'the present instant' ? clock.now() : value;
      const res = await ctx().a.api.patch(`${BASE}/${data.id}`, { snoozed_until: present, priority: 'high' });
      assertInvalid(res, 'snoozed_until', what.includes('past') || what.includes('present') ? 'future' : undefined);
      const now = (await ctx().a.api.get(`${BASE}/${data.id}`)).body.data;
      assert.deepEqual([now.snoozed_until, now.priority, now.updated_at], [null, 'normal', data.updated_at]);
    });
  }

  it('answers 404 for an unknown conversation and for another workspace\'s, even with a bad snoozed_until, and changes nothing there', async () => {
    assertNotFound(await snooze(ctx(), UNKNOWN_ID, later(HOUR_MS)));
    assertNotFound(await snooze(ctx(), UNKNOWN_ID, 'tomorrow'));
    const theirs = await importConversation(ctx().b.api, (await createProduct(ctx().b.api)).id);
    assertNotFound(await snooze(ctx(), theirs.id, later(HOUR_MS)));
    assertNotFound(await snooze(ctx(), theirs.id, 'tomorrow'));
    assert.equal((await ctx().b.api.get(`${BASE}/${theirs.id}`)).body.data.snoozed_until, null);
    assert.deepEqual(await wakeJobsOf(ctx(), theirs.id), []);
  });

  it('refuses to snooze a resolved or dismissed conversation (400 fields.snoozed_until), unless the same request reopens it', async () => {
    for (const status of ['resolved', 'dismissed']) {
      const data = await fresh(ctx());
      assert.equal((await ctx().a.api.patch(`${BASE}/${data.id}`, { status })).status, 200);
      assertInvalid(await snooze(ctx(), data.id, later(HOUR_MS)), 'snoozed_until', status);
      assert.equal(await snoozedUntilOf(ctx(), data.id), null);
      const reopened = await snooze(ctx(), data.id, later(HOUR_MS), { status: 'open' });
      assert.equal(reopened.status, 200, reopened.text);
      assert.deepEqual([reopened.body.data.status, reopened.body.data.snoozed_until], ['open', later(HOUR_MS)]);
    }
    const open = await fresh(ctx());
    assertInvalid(await snooze(ctx(), open.id, later(HOUR_MS), { status: 'resolved' }), 'snoozed_until', 'resolved');
    assert.equal((await ctx().a.api.get(`${BASE}/${open.id}`)).body.data.status, 'open', 'nothing of the request was written');
  });

  it('ends the snooze when the conversation is resolved or dismissed (one event), keeps it through open and in_progress', async () => {
    const data = await fresh(ctx());
    const until = later(HOUR_MS);
    await snooze(ctx(), data.id, until);
    const moved = await ctx().a.api.patch(`${BASE}/${data.id}`, { status: 'in_progress' });
    assert.equal(moved.body.data.snoozed_until, until);
    const events = await recorded(ctx(), async () => {
      const resolved = await ctx().a.api.patch(`${BASE}/${data.id}`, { status: 'resolved' });
      assert.deepEqual([resolved.body.data.status, resolved.body.data.snoozed_until], ['resolved', null]);
    });
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].payload.data.previous, { status: 'in_progress', snoozed_until: until, updated_at: moved.body.data.updated_at });
    const reopened = await ctx().a.api.patch(`${BASE}/${data.id}`, { status: 'open' });
    assert.equal(reopened.body.data.snoozed_until, null, 'reopening does not snooze it again');
  });
}, { clock });

describeEachDialect('GET /api/v1/conversations?snoozed [ext]', (ctx) => {
  it('lists only snoozed conversations with true, only the others with false, both when absent; total counts the matches', async () => {
    const product = await createProduct(ctx().a.api);
    const [asleep, awake, resolved] = [
      await importConversation(ctx().a.api, product.id), await importConversation(ctx().a.api, product.id), await importConversation(ctx().a.api, product.id),
    ];
    await snooze(ctx(), asleep.id, later(HOUR_MS));
    await ctx().a.api.patch(`${BASE}/${resolved.id}`, { status: 'resolved' });
    const list = async (query: string) => {
      const res = await ctx().a.api.get(`${BASE}?product_id=${product.id}${query}`);
      assert.equal(res.status, 200, res.text);
      return { ids: res.body.data.map((c: { id: string }) => c.id).sort(), total: res.body.pagination.total };
    };
    assert.deepEqual(await list('&snoozed=true'), { ids: [asleep.id], total: 1 });
    assert.deepEqual(await list('&snoozed=false'), { ids: [awake.id, resolved.id].sort(), total: 2 });
    assert.deepEqual(await list(''), { ids: [asleep.id, awake.id, resolved.id].sort(), total: 3 });
    assert.deepEqual(await list('&snoozed=false&status=open,in_progress&sort=waiting'), { ids: [awake.id], total: 1 });
    assert.deepEqual(await list('&snoozed=true&assignee_id=none'), { ids: [asleep.id], total: 1 });
  });

  it('rejects a value other than true or false (400 fields.snoozed)', async () => {
    for (const value of ['yes', '2', '']) assertInvalid(await ctx().a.api.get(`${BASE}?snoozed=${value}`), 'snoozed');
  });

  it('never lists another workspace\'s snoozed conversations', async () => {
    const theirs = await importConversation(ctx().b.api, (await createProduct(ctx().b.api)).id);
    assert.equal((await ctx().b.api.patch(`${BASE}/${theirs.id}`, { snoozed_until: later(HOUR_MS) })).status, 200);
    const ours = (await ctx().a.api.get(`${BASE}?snoozed=true&limit=200`)).body.data.map((c: { id: string }) => c.id);
    assert.ok(!ours.includes(theirs.id));
    assert.deepEqual((await ctx().b.api.get(`${BASE}?snoozed=true`)).body.data.map((c: { id: string }) => c.id), [theirs.id]);
  });
}, { clock });

describeEachDialect('the wake [ext]', (ctx) => {
  before(() => ctx().services.webhookDispatcher.start());

  it('wakes a snoozed conversation when its time comes, not before: snoozed_until null, one conversation.updated, no job left', async () => {
    const data = await fresh(ctx());
    const until = later(HOUR_MS);
    await snooze(ctx(), data.id, until);
    clock.advance(HOUR_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await snoozedUntilOf(ctx(), data.id), until, 'still asleep a millisecond before');
    clock.advance(1);
    await woken(ctx(), data.id);
    await eventually(() => wakeJobsOf(ctx(), data.id), (jobs) => jobs.length === 0, 'its job finished');
    const events = await snoozeEvents(ctx(), data.id);
    assert.deepEqual(events.map((event) => [event.previous.snoozed_until, event.snoozed_until]), [[null, until], [until, null]]);
    const shown = (await ctx().a.api.get(`${BASE}/${data.id}`)).body.data;
    const { previous: _, ...wake } = events[1];
    assert.deepEqual(wake, shown, 'the event carries the conversation as GET shows it');
  });

  it('wakes at the latest snooze: snoozing again pushes the wake back, and null leaves nothing to wake', async () => {
    const data = await fresh(ctx());
    await snooze(ctx(), data.id, later(HOUR_MS));
    const second = later(2 * HOUR_MS);
    await snooze(ctx(), data.id, second);
    clock.advance(HOUR_MS);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await snoozedUntilOf(ctx(), data.id), second);
    clock.advance(HOUR_MS);
    await woken(ctx(), data.id);

    const unsnoozed = await fresh(ctx());
    await snooze(ctx(), unsnoozed.id, later(HOUR_MS));
    await snooze(ctx(), unsnoozed.id, null);
    clock.advance(HOUR_MS);
    await eventually(() => wakeJobsOf(ctx(), unsnoozed.id), (jobs) => jobs.length === 0, 'its job ran');
    assert.equal((await snoozeEvents(ctx(), unsnoozed.id)).length, 2, 'the snooze and the null; the job recorded nothing');
  });

  it('wakes at once when the contact writes in the widget: one conversation.updated after the message, showing it; the due time does nothing more', async () => {
    const product = await widgetProduct(ctx());
    const session = await startSession(ctx(), product.widget_key, { name: 'Ada' });
    const ada = visitor(ctx(), session.token);
    const started = await ada.post(widgetPath(product.widget_key, '/conversations'), { body: 'Where is my invoice?' });
    const { id } = started.body.data;
    await snooze(ctx(), id, later(HOUR_MS));
    const events = await recordedFor(ctx(), id, async () => {
      assert.equal((await ada.post(widgetPath(product.widget_key, `/conversations/${id}/messages`), { body: 'Any news?' })).status, 201);
    });
    assert.deepEqual(events.map((event) => event.type), ['message.created', 'conversation.updated']);
    const wake = events[1].payload.data;
    assert.deepEqual([wake.snoozed_until, wake.previous], [null, { snoozed_until: later(HOUR_MS) }]);
    assert.equal(wake.messages.at(-1).body, 'Any news?');
    assert.equal(await snoozedUntilOf(ctx(), id), null);
    clock.advance(HOUR_MS);
    await eventually(() => wakeJobsOf(ctx(), id), (jobs) => jobs.length === 0, 'its job ran');
    assert.equal((await snoozeEvents(ctx(), id)).length, 2, 'the snooze and the contact\'s wake');
  });

  it('wakes at once when the contact writes by mail (a reply threaded into the conversation)', async () => {
    const product = await createProduct(ctx().a.api);
    const from = `Bo <${unique('bo').replace(/\W/g, '-')}@cust.test>`;
    const firstId = `${unique('first').replace(/\W/g, '-')}@cust.test`;
    const first = await postMail(ctx().a.api, plainMail({ from, messageId: firstId, body: 'My parcel never came.' }), product.id);
    assert.equal(first.status, 202, first.text);
    const id = first.body.data.conversation_id;
    await snooze(ctx(), id, later(HOUR_MS));
    const reply = plainMail({ from, messageId: `${unique('reply').replace(/\W/g, '-')}@cust.test`, headers: { 'In-Reply-To': `<${firstId}>` }, body: 'Still nothing.' });
    const events = await recordedFor(ctx(), id, () => postMail(ctx().a.api, reply, product.id));
    assert.deepEqual(events.map((event) => event.type), ['message.created', 'conversation.updated']);
    assert.equal(await snoozedUntilOf(ctx(), id), null);
    assert.equal((await ctx().a.api.get(`${BASE}/${id}`)).body.data.messages.length, 2);
  });

  it('stays asleep through an agent\'s reply and an internal note', async () => {
    const data = await fresh(ctx());
    const until = later(HOUR_MS);
    await snooze(ctx(), data.id, until);
    assert.equal((await ctx().a.api.post(`${BASE}/${data.id}/messages`, { body: 'We are on it.' })).status, 201);
    assert.equal((await ctx().a.api.post(`${BASE}/${data.id}/notes`, { body: 'Waiting for billing.' })).status, 201);
    assert.equal(await snoozedUntilOf(ctx(), data.id), until);
  });
}, { clock, email: testEmailConfig(), ...FAST });

/** Another server process on the context's database, as main.ts builds it: services (with the test clock) whose dispatcher runs. */
function anotherProcess(ctx: TestContext) {
  const database = createDatabase(ctx.databaseUrl);
  const services = createServices(database, {
    clock, webhooks: { ...WEBHOOK_DEFAULTS, pollIntervalMs: 20 }, passwordHashing: TEST_SCRYPT, summaries: SUMMARY_DEFAULTS,
  });
  services.webhookDispatcher.start();
  return {
    async stop() {
      await services.webhookDispatcher.stop(5_000);
      await database.close();
    },
  };
}

describeEachDialect('the wake across restarts and processes [ext]', (ctx) => {
  it('wakes on start a conversation whose snooze ended while no server ran', async () => {
    const data = await fresh(ctx());
    await snooze(ctx(), data.id, later(HOUR_MS));
    // Nothing runs the jobs here: the test's own services never start their dispatcher.
    clock.advance(2 * HOUR_MS);
    assert.notEqual(await snoozedUntilOf(ctx(), data.id), null);
    const next = anotherProcess(ctx());
    try {
      await woken(ctx(), data.id);
    } finally {
      await next.stop();
    }
    assert.equal((await snoozeEvents(ctx(), data.id)).length, 2);
  });

  it('wakes each conversation once when two processes share the database', async () => {
    const product = await createProduct(ctx().a.api);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { id } = await importConversation(ctx().a.api, product.id);
      await snooze(ctx(), id, later(HOUR_MS + i));
      ids.push(id);
    }
    const processes = [anotherProcess(ctx()), anotherProcess(ctx())];
    try {
      clock.advance(HOUR_MS + 10);
      for (const id of ids) await woken(ctx(), id);
    } finally {
      await Promise.all(processes.map((process) => process.stop()));
    }
    for (const id of ids) assert.equal((await snoozeEvents(ctx(), id)).filter((event) => event.snoozed_until === null).length, 1, id);
  });
}, { clock });
