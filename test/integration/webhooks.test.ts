import assert from 'node:assert/strict';
import { it } from 'node:test';
import { EVENT_TYPES } from '../../src/events/event-types.js';
import { fanOutAll, numberedEvents, recordEvents } from '../helpers/events.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';

const MISSING = '01900000-0000-7000-8000-000000000000';
const HOOK = 'https://hooks.example.com/loopdesk';
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let hooks = 0;
const createWebhook = async (api: Client, body: Record<string, unknown> = {}) => {
  const res = await api.post('/api/v1/webhooks', { url: `${HOOK}/${++hooks}`, events: ['*'], ...body });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
};

/** A webhook of workspace A with `count` deliveries (events recorded and fanned out). */
async function webhookWithDeliveries(context: TestContext, count: number) {
  const webhook = await createWebhook(context.a.api);
  await recordEvents(context, numberedEvents(context.a.id, count));
  await fanOutAll(context);
  return webhook;
}

describeEachDialect('POST /api/v1/webhooks', (ctx) => {
  it('creates an enabled endpoint and shows its secret: whsec_ and base64 of 32 bytes', async () => {
    const res = await ctx().a.api.post('/api/v1/webhooks', { url: HOOK, events: ['issue.created', 'issue.updated', 'issue.created'] });
    assert.equal(res.status, 201, res.text);
    const { id, secret, created_at, updated_at, ...rest } = res.body.data;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(secret, SECRET);
    assert.equal(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 32);
    assert.equal(updated_at, created_at);
    assert.deepEqual(rest, { url: HOOK, events: ['issue.created', 'issue.updated'], description: null, enabled: true, previous_secret_expires_at: null });
  });

  it('takes ["*"] and a description', async () => {
    const webhook = await createWebhook(ctx().a.api, { events: ['*'], description: 'Everything' });
    assert.deepEqual([webhook.events, webhook.description], [['*'], 'Everything']);
  });

  it('gives every endpoint its own secret', async () => {
    const [first, second] = [await createWebhook(ctx().a.api), await createWebhook(ctx().a.api)];
    assert.notEqual(first.secret, second.secret);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['a missing url', { url: undefined }, 'url'],
    ['a url that is not a URL', { url: 'hooks.example.com/x' }, 'url'],
    ['an ftp url', { url: 'ftp://hooks.example.com/x' }, 'url'],
    ['a url over 2048 characters', { url: `${HOOK}/${'x'.repeat(2048)}` }, 'url'],
    ['missing events', { events: undefined }, 'events'],
    ['no events', { events: [] }, 'events'],
    ['an unknown event type', { events: ['issue.deleted'] }, 'events'],
    ['"*" with an event type', { events: ['*', 'issue.created'] }, 'events'],
    ['a description over 500 characters', { description: 'd'.repeat(501) }, 'description'],
    ['enabled, which is set by PATCH', { enabled: false }, 'enabled'],
    ['an unknown field', { secret: 'whsec_mine' }, 'secret'],
  ];
  for (const [what, change, field] of invalid) {
    it(`rejects ${what} (400, fields.${field}) and creates nothing`, async () => {
      const { a } = ctx();
      const before = (await a.api.get('/api/v1/webhooks')).body.pagination.total;
      const res = await a.api.post('/api/v1/webhooks', { url: HOOK, events: ['*'], ...change });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields[field], res.text);
      assert.equal((await a.api.get('/api/v1/webhooks')).body.pagination.total, before);
    });
  }

  it('reports a malformed url and bad events in one answer', async () => {
    const res = await ctx().a.api.post('/api/v1/webhooks', { url: 'not a url', events: ['*', 'issue.created'] });
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['events', 'url']);
  });
});

describeEachDialect('GET /api/v1/webhooks and GET /api/v1/webhooks/{id}', (ctx) => {
  it('lists the workspace\'s endpoints oldest first, without secrets, and pages them', async () => {
    const { a, b } = ctx();
    const created = [await createWebhook(a.api), await createWebhook(a.api), await createWebhook(a.api)];
    await createWebhook(b.api);
    const all = await a.api.get('/api/v1/webhooks?limit=200');
    assert.equal(all.status, 200);
    const ids = all.body.data.map((w: { id: string }) => w.id);
    assert.deepEqual(ids.slice(-3), created.map((w) => w.id));
    assert.equal(all.body.pagination.total, ids.length);
    assert.ok(all.body.data.every((w: object) => !('secret' in w)));
    const page = await a.api.get(`/api/v1/webhooks?limit=1&offset=${ids.length - 2}`);
    assert.deepEqual(page.body.data.map((w: { id: string }) => w.id), [created[1].id]);
    assert.deepEqual(page.body.pagination, { total: ids.length, limit: 1, offset: ids.length - 2 });
  });

  it('gets one endpoint without its secret', async () => {
    const { secret, ...shown } = await createWebhook(ctx().a.api);
    assert.match(secret, SECRET);
    const res = await ctx().a.api.get(`/api/v1/webhooks/${shown.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, shown);
  });

  it('answers 404 for an unknown, malformed or other workspace\'s id', async () => {
    const theirs = await createWebhook(ctx().b.api);
    for (const id of [MISSING, 'nope', theirs.id]) {
      const res = await ctx().a.api.get(`/api/v1/webhooks/${id}`);
      assert.equal(res.status, 404, id);
      assert.equal(res.body.error_code, 'not_found');
    }
    const listed = (await ctx().a.api.get('/api/v1/webhooks?limit=200')).body.data.map((w: { id: string }) => w.id);
    assert.ok(!listed.includes(theirs.id));
  });
});

describeEachDialect('PATCH /api/v1/webhooks/{id}', (ctx) => {
  it('changes url, events, description and enabled', async () => {
    const webhook = await createWebhook(ctx().a.api);
    const res = await ctx().a.api.patch(`/api/v1/webhooks/${webhook.id}`, {
      url: `${HOOK}/moved`, events: ['release.published'], description: 'Releases', enabled: false,
    });
    assert.equal(res.status, 200, res.text);
    const { updated_at, ...rest } = res.body.data;
    assert.ok(updated_at >= webhook.updated_at);
    assert.deepEqual(rest, {
      id: webhook.id, url: `${HOOK}/moved`, events: ['release.published'], description: 'Releases', enabled: false,
      previous_secret_expires_at: null, created_at: webhook.created_at,
    });
    assert.deepEqual((await ctx().a.api.get(`/api/v1/webhooks/${webhook.id}`)).body.data, res.body.data);
  });

  it('leaves updated_at alone when nothing changes', async () => {
    const webhook = await createWebhook(ctx().a.api);
    const res = await ctx().a.api.patch(`/api/v1/webhooks/${webhook.id}`, { url: webhook.url, enabled: true });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.updated_at, webhook.updated_at);
  });

  it('clears the description with null', async () => {
    const webhook = await createWebhook(ctx().a.api, { description: 'x' });
    const res = await ctx().a.api.patch(`/api/v1/webhooks/${webhook.id}`, { description: null });
    assert.equal(res.body.data.description, null);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['an ftp url', { url: 'ftp://hooks.example.com' }, 'url'],
    ['no events', { events: [] }, 'events'],
    ['"*" with an event type', { events: ['issue.created', '*'] }, 'events'],
    ['a non-boolean enabled', { enabled: 'yes' }, 'enabled'],
    ['an unknown field', { secret: 'x' }, 'secret'],
  ];
  for (const [what, body, field] of invalid) {
    it(`rejects ${what} (400, fields.${field}) and changes nothing`, async () => {
      const { secret: _, ...webhook } = await createWebhook(ctx().a.api);
      const res = await ctx().a.api.patch(`/api/v1/webhooks/${webhook.id}`, body);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.fields[field], res.text);
      assert.deepEqual((await ctx().a.api.get(`/api/v1/webhooks/${webhook.id}`)).body.data, webhook);
    });
  }

  it('answers 404 before validating, for an unknown or other workspace\'s id', async () => {
    const theirs = await createWebhook(ctx().b.api);
    for (const id of [MISSING, theirs.id]) {
      const res = await ctx().a.api.patch(`/api/v1/webhooks/${id}`, { events: [] });
      assert.equal(res.status, 404, id);
    }
    assert.deepEqual((await ctx().b.api.get(`/api/v1/webhooks/${theirs.id}`)).body.data.events, ['*']);
  });
});

describeEachDialect('DELETE /api/v1/webhooks/{id}', (ctx) => {
  it('answers 204 without a body, and the endpoint and its deliveries are gone', async () => {
    const context = ctx();
    const webhook = await webhookWithDeliveries(context, 2);
    assert.equal((await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries`)).body.pagination.total, 2);
    const res = await context.a.api.delete(`/api/v1/webhooks/${webhook.id}`);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await context.a.api.get(`/api/v1/webhooks/${webhook.id}`)).status, 404);
    const left = await context.database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', webhook.id).execute();
    assert.deepEqual(left, []);
    assert.equal((await context.a.api.delete(`/api/v1/webhooks/${webhook.id}`)).status, 404, 'a second delete');
  });

  it('answers 404 for another workspace\'s endpoint, which stays', async () => {
    const theirs = await createWebhook(ctx().b.api);
    assert.equal((await ctx().a.api.delete(`/api/v1/webhooks/${theirs.id}`)).status, 404);
    assert.equal((await ctx().b.api.get(`/api/v1/webhooks/${theirs.id}`)).status, 200);
  });
});

describeEachDialect('POST /api/v1/webhooks/{id}/rotate-secret', (ctx) => {
  it('replaces the secret and shows the new one once', async () => {
    const webhook = await createWebhook(ctx().a.api);
    const res = await ctx().a.api.post(`/api/v1/webhooks/${webhook.id}/rotate-secret`);
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.data.secret, SECRET);
    assert.notEqual(res.body.data.secret, webhook.secret);
    assert.equal(res.body.data.id, webhook.id);
    const stored = await ctx().database.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', webhook.id).executeTakeFirstOrThrow();
    assert.equal(stored.secret, res.body.data.secret);
    assert.ok(!('secret' in (await ctx().a.api.get(`/api/v1/webhooks/${webhook.id}`)).body.data));
  });

  const DAY_MS = 24 * 3600_000;
  /** Milliseconds from now to the timestamp, within a second of `expectedMs`. */
  const aboutIn = (timestamp: string, expectedMs: number) => assert.ok(Math.abs(Date.parse(timestamp) - Date.now() - expectedMs) < 5000, timestamp);

  it('keeps the replaced secret signing for a day unless told otherwise, and says until when', async () => {
    const { api } = ctx().a;
    const webhook = await createWebhook(api);
    const rotated = (await api.post(`/api/v1/webhooks/${webhook.id}/rotate-secret`)).body.data;
    aboutIn(rotated.previous_secret_expires_at, DAY_MS);
    assert.equal((await api.get(`/api/v1/webhooks/${webhook.id}`)).body.data.previous_secret_expires_at, rotated.previous_secret_expires_at);
    const stored = () => ctx().database.db.selectFrom('webhook_endpoints').select(['previous_secret', 'previous_secret_expires_at']).where('id', '=', webhook.id).executeTakeFirstOrThrow();
    assert.equal((await stored()).previous_secret, webhook.secret);

    const week = (await api.post(`/api/v1/webhooks/${webhook.id}/rotate-secret?previous_secret_expires_in=604800`)).body.data;
    aboutIn(week.previous_secret_expires_at, 7 * DAY_MS);
    assert.equal((await stored()).previous_secret, rotated.secret, 'the one it replaced; the first one stops');

    const atOnce = await api.post(`/api/v1/webhooks/${webhook.id}/rotate-secret?previous_secret_expires_in=0`);
    assert.equal(atOnce.status, 200, atOnce.text);
    assert.equal(atOnce.body.data.previous_secret_expires_at, null);
    assert.deepEqual(await stored(), { previous_secret: null, previous_secret_expires_at: null });
    const listed = (await api.get('/api/v1/webhooks')).body.data.find((item: any) => item.id === webhook.id);
    assert.equal(listed.previous_secret_expires_at, null);
  });

  for (const value of ['-1', '1.5', '604801', 'a day', '']) {
    it(`refuses previous_secret_expires_in=${JSON.stringify(value)} and keeps the secret`, async () => {
      const webhook = await createWebhook(ctx().a.api);
      const res = await ctx().a.api.post(`/api/v1/webhooks/${webhook.id}/rotate-secret?previous_secret_expires_in=${encodeURIComponent(value)}`);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields.previous_secret_expires_in, res.text);
      const stored = await ctx().database.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', webhook.id).executeTakeFirstOrThrow();
      assert.equal(stored.secret, webhook.secret);
    });
  }

  it('answers 404 for an unknown or other workspace\'s endpoint', async () => {
    const theirs = await createWebhook(ctx().b.api);
    for (const id of [MISSING, theirs.id]) assert.equal((await ctx().a.api.post(`/api/v1/webhooks/${id}/rotate-secret`)).status, 404);
  });
});

describeEachDialect('GET /api/v1/webhooks/{id}/deliveries', (ctx) => {
  it('lists the endpoint\'s deliveries newest first, one per event', async () => {
    const context = ctx();
    const webhook = await webhookWithDeliveries(context, 3);
    const res = await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries`);
    assert.equal(res.status, 200);
    assert.equal(res.body.pagination.total, 3);
    const [newest] = res.body.data;
    assert.deepEqual(Object.keys(newest).sort(), [
      'attempts', 'created_at', 'event_id', 'event_type', 'id', 'last_error', 'last_status_code', 'next_attempt_at', 'status', 'updated_at',
    ]);
    assert.deepEqual(
      { status: newest.status, attempts: newest.attempts, event_type: newest.event_type, last_status_code: newest.last_status_code },
      { status: 'pending', attempts: 0, event_type: 'product.updated', last_status_code: null },
    );
    const events = await context.database.db.selectFrom('events').select(['id', 'created_at']).where('workspace_id', '=', context.a.id)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(3).execute();
    assert.deepEqual(res.body.data.map((d: { event_id: string }) => d.event_id), events.map((e) => e.id));
  });

  it('filters by status, and refuses an unknown status', async () => {
    const context = ctx();
    const webhook = await webhookWithDeliveries(context, 2);
    const pending = await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries?status=pending,failed`);
    assert.equal(pending.body.pagination.total, 2);
    const succeeded = await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries?status=succeeded`);
    assert.deepEqual([succeeded.body.data, succeeded.body.pagination.total], [[], 0]);
    const bad = await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries?status=done`);
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fields.status);
  });

  it('answers 404 for an unknown or other workspace\'s endpoint', async () => {
    const theirs = await createWebhook(ctx().b.api);
    for (const id of [MISSING, 'x', theirs.id]) assert.equal((await ctx().a.api.get(`/api/v1/webhooks/${id}/deliveries`)).status, 404);
  });
});

describeEachDialect('POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', (ctx) => {
  it('queues a failed delivery again: 202, pending, due now, attempts kept', async () => {
    const context = ctx();
    const webhook = await webhookWithDeliveries(context, 1);
    const [delivery] = (await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries`)).body.data;
    await context.database.db.updateTable('webhook_deliveries')
      .set({ status: 'failed', attempts: 11, next_attempt_at: null, last_status_code: 500, last_error: 'HTTP 500' })
      .where('id', '=', delivery.id).execute();
    const res = await context.a.api.post(`/api/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`);
    assert.equal(res.status, 202, res.text);
    const queued = res.body.data;
    assert.deepEqual(
      { status: queued.status, attempts: queued.attempts, last_status_code: queued.last_status_code },
      { status: 'pending', attempts: 11, last_status_code: 500 },
    );
    assert.equal(queued.next_attempt_at, queued.updated_at);
    const [listed] = (await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries`)).body.data;
    assert.deepEqual(listed, queued);
  });

  it('answers 404 for an unknown delivery, one of another endpoint, and another workspace\'s', async () => {
    const context = ctx();
    const webhook = await webhookWithDeliveries(context, 1);
    const other = await createWebhook(context.a.api);
    const [delivery] = (await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries`)).body.data;
    for (const [endpointId, deliveryId] of [[webhook.id, MISSING], [webhook.id, 'x'], [other.id, delivery.id], [MISSING, delivery.id]]) {
      const res = await context.a.api.post(`/api/v1/webhooks/${endpointId}/deliveries/${deliveryId}/retry`);
      assert.equal(res.status, 404, `${endpointId} ${deliveryId}`);
    }
    assert.equal((await context.b.api.post(`/api/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`)).status, 404);
  });
});

describeEachDialect('webhooks need the settings role', (ctx) => {
  const agentKey = async (context: TestContext) => {
    const agent = await context.services.admin.createMember({ workspaceId: context.a.id, name: 'Agent', role: 'agent' });
    return (await context.services.admin.createKey({ workspaceId: context.a.id, memberId: agent.id })).key;
  };

  it('answers 403 forbidden to an agent\'s key on every webhook route, before lookup and validation', async () => {
    const context = ctx();
    const webhook = await webhookWithDeliveries(context, 1);
    const [delivery] = (await context.a.api.get(`/api/v1/webhooks/${webhook.id}/deliveries`)).body.data;
    const agent = context.client(await agentKey(context));
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/v1/webhooks'],
      ['POST', '/api/v1/webhooks', { url: HOOK, events: ['*'] }],
      ['POST', '/api/v1/webhooks', { url: 'bad' }],
      ['GET', `/api/v1/webhooks/${webhook.id}`],
      ['GET', `/api/v1/webhooks/${MISSING}`],
      ['PATCH', `/api/v1/webhooks/${webhook.id}`, { enabled: false }],
      ['PATCH', `/api/v1/webhooks/${MISSING}`, { events: [] }],
      ['DELETE', `/api/v1/webhooks/${webhook.id}`],
      ['POST', `/api/v1/webhooks/${webhook.id}/rotate-secret`],
      ['GET', `/api/v1/webhooks/${webhook.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`],
    ];
    for (const [method, url, body] of requests) {
      const res = await agent.request(method, url, { body });
      assert.equal(res.status, 403, `${method} ${url}: ${res.text}`);
      assert.equal(res.body.error_code, 'forbidden');
    }
    assert.deepEqual((await context.a.api.get(`/api/v1/webhooks/${webhook.id}`)).body.data.enabled, true, 'nothing changed');
  });

  it('lets an agent\'s key use the rest of the API', async () => {
    const agent = ctx().client(await agentKey(ctx()));
    assert.equal((await agent.get('/api/v1/products')).status, 200);
  });

  it('accepts an admin\'s key and a key without a member', async () => {
    const context = ctx();
    const admin = await context.services.admin.createMember({ workspaceId: context.a.id, name: 'Admin', role: 'admin' });
    const adminKey = (await context.services.admin.createKey({ workspaceId: context.a.id, memberId: admin.id })).key;
    for (const key of [adminKey, context.a.memberlessKey]) {
      const res = await context.client(key).post('/api/v1/webhooks', { url: HOOK, events: ['*'] });
      assert.equal(res.status, 201, res.text);
    }
  });

  it('keeps a read-only key to GET', async () => {
    const webhook = await createWebhook(ctx().a.api);
    const readOnly = ctx().client(ctx().a.readOnlyKey);
    assert.equal((await readOnly.get(`/api/v1/webhooks/${webhook.id}`)).status, 200);
    assert.equal((await readOnly.post(`/api/v1/webhooks/${webhook.id}/rotate-secret`)).status, 403);
  });
});

describeEachDialect('the event payloads in openapi.json and llms.txt', (ctx) => {
  it('documents one webhook per event type: { type, timestamp, data } with data a named resource', async () => {
    const document = (await ctx().a.api.get('/api/v1/openapi.json')).body;
    assert.deepEqual(Object.keys(document.webhooks).sort(), [...EVENT_TYPES].sort());
    const dataOf = (type: string) => document.webhooks[type].post.requestBody.content['application/json'].schema.properties.data.$ref;
    assert.equal(dataOf('issue.created'), '#/components/schemas/Issue');
    assert.equal(dataOf('issue.updated'), '#/components/schemas/IssueWithPrevious');
    assert.equal(dataOf('conversation.created'), '#/components/schemas/ConversationDetail');
    assert.equal(dataOf('message.created'), '#/components/schemas/MessageEvent');
    assert.equal(dataOf('release.published'), '#/components/schemas/ReleaseDetail');
    assert.ok(document.components.schemas.IssueWithPrevious.properties.previous);
    const headers = document.webhooks['issue.created'].post.parameters.map((p: { name: string }) => p.name);
    assert.deepEqual(headers, ['webhook-id', 'webhook-timestamp', 'webhook-signature']);
  });

  it('lists every event type in llms.txt', async () => {
    const text = (await ctx().a.api.get('/api/v1/llms.txt')).text;
    for (const type of EVENT_TYPES) assert.match(text, new RegExp(`^- ${type.replace('.', '\\.')}: `, 'm'), type);
  });
});
