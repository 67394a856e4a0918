// SLAs applied to conversations (docs/service-levels.md, "Applied to conversations", "Breaches"):
// the policy chosen on create and again when the fields its conditions read change, the three
// clocks' start and stop rules, hit/missed/status, reopening, calendars, breaches with their event
// exactly once, and the `due` sort and `sla` filters. The services' clock is a test clock: due
// times pass when a test moves it, and the breach watcher runs when a test calls it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertInvalid } from '../helpers/answers.js';
import { announcedIn } from '../helpers/announcements.js';
import { recorded, type RecordedEvent } from '../helpers/events.js';
import { createIssue, createProduct, createRelease, importConversation, linkConversation } from '../helpers/factories.js';
import { describeEachDialect, openTestApp, unique, type Client, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const BASE = '/api/v1/conversations';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** A policy of the workspace that applies to one product's conversations (and what else `conditions` says). */
async function policyFor(api: Client, productId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const { conditions = {}, ...rest } = fields as { conditions?: Record<string, unknown> };
  const res = await api.post('/api/v1/sla-policies', {
    name: unique('Policy'), first_response_seconds: 3600, next_response_seconds: 1800, resolution_seconds: 86_400,
    conditions: { product_ids: [productId], ...conditions }, ...rest,
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const read = async (api: Client, id: string) => {
  const res = await api.get(`${BASE}/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data;
};

const patch = async (api: Client, id: string, body: Record<string, unknown>) => {
  const res = await api.patch(`${BASE}/${id}`, body);
  assert.equal(res.status, 200, res.text);
  return res.body.data;
};

const emailOf = (name: string) => `${unique(name).replace(/[^a-z0-9]+/gi, '-')}@example.com`;

const reply = async (api: Client, id: string, body = 'On it') => assert.equal((await api.post(`${BASE}/${id}/messages`, { body })).status, 201);

const listed = async (api: Client, query: string): Promise<string[]> => {
  const res = await api.get(`${BASE}?${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((conversation: any) => conversation.id);
};

/** Runs the breach watcher; the breach events it recorded for `conversationId`. */
const breachesRecorded = async (ctx: TestContext, conversationId: string): Promise<RecordedEvent[]> =>
  (await recorded(ctx, () => ctx.services.slaBreaches.run()))
    .filter((event) => event.type === 'conversation.sla_breached' && event.payload.data.conversation.id === conversationId);

const clock = manualClock();

describeEachDialect('SLA applied to conversations [ext]', (ctx) => {
  it('applies the first matching active policy on create, clocks from the contact\'s first message', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const policy = await policyFor(api, product.id);
    const now = clock.now();
    const data = await importConversation(api, product.id, { body: 'Export fails' });
    assert.deepEqual(data.sla, {
      policy_id: policy.id, first_response_due_at: plus(now, HOUR), next_response_due_at: null, resolution_due_at: plus(now, 24 * HOUR),
      breaches: [], status: 'active', due_at: plus(now, HOUR),
    });
    assert.deepEqual((await read(api, data.id)).sla, data.sla);
    const [summary] = (await api.get(`${BASE}?product_id=${product.id}`)).body.data;
    assert.deepEqual(summary.sla, data.sla);
    const silent = await importConversation(api, product.id);
    assert.deepEqual(silent.sla, {
      policy_id: policy.id, first_response_due_at: null, next_response_due_at: null, resolution_due_at: null, breaches: [], status: 'active', due_at: null,
    });
    assert.equal((await importConversation(api, (await createProduct(api)).id, { body: 'Hi' })).sla, null, 'no policy matches');
  });

  it('chooses again when priority or tags change, keeping the clocks\' start; null when none matches', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const vip = await policyFor(api, product.id, { position: 1, conditions: { tags: ['vip'] }, first_response_seconds: 60 });
    const urgent = await policyFor(api, product.id, { conditions: { priorities: ['urgent'] }, first_response_seconds: 600, resolution_seconds: null });
    const started = clock.now();
    const data = await importConversation(api, product.id, { body: 'Down again' });
    assert.equal(data.sla, null);
    clock.advance(100_000);
    const updated = await patch(api, data.id, { priority: 'urgent' });
    assert.equal(updated.sla.policy_id, urgent.id);
    assert.equal(updated.sla.first_response_due_at, plus(started, 600_000));
    assert.equal(updated.sla.resolution_due_at, null, 'the policy sets no such target');
    assert.deepEqual((await read(api, data.id)).sla, updated.sla);
    const tagged = await patch(api, data.id, { tags: ['VIP'] });
    assert.equal(tagged.sla.policy_id, vip.id);
    assert.equal(tagged.sla.first_response_due_at, plus(started, 60_000));
    assert.equal(tagged.sla.resolution_due_at, plus(started, 24 * HOUR));
    assert.equal((await patch(api, data.id, { tags: [], priority: 'low' })).sla, null);
    assert.equal((await read(api, data.id)).sla, null);
  });

  it('first response: a note does not stop it, an agent reply does; next response runs from the contact\'s next message', async () => {
    const { api } = ctx().a;
    const product = await widgetProduct(ctx());
    await policyFor(api, product.id);
    const session = await startSession(ctx(), product.widget_key, { name: 'Ada' });
    const path = (suffix = '') => widgetPath(product.widget_key, `/conversations${suffix}`);
    const asked = clock.now();
    const { id } = (await visitor(ctx(), session.token).post(path(), { body: 'Help' })).body.data;
    clock.advance(MINUTE);
    assert.equal((await api.post(`${BASE}/${id}/notes`, { body: 'Checking with billing' })).status, 201);
    assert.ok((await listed(api, `product_id=${product.id}&sla=running`)).includes(id));
    assert.equal((await read(api, id)).sla.first_response_due_at, plus(asked, HOUR));
    clock.advance(MINUTE);
    await reply(api, id);
    clock.advance(MINUTE);
    const again = clock.now();
    await visitor(ctx(), session.token).post(path(`/${id}/messages`), { body: 'One more thing' });
    let sla = (await read(api, id)).sla;
    assert.equal(sla.next_response_due_at, plus(again, 30 * MINUTE));
    assert.equal(sla.first_response_due_at, plus(asked, HOUR), 'the stopped clock\'s due time stays');
    clock.advance(MINUTE);
    await visitor(ctx(), session.token).post(path(`/${id}/messages`), { body: 'Anyone?' });
    assert.equal((await read(api, id)).sla.next_response_due_at, sla.next_response_due_at, 'the wait began with the first unanswered message');
    await reply(api, id);
    sla = (await patch(api, id, { status: 'resolved' })).sla;
    assert.deepEqual({ status: sla.status, breaches: sla.breaches }, { status: 'hit', breaches: [] });
    assert.ok(!(await listed(api, `product_id=${product.id}&sla=running`)).includes(id));
  });

  it('an agent\'s reply in an email conversation stops the first response clock', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    await policyFor(api, product.id, { resolution_seconds: null, next_response_seconds: null });
    const data = await importConversation(api, product.id, { source: 'email', contact: { email: emailOf('ada') }, body: 'Hello' });
    assert.equal(data.sla.status, 'active');
    await reply(api, data.id, 'Hello back');
    assert.equal((await read(api, data.id)).sla.status, 'hit');
  });

  it('a clock stopped after its due time is missed, and the status is missed once no clock runs', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    await policyFor(api, product.id, { first_response_seconds: 60 });
    const data = await importConversation(api, product.id, { body: 'Slow' });
    clock.advance(2 * MINUTE);
    await reply(api, data.id);
    assert.equal((await read(api, data.id)).sla.status, 'active', 'resolution still runs');
    assert.equal((await patch(api, data.id, { status: 'resolved' })).sla.status, 'missed');
  });

  it('resolving stops resolution; reopening starts it again from the reopening', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    await policyFor(api, product.id, { first_response_seconds: null, next_response_seconds: null });
    const data = await importConversation(api, product.id, { body: 'Refund please' });
    clock.advance(MINUTE);
    const resolved = await patch(api, data.id, { status: 'dismissed' });
    assert.deepEqual({ status: resolved.sla.status, due: resolved.sla.resolution_due_at }, { status: 'hit', due: data.sla.resolution_due_at });
    clock.advance(HOUR);
    const reopenedAt = clock.now();
    const reopened = await patch(api, data.id, { status: 'open' });
    assert.deepEqual({ status: reopened.sla.status, due: reopened.sla.resolution_due_at }, { status: 'active', due: plus(reopenedAt, 24 * HOUR) });
    assert.equal((await patch(api, data.id, { status: 'in_progress' })).sla.resolution_due_at, reopened.sla.resolution_due_at, 'no reopening: nothing restarts');
  });

  it('measures due times in the policy\'s calendar', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const hours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [day, [['09:00', '17:00']]]));
    const calendar = (await api.post('/api/v1/calendars', { name: unique('Office'), timezone: 'Europe/Berlin', hours })).body.data;
    await policyFor(api, product.id, { calendar_id: calendar.id });
    // The test clock started on Saturday 21 November 2026 and the tests move it by hours at most: a weekend, closed. The due
    // time is what the calendar's own endpoint answers for the same start.
    const started = clock.now();
    const data = await importConversation(api, product.id, { body: 'Weekend question' });
    const due = (await api.get(`/api/v1/calendars/${calendar.id}/due?from=${started}&seconds=3600`)).body.data.due_at;
    assert.equal(data.sla.first_response_due_at, due);
    assert.notEqual(due, plus(started, HOUR), 'business hours, not round the clock');
  });
}, { clock });

describeEachDialect('SLA breaches [ext]', (ctx) => {
  it('records a breach once, with its event, and the breached clock runs on until it stops', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    await policyFor(api, product.id, { first_response_seconds: 60 });
    const data = await importConversation(api, product.id, { body: 'Urgent' });
    assert.deepEqual(await breachesRecorded(ctx(), data.id), [], 'not due yet');
    clock.advance(61_000);
    const [event, ...more] = await breachesRecorded(ctx(), data.id);
    assert.deepEqual(more, []);
    assert.equal(event.payload.data.target, 'first_response');
    assert.equal(event.payload.data.due_at, data.sla.first_response_due_at);
    assert.deepEqual(event.payload.data.conversation.sla.breaches, ['first_response']);
    assert.equal(event.payload.data.conversation.messages.length, 1, 'the detail, with its messages');
    assert.deepEqual(await breachesRecorded(ctx(), data.id), [], 'exactly once');
    const breached = await read(api, data.id);
    assert.deepEqual({ breaches: breached.sla.breaches, status: breached.sla.status }, { breaches: ['first_response'], status: 'active' });
    assert.ok((await listed(api, `product_id=${product.id}&sla=breached`)).includes(data.id));
    assert.ok((await listed(api, `product_id=${product.id}&sla=running`)).includes(data.id), 'a breached clock keeps running');
    await reply(api, data.id);
    const closed = await patch(api, data.id, { status: 'resolved' });
    assert.deepEqual({ breaches: closed.sla.breaches, status: closed.sla.status }, { breaches: ['first_response'], status: 'missed' });
    assert.ok((await listed(api, `product_id=${product.id}&sla=breached`)).includes(data.id), 'breached, ever');
  });

  it('records a breach that fell due while no server ran, when one starts', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    await policyFor(api, product.id, { first_response_seconds: 60 });
    const data = await importConversation(api, product.id, { body: 'Anyone?' });
    clock.advance(HOUR);
    // A new server's services on the same database: nothing of the old one's memory.
    const restarted = await openTestApp(ctx().databaseUrl, { clock });
    try {
      const events = (await recorded(ctx(), () => restarted.services.slaBreaches.run()))
        .filter((event) => event.type === 'conversation.sla_breached' && event.payload.data.conversation.id === data.id);
      assert.deepEqual(events.map((event) => event.payload.data.target), ['first_response']);
    } finally {
      await restarted.close();
    }
    assert.deepEqual((await read(api, data.id)).sla.breaches, ['first_response']);
  });

  it('sort=due lists the earliest running due time first, those without one last; sla= filters', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    await policyFor(api, product.id, { position: 1, conditions: { priorities: ['urgent'] }, first_response_seconds: 60 });
    await policyFor(api, product.id, { first_response_seconds: 3600 });
    const none = await importConversation(api, product.id);
    const later = await importConversation(api, product.id, { body: 'Later' });
    const sooner = await importConversation(api, product.id, { body: 'Sooner', priority: 'urgent' });
    const answered = await importConversation(api, product.id, { body: 'Answered', priority: 'urgent' });
    await reply(api, answered.id);
    await patch(api, answered.id, { status: 'resolved' });
    const due = await listed(api, `product_id=${product.id}&sort=due`);
    assert.deepEqual(due.slice(0, 2), [sooner.id, later.id]);
    assert.deepEqual(new Set(due.slice(2)), new Set([none.id, answered.id]));
    assert.deepEqual(await listed(api, `product_id=${product.id}&sort=due&limit=1&offset=1`), [later.id]);
    assert.deepEqual(new Set(await listed(api, `product_id=${product.id}&sla=running`)), new Set([sooner.id, later.id]));
    assert.deepEqual(await listed(api, `product_id=${product.id}&sla=breached`), []);
    clock.advance(2 * MINUTE);
    await ctx().services.slaBreaches.run();
    assert.deepEqual(await listed(api, `product_id=${product.id}&sla=breached&sort=due`), [sooner.id]);
    assert.equal((await api.get(`${BASE}?product_id=${product.id}&sla=breached`)).body.pagination.total, 1);
    assert.deepEqual(await listed(ctx().b.api, 'sla=running'), [], 'another workspace sees none of them');
  });

  it('refuses an unknown sort or sla value, naming it', async () => {
    assertInvalid(await ctx().a.api.get(`${BASE}?sort=soonest`), 'sort');
    assertInvalid(await ctx().a.api.get(`${BASE}?sla=late`), 'sla');
    assertInvalid(await ctx().a.api.get(`${BASE}?sla=`), 'sla');
  });
}, { clock });

describeEachDialect('SLA clocks and system messages [ext]', (ctx) => {
  it('a release announcement in the conversation does not stop the first response clock', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    await policyFor(api, product.id);
    const issue = await createIssue(api, product.id);
    const data = await importConversation(api, product.id, { contact: { name: 'Ada', email: emailOf('ada') }, body: 'Export broken' });
    await linkConversation(api, issue.id, data.id);
    ctx().services.webhookDispatcher.start();
    await createRelease(api, product.id, { title: 'Fixes', version: '1.0.1', issue_ids: [issue.id] });
    await announcedIn(api, [data.id]);
    await ctx().services.webhookDispatcher.stop(0);
    const { sla } = await read(api, data.id);
    assert.equal(sla.status, 'active');
    assert.ok((await listed(api, `product_id=${product.id}&sla=running`)).includes(data.id));
    await reply(api, data.id);
    assert.equal((await patch(api, data.id, { status: 'resolved' })).sla.status, 'hit');
  });
});
