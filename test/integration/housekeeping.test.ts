// Housekeeping (src/domain/housekeeping/housekeeping.ts, docs/events.md "Retention"): old events and finished
// webhook deliveries go once past the retention, unless a delivery still needs its event; ended
// sessions, expired visitor sessions and expired invitations go, and replaced webhook secrets are
// forgotten once they stop signing, and shared rate-limit budgets go once idle long enough to be
// full again; everything else stays. The services' clock runs ahead of the
// wall clock by `aheadMs`, as if the server had run for days.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { rateLimitRepository } from '../../src/db/repositories/rate-limit.repository.js';
import { retentionRepository } from '../../src/db/repositories/retention.repository.js';
import { createHousekeeping, HOUSEKEEPING_BATCH, type HousekeepingDeps, type HousekeepingReport } from '../../src/domain/housekeeping/housekeeping.js';
import { createRateLimits } from '../../src/domain/rate-limits/rate-limits.js';
import { RATE_WINDOW_MS } from '../../src/domain/rate-limits/token-bucket.js';
import type { Clock } from '../../src/lib/clock.js';
import { newId, uuidv7Floor } from '../../src/lib/ids.js';
import { eventually, fanOutAll, numberedEvents, recordEvents } from '../helpers/events.js';
import { createIssue, createProduct, invite } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { newPerson, signedInCookie, withSession } from '../helpers/sessions.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { startSession, widgetPath, widgetProduct } from '../helpers/widget.js';

const DAY_MS = 24 * 3600_000;
let aheadMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + aheadMs).toISOString() };

const NOTHING: HousekeepingReport = { webhook_deliveries: 0, events: 0, sessions: 0, widget_sessions: 0, invitations: 0, previous_secrets: 0, rate_limit_buckets: 0, audit_log: 0 };

/** A housekeeping of the context's database keeping events for `days`, on the test's clock. */
const housekeepingOf = (context: TestContext, days: number, more: Partial<HousekeepingDeps> = {}) =>
  createHousekeeping({
    clock, retention: retentionRepository(context.database.db), signInFailures: { purgeBefore: async () => {} },
    auditEntries: { deleteBefore: async () => 0 }, auditRetentionDays: 0,
    refreshStatistics: () => context.database.dialect.refreshStatistics(context.database.db),
    eventRetentionDays: days, onError: (error) => assert.fail(String(error)), ...more,
  });

const ids = async (context: TestContext, table: 'events' | 'webhook_deliveries' | 'sessions' | 'widget_sessions' | 'invitations') =>
  new Set((await context.database.db.selectFrom(table).select('id').execute()).map((row) => row.id));

describe('housekeeping settings and ids', () => {
  it('reads LOOPDESK_EVENT_RETENTION_DAYS: 30 by default, 0 for forever, refuses anything else', () => {
    assert.equal(loadConfig({}).eventRetentionDays, 30);
    assert.equal(loadConfig({ LOOPDESK_EVENT_RETENTION_DAYS: '0' }).eventRetentionDays, 0);
    assert.equal(loadConfig({ LOOPDESK_EVENT_RETENTION_DAYS: '365' }).eventRetentionDays, 365);
    for (const value of ['-1', '1.5', 'month', '36501']) {
      assert.throws(() => loadConfig({ LOOPDESK_EVENT_RETENTION_DAYS: value }), (error) => error instanceof ConfigError && /LOOPDESK_EVENT_RETENTION_DAYS must be an integer from 0 to 36500/.test(error.message));
    }
  });

  it('bounds UUIDv7 ids by time: made before a moment, below its floor; made after, above', async () => {
    const before = newId();
    await new Promise((resolve) => setTimeout(resolve, 2));
    const floor = uuidv7Floor(new Date().toISOString());
    await new Promise((resolve) => setTimeout(resolve, 2));
    const after = newId();
    assert.ok(before < floor && floor < after, `${before} < ${floor} < ${after}`);
    assert.equal(uuidv7Floor('1970-01-01T00:00:00.000Z'), '00000000-0000-0000-0000-000000000000');
  });
});

describeEachDialect('housekeeping', (ctx) => {
  let receiver: Receiver;
  before(async () => {
    aheadMs = 0;
    receiver = await startReceiver();
    receiver.answer((request) => (request.path === '/failing' ? 500 : 204));
  });
  after(() => receiver.close());

  it('deletes finished deliveries and their events past the retention, and keeps what a delivery or the fan-out still needs', async () => {
    const context = ctx();
    const { api } = context.a;
    const endpoint = async (path: string) => (await api.post('/api/v1/webhooks', { url: `${receiver.url}${path}`, events: ['*'] })).body.data;
    const ok = await endpoint('/ok');
    const failing = await endpoint('/failing');
    const product = await createProduct(api);
    await createIssue(api, product.id);
    context.services.webhookDispatcher.start();
    const settled = async (id: string) =>
      eventually(async () => (await api.get(`/api/v1/webhooks/${id}/deliveries`)).body.data as any[], (list) => list.length === 2 && list.every((d) => d.status !== 'pending'), 'settled');
    assert.deepEqual((await settled(ok.id)).map((d) => d.status), ['succeeded', 'succeeded']);
    const [retried, dropped] = await settled(failing.id);
    assert.equal(retried.status, 'failed');
    await context.services.webhookDispatcher.stop(0);
    // Queued again while nothing delivers: pending, so its event must stay.
    assert.equal((await api.post(`/api/v1/webhooks/${failing.id}/deliveries/${retried.id}/retry`)).status, 202);
    // Recorded but never fanned out.
    await createProduct(api);
    const [notFannedOut] = await context.database.db.selectFrom('events').select('id').where('fanned_out_at', 'is', null).execute();
    assert.ok(notFannedOut);
    const eventsBefore = await ids(context, 'events');

    aheadMs = DAY_MS;
    assert.deepEqual(await housekeepingOf(context, 2).runOnce(), NOTHING, 'a day old: within two days');
    aheadMs = 3 * DAY_MS;
    assert.equal((await context.services.housekeeping.runOnce()).events, 0, 'the default keeps 30 days');
    assert.deepEqual(await housekeepingOf(context, 0).runOnce(), NOTHING, '0 keeps them forever');

    const report = await housekeepingOf(context, 2).runOnce();
    assert.deepEqual(report, { ...NOTHING, webhook_deliveries: 3, events: eventsBefore.size - 2 });
    assert.deepEqual(await ids(context, 'events'), new Set([retried.event_id, notFannedOut.id]));
    assert.deepEqual(await ids(context, 'webhook_deliveries'), new Set([retried.id]));
    assert.deepEqual((await api.get(`/api/v1/webhooks/${ok.id}/deliveries`)).body.data, []);
    assert.deepEqual((await api.get(`/api/v1/webhooks/${failing.id}/deliveries`)).body.data.map((d: any) => [d.id, d.status]), [[retried.id, 'pending']]);
    assert.notEqual(dropped.id, retried.id);
    assert.deepEqual(await housekeepingOf(context, 2).runOnce(), NOTHING, 'a second run finds nothing');
  });

  it('deletes in batches until none is left', async () => {
    const context = ctx();
    const count = 2 * HOUSEKEEPING_BATCH + 7;
    // Workspace B has no endpoint: its events need no delivery once fanned out.
    await recordEvents(context, numberedEvents(context.b.id, count));
    await fanOutAll(context);
    aheadMs += 3 * DAY_MS;
    // The first test's last event is fanned out now too, to deliveries that stay pending: it stays.
    assert.deepEqual(await housekeepingOf(context, 2).runOnce(), { ...NOTHING, events: count });
  });

  it('deletes ended sessions, unused visitor sessions and invitations past their expiry, and keeps live ones', async () => {
    const context = ctx();
    const person = await newPerson(context, context.a);
    const signedOut = await signedInCookie(context, { email: person.email, password: person.password });
    assert.equal((await withSession(context, signedOut).post('/auth/sign-out')).status, 204);
    const pendingInvitation = await invite(context.a.api);
    const product = await widgetProduct(context);
    const visitorSession = await startSession(context, product.widget_key);
    const [sessionsBefore, invitationsBefore] = [await ids(context, 'sessions'), await ids(context, 'invitations')];
    const housekeeping = housekeepingOf(context, 2);

    assert.deepEqual(await housekeeping.runOnce(), { ...NOTHING, sessions: 1 }, 'the signed-out session');
    assert.equal((await person.app.get('/api/v1/me')).status, 200, 'a live session keeps working');
    assert.equal((await context.client(visitorSession.token).get(widgetPath(product.widget_key, '/conversations'))).status, 200);

    aheadMs += 8 * DAY_MS;
    assert.deepEqual(await housekeeping.runOnce(), { ...NOTHING, invitations: 1 }, 'the invitation never taken, expired after 7 days');
    const invitationsLeft = await ids(context, 'invitations');
    assert.ok(!invitationsLeft.has(pendingInvitation.id));
    assert.equal(invitationsLeft.size, invitationsBefore.size - 1, 'the accepted invitation stays');

    aheadMs += 23 * DAY_MS;
    assert.deepEqual(await housekeeping.runOnce(), { ...NOTHING, sessions: 1, widget_sessions: 1 }, '30 days unused');
    assert.equal((await ids(context, 'sessions')).size, sessionsBefore.size - 2);
    assert.equal((await ids(context, 'widget_sessions')).size, 0);
    assert.equal((await person.app.get('/api/v1/me')).status, 401);
  });

  it('runs by itself once started, and stops', async () => {
    const context = ctx();
    await recordEvents(context, numberedEvents(context.b.id, 3));
    await fanOutAll(context);
    aheadMs += 3 * DAY_MS;
    const reports: HousekeepingReport[] = [];
    const housekeeping = housekeepingOf(context, 2, { firstRunWithinMs: 1, onReport: (report) => reports.push(report) });
    housekeeping.start();
    await eventually(async () => reports.length, (length) => length > 0, 'a run');
    await housekeeping.stop();
    assert.deepEqual(reports, [{ ...NOTHING, events: 3 }]);
  });

  it('forgets a replaced webhook secret once it stopped signing', async () => {
    const context = ctx();
    const { api } = context.a;
    const endpoint = (await api.post('/api/v1/webhooks', { url: `${receiver.url}/rotated`, events: ['*'] })).body.data;
    await api.post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`);
    const stored = () => context.database.db.selectFrom('webhook_endpoints').select('previous_secret').where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    assert.equal((await housekeepingOf(context, 2).runOnce()).previous_secrets, 0, 'still signing for a day');
    assert.equal((await stored()).previous_secret, endpoint.secret);
    aheadMs += DAY_MS + 1000;
    assert.equal((await housekeepingOf(context, 2).runOnce()).previous_secrets, 1);
    assert.equal((await stored()).previous_secret, null);
  });

  it('deletes shared rate-limit buckets idle for a whole window (full again), and keeps the others', async () => {
    const context = ctx();
    const limiter = createRateLimits({ clock, sharedBuckets: rateLimitRepository(context.database.db) }).limiter('api', 60);
    await limiter.take('idle');
    aheadMs += RATE_WINDOW_MS;
    await limiter.take('recent');
    assert.equal((await housekeepingOf(context, 2).runOnce()).rate_limit_buckets, 1);
    const left = await context.database.db.selectFrom('rate_limit_buckets').select('subject').execute();
    assert.deepEqual(left.map((row) => row.subject), ['recent']);
  });
}, { clock, webhooks: { allowPrivate: true, pollIntervalMs: 20, retryScheduleMs: [50, 100], timeoutMs: 500 } });
