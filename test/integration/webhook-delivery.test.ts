// Delivery to a real receiver in the test process, verified as a receiver would with the
// `standardwebhooks` package: each event once, signed, with the documented payload; retries on
// the schedule (a short one set for the test); the timeout; the deliveries log and manual retry;
// nothing from a rolled-back transaction; a graceful stop hands attempts in flight back.
// Most tests record events through the outbox, to control their payloads exactly; one makes them
// through real API writes, end to end.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { EVENT_TYPES, type DomainEvent } from '../../src/events/event-types.js';
import { inTransaction } from '../../src/domain/shared/unit-of-work.js';
import { eventually, numberedEvents, recordEvents } from '../helpers/events.js';
import { createIssue, createProduct, createRelease, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { webhookPayloadChecker } from '../helpers/openapi-check.js';
import { byWebhookId, startReceiver, verified, type Receiver } from '../helpers/webhook-receiver.js';

const SCHEDULE_MS = [50, 100];
const TIMEOUT_MS = 500;
const SETTINGS = { allowPrivate: true, pollIntervalMs: 20, retryScheduleMs: SCHEDULE_MS, timeoutMs: TIMEOUT_MS };

let paths = 0;
/** An endpoint of workspace A at a fresh path of the receiver; returns it with its secret and path. */
async function endpointAt(context: TestContext, receiver: Receiver, body: Record<string, unknown> = {}) {
  const path = `/hook-${++paths}`;
  const res = await context.a.api.post('/api/v1/webhooks', { url: `${receiver.url}${path}`, events: ['*'], ...body });
  assert.equal(res.status, 201, res.text);
  return { ...res.body.data, path };
}

const deliveriesOf = async (context: TestContext, endpointId: string): Promise<any[]> =>
  (await context.a.api.get(`/api/v1/webhooks/${endpointId}/deliveries?limit=200`)).body.data;

const settledDeliveries = (context: TestContext, endpointId: string, count: number) =>
  eventually(
    () => deliveriesOf(context, endpointId),
    (list) => list.length === count && list.every((d) => d.status !== 'pending'),
    `${count} deliveries settled`,
  );

/** One event of every type, with data as the API returns each resource (created before any endpoint). */
async function oneEventOfEachType(context: TestContext): Promise<DomainEvent[]> {
  const { api, id: workspaceId } = context.a;
  const product = await createProduct(api);
  const issue = (await api.get(`/api/v1/issues/${(await createIssue(api, product.id)).id}`)).body.data;
  // No first message: a contact's message would also have the conversation summarized, one more event, later.
  const conversation = await importConversation(api, product.id);
  const message = (await api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'Hi there' })).body.data;
  const detail = (await api.get(`/api/v1/conversations/${conversation.id}`)).body.data;
  const release = await createRelease(api, product.id, { issue_ids: [issue.id] });
  const suggestion = (await api.post(`/api/v1/conversations/${conversation.id}/triage`)).body.data[0];
  const dismissed = (await api.post(`/api/v1/suggestions/${suggestion.id}/dismiss`)).body.data;
  const article = (await api.post('/api/v1/articles', { product_id: product.id, title: 'Resetting a password', body: 'Open Settings.', status: 'published' })).body.data;
  // An endpoint receives the events recorded from the millisecond it was created on: the writes'
  // own events stay before it.
  await new Promise((resolve) => setTimeout(resolve, 2));
  const event = (type: DomainEvent['type'], data: object, previous?: Record<string, unknown>): DomainEvent => ({ type, workspaceId, data, previous });
  return [
    event('product.created', product), event('product.updated', product, { name: 'Before' }),
    event('issue.created', issue), event('issue.updated', issue, { status: 'pending', priority: 'low' }),
    event('conversation.created', detail), event('conversation.updated', detail, { status: 'in_progress' }),
    event('conversation.sla_breached', { conversation: detail, target: 'first_response', due_at: detail.created_at }),
    event('message.created', { ...message, conversation_id: conversation.id }),
    event('release.created', release), event('release.updated', release, { title: 'Before' }), event('release.published', release),
    event('suggestion.created', suggestion), event('suggestion.updated', dismissed, { status: 'open' }),
    event('article.created', article), event('article.updated', article, { title: 'Before' }), event('article.published', article),
  ];
}

describeEachDialect('webhook delivery', (ctx) => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    ctx().services.webhookDispatcher.start();
  });
  after(() => receiver.close());
  const arrivedAt = (path: string) => receiver.received.filter((r) => r.path === path);

  it('delivers every event type once, signed, with the documented payload and headers', async () => {
    const context = ctx();
    const events = await oneEventOfEachType(context);
    assert.deepEqual(events.map((event) => event.type).sort(), [...EVENT_TYPES].sort(), 'one event of every type there is');
    const all = await endpointAt(context, receiver);
    const issuesOnly = await endpointAt(context, receiver, { events: ['issue.created', 'issue.updated'] });
    const disabled = await endpointAt(context, receiver);
    await context.a.api.patch(`/api/v1/webhooks/${disabled.id}`, { enabled: false });
    const otherWorkspace = (await context.b.api.post('/api/v1/webhooks', { url: `${receiver.url}/theirs`, events: ['*'] })).body.data;
    await recordEvents(context, events);

    const deliveries = await settledDeliveries(context, all.id, events.length);
    await settledDeliveries(context, issuesOnly.id, 2);
    const check = webhookPayloadChecker((await context.a.api.get('/api/v1/openapi.json')).body);
    const stored = new Map(
      (await context.database.db.selectFrom('events').select(['id', 'payload']).where('workspace_id', '=', context.a.id).execute())
        .map((row) => [row.id, row.payload]),
    );
    const requests = arrivedAt(all.path);
    assert.equal(requests.length, events.length, 'each event arrives once');
    for (const delivery of deliveries) {
      assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status_code, delivery.last_error], ['succeeded', 1, 204, null]);
      const [request] = byWebhookId(requests).get(delivery.id)!;
      assert.equal(request.body, stored.get(delivery.event_id), 'the body is the recorded payload, byte for byte');
      const payload = verified(all.secret, request);
      assert.equal(payload.type, delivery.event_type);
      check(payload);
      assert.equal(request.headers['content-type'], 'application/json');
      assert.match(String(request.headers['user-agent']), /^Loopdesk-Webhooks\//);
      assert.match(String(request.headers['webhook-timestamp']), /^\d{10}$/);
    }
    const sent = requests.map((r) => verified(all.secret, r));
    assert.deepEqual(sent.map((p) => p.type).sort(), events.map((e) => e.type).sort());
    assert.deepEqual(sent.find((p) => p.type === 'issue.updated')!.data.previous, { status: 'pending', priority: 'low' });
    assert.deepEqual(arrivedAt(issuesOnly.path).map((r) => verified(issuesOnly.secret, r).type).sort(), ['issue.created', 'issue.updated']);
    assert.throws(() => verified(issuesOnly.secret, requests[0]), /No matching signature/, 'another endpoint\'s secret does not verify');
    assert.deepEqual(await deliveriesOf(context, disabled.id), [], 'a disabled endpoint gets no deliveries');
    assert.equal(arrivedAt('/theirs').length, 0, 'another workspace\'s endpoint gets nothing');
    assert.equal((await context.b.api.get(`/api/v1/webhooks/${otherWorkspace.id}/deliveries`)).body.pagination.total, 0);
  });

  it('delivers what real API writes record, one event per change, each matching the resource as GET shows it', async () => {
    const context = ctx();
    const { api } = context.a;
    const endpoint = await endpointAt(context, receiver);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const product = await createProduct(api);
    await api.patch(`/api/v1/products/${product.id}`, { name: `${product.name} renamed` });
    const issue = await createIssue(api, product.id);
    await api.patch(`/api/v1/issues/${issue.id}`, { status: 'done' });
    const conversation = await importConversation(api, product.id, { body: 'It broke' });
    await api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'On it' });
    await api.patch(`/api/v1/conversations/${conversation.id}`, { status: 'resolved' });
    const draft = await createRelease(api, product.id, { released_at: null, issue_ids: [issue.id] });
    await api.patch(`/api/v1/releases/${draft.id}`, { released_at: '2026-11-23T12:00:00.000Z' });
    // The contact's first message has the conversation summarized (a conversation.updated of its
    // own), then triaged (the product's default, suggest: a suggestion.created).
    const expected = [
      'product.created', 'product.updated', 'issue.created', 'issue.updated', 'conversation.created', 'message.created',
      'message.created', 'conversation.updated', 'conversation.updated', 'issue.updated', 'release.created', 'release.updated', 'release.published',
      'suggestion.created',
    ];
    await settledDeliveries(context, endpoint.id, expected.length);
    const check = webhookPayloadChecker((await api.get('/api/v1/openapi.json')).body);
    const payloads = arrivedAt(endpoint.path).map((request) => verified(endpoint.secret, request));
    assert.deepEqual(payloads.map((p) => p.type).sort(), [...expected].sort());
    for (const payload of payloads) check(payload);
    const last = (type: string) => payloads.filter((p) => p.type === type).at(-1)!.data;
    const { previous: _issuePrevious, ...issueNow } = last('issue.updated');
    assert.deepEqual(issueNow, (await api.get(`/api/v1/issues/${issue.id}`)).body.data);
    assert.deepEqual(last('release.published'), (await api.get(`/api/v1/releases/${draft.id}`)).body.data);
    assert.equal(last('release.updated').previous.released_at, null);
  });

  it('makes the third attempt after a receiver answered 500 twice, with the same webhook-id', async () => {
    const context = ctx();
    const endpoint = await endpointAt(context, receiver);
    receiver.answer((request) => (request.path === endpoint.path && arrivedAt(endpoint.path).length <= 2 ? 500 : 204));
    await recordEvents(context, numberedEvents(context.a.id, 1));
    const [delivery] = await settledDeliveries(context, endpoint.id, 1);
    receiver.answer(() => 204);
    assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status_code, delivery.last_error], ['succeeded', 3, 204, null]);
    const attempts = arrivedAt(endpoint.path);
    assert.equal(attempts.length, 3);
    assert.deepEqual(attempts.map((r) => r.headers['webhook-id']), [delivery.id, delivery.id, delivery.id]);
    for (const attempt of attempts) verified(endpoint.secret, attempt);
  });

  it('fails a delivery after the last retry of the schedule, then a manual retry delivers it', async () => {
    const context = ctx();
    const endpoint = await endpointAt(context, receiver);
    receiver.answer((request) => (request.path === endpoint.path ? 503 : 204));
    await recordEvents(context, numberedEvents(context.a.id, 1));
    const [failed] = await settledDeliveries(context, endpoint.id, 1);
    assert.deepEqual(
      [failed.status, failed.attempts, failed.last_status_code, failed.last_error, failed.next_attempt_at],
      ['failed', SCHEDULE_MS.length + 1, 503, 'HTTP 503: answered 503 on purpose', null],
    );

    receiver.answer(() => 204);
    const retry = await context.a.api.post(`/api/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`);
    assert.equal(retry.status, 202);
    const [delivered] = await settledDeliveries(context, endpoint.id, 1);
    assert.deepEqual([delivered.status, delivered.attempts, delivered.last_status_code], ['succeeded', SCHEDULE_MS.length + 2, 204]);
    const attempts = arrivedAt(endpoint.path);
    assert.equal(attempts.length, SCHEDULE_MS.length + 2);
    assert.equal(attempts.at(-1)!.headers['webhook-id'], failed.id);
  });

  it(`cuts a receiver that does not answer within the timeout (${TIMEOUT_MS} ms here) and retries`, async () => {
    const context = ctx();
    const endpoint = await endpointAt(context, receiver);
    receiver.answer((request) => (request.path === endpoint.path && arrivedAt(endpoint.path).length === 1 ? 'hang' : 204));
    const cutBefore = receiver.cut;
    await recordEvents(context, numberedEvents(context.a.id, 1));
    const [delivery] = await settledDeliveries(context, endpoint.id, 1);
    receiver.answer(() => 204);
    assert.deepEqual([delivery.status, delivery.attempts], ['succeeded', 2]);
    await receiver.waitUntil(() => receiver.cut - cutBefore === 1, 'the hanging request closed by the sender');
  });

  it('records the last failure of a pending delivery: status code and error', async () => {
    const context = ctx();
    const endpoint = await endpointAt(context, receiver);
    await context.database.db.updateTable('webhook_endpoints').set({ url: 'http://127.0.0.1:1/closed' }).where('id', '=', endpoint.id).execute();
    await recordEvents(context, numberedEvents(context.a.id, 1));
    const [delivery] = await settledDeliveries(context, endpoint.id, 1);
    assert.deepEqual([delivery.status, delivery.last_status_code, delivery.last_error], ['failed', null, 'connection refused']);
  });

  it('signs with the new secret and, until it expires, the replaced one after a rotation', async () => {
    const context = ctx();
    const endpoint = await endpointAt(context, receiver);
    const rotated = (await context.a.api.post(`/api/v1/webhooks/${endpoint.id}/rotate-secret?previous_secret_expires_in=1`)).body.data;
    await recordEvents(context, numberedEvents(context.a.id, 1));
    await settledDeliveries(context, endpoint.id, 1);
    const [during] = arrivedAt(endpoint.path);
    assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2, 'two signatures, space-separated');
    verified(rotated.secret, during);
    verified(endpoint.secret, during);

    await new Promise((resolve) => setTimeout(resolve, Date.parse(rotated.previous_secret_expires_at) - Date.now() + 10));
    assert.equal((await context.a.api.get(`/api/v1/webhooks/${endpoint.id}`)).body.data.previous_secret_expires_at, null);
    await recordEvents(context, numberedEvents(context.a.id, 1));
    await settledDeliveries(context, endpoint.id, 2);
    const after = arrivedAt(endpoint.path)[1];
    assert.equal(String(after.headers['webhook-signature']).split(' ').length, 1);
    verified(rotated.secret, after);
    assert.throws(() => verified(endpoint.secret, after), /No matching signature/);
  });

  it('signs with the new secret only after a rotation with previous_secret_expires_in=0', async () => {
    const context = ctx();
    const endpoint = await endpointAt(context, receiver);
    const rotated = (await context.a.api.post(`/api/v1/webhooks/${endpoint.id}/rotate-secret?previous_secret_expires_in=0`)).body.data;
    await recordEvents(context, numberedEvents(context.a.id, 1));
    await settledDeliveries(context, endpoint.id, 1);
    const [request] = arrivedAt(endpoint.path);
    verified(rotated.secret, request);
    assert.throws(() => verified(endpoint.secret, request), /No matching signature/);
  });

  it('keeps a disabled endpoint\'s pending deliveries waiting until it is enabled again', async () => {
    const context = ctx();
    const endpoint = await endpointAt(context, receiver);
    await recordEvents(context, numberedEvents(context.a.id, 1));
    await settledDeliveries(context, endpoint.id, 1);
    await context.a.api.patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: false });
    const [delivery] = await deliveriesOf(context, endpoint.id);
    await context.a.api.post(`/api/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(arrivedAt(endpoint.path).length, 1, 'no attempt while disabled');
    assert.equal((await deliveriesOf(context, endpoint.id))[0].status, 'pending');
    await context.a.api.patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: true });
    await settledDeliveries(context, endpoint.id, 1);
    assert.equal(arrivedAt(endpoint.path).length, 2);
  });

  it('delivers nothing for a transaction that rolled back', async () => {
    const context = ctx();
    const endpoint = await endpointAt(context, receiver);
    await assert.rejects(
      inTransaction(context.database.db, async (work) => {
        await context.services.outbox.record(work, numberedEvents(context.a.id, 1)[0]);
        throw new Error('the write failed');
      }),
      /the write failed/,
    );
    await recordEvents(context, numberedEvents(context.a.id, 1, 1000));
    const [delivery] = await settledDeliveries(context, endpoint.id, 1);
    const [request] = arrivedAt(endpoint.path);
    assert.equal(verified(endpoint.secret, request).data.number, 1000, 'only the committed event arrives');
    assert.equal(delivery.status, 'succeeded');
  });
}, { webhooks: SETTINGS, summaries: { debounceMs: 20 } });

describeEachDialect('stopping the dispatcher', (ctx) => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('hands an attempt still in flight after the grace period back: due now, no attempt counted', async () => {
    const context = ctx();
    receiver.answer(() => 'hang');
    const endpoint = await endpointAt(context, receiver);
    await recordEvents(context, numberedEvents(context.a.id, 1));
    context.services.webhookDispatcher.start();
    await receiver.waitUntil((received) => received.length === 1, 'reached');
    await context.services.webhookDispatcher.stop(50);
    const [delivery] = await deliveriesOf(context, endpoint.id);
    assert.deepEqual([delivery.status, delivery.attempts, delivery.last_error], ['pending', 0, null]);
    assert.ok(delivery.next_attempt_at <= new Date().toISOString(), `due again now: ${delivery.next_attempt_at}`);
    await receiver.waitUntil(() => receiver.cut === 1, 'cut by the stopping dispatcher');
  });
}, { webhooks: { ...SETTINGS, timeoutMs: 10_000 } });
