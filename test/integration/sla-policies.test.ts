// /api/v1/sla-policies (docs/service-levels.md): targets for the conversations a policy's
// conditions match, measured in a calendar or round the clock, tried in position order. Every
// member reads them, the settings role writes them; positions stay 1 … n through creates, moves
// and deletes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect, unique, type Client } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';

const BASE = '/api/v1/sla-policies';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';

async function createPolicy(api: Client, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post(BASE, { name: unique('Policy'), first_response_seconds: 3600, ...overrides });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

async function createCalendar(api: Client): Promise<any> {
  const res = await api.post('/api/v1/calendars', { name: unique('Hours'), timezone: 'Europe/Berlin', hours: { mon: [['09:00', '17:00']] } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** The workspace's policies by name, in list order, with their positions. */
async function order(api: Client): Promise<[string, number][]> {
  const res = await api.get(`${BASE}?limit=200`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((policy: any) => [policy.name, policy.position]);
}

describeEachDialect('SLA policies CRUD [ext]', (ctx) => {
  it('creates one with every field and reads it back by id and in the list', async () => {
    const product = await createProduct(ctx().a.api);
    const calendar = await createCalendar(ctx().a.api);
    const res = await ctx().a.api.post(BASE, {
      name: '  Urgent tickets ', active: false,
      conditions: {
        product_ids: [product.id.toUpperCase(), product.id], priorities: ['urgent', 'high', 'urgent'], types: ['ticket'], sources: ['email', 'chat'],
        tags: [' VIP ', 'vip', 'Billing'],
      },
      first_response_seconds: 3600, next_response_seconds: 7200, resolution_seconds: 86400, calendar_id: calendar.id,
    });
    assert.equal(res.status, 201, res.text);
    const { id, created_at, position, ...rest } = res.body.data;
    assert.deepEqual(rest, {
      name: 'Urgent tickets', active: false,
      conditions: { product_ids: [product.id], priorities: ['urgent', 'high'], types: ['ticket'], sources: ['email', 'chat'], tags: ['VIP', 'Billing'] },
      first_response_seconds: 3600, next_response_seconds: 7200, resolution_seconds: 86400, calendar_id: calendar.id, updated_at: created_at,
    });
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${id}`)).body.data, res.body.data);
    const list = await ctx().a.api.get(`${BASE}?limit=200`);
    assert.deepEqual(list.body.data.find((policy: any) => policy.id === id), res.body.data);
    assert.equal(list.body.pagination.total, list.body.data.length);
    assert.equal(position, list.body.data.length);
  });

  it('defaults: active, conditions {} (empty lists left out), no other target, round the clock', async () => {
    const policy = await createPolicy(ctx().a.api, { resolution_seconds: 60, first_response_seconds: undefined, conditions: { types: [], tags: [] } });
    assert.deepEqual(
      [policy.active, policy.conditions, policy.first_response_seconds, policy.next_response_seconds, policy.resolution_seconds, policy.calendar_id],
      [true, {}, null, null, 60, null],
    );
  });

  it('PATCH changes the fields given; conditions are replaced whole; updated_at moves only on an effective change', async () => {
    const policy = await createPolicy(ctx().a.api, { conditions: { priorities: ['urgent'] } });
    await sleep(5);
    const same = await ctx().a.api.patch(`${BASE}/${policy.id}`, { name: policy.name, conditions: { priorities: ['urgent', 'urgent'] }, first_response_seconds: 3600 });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(same.body.data, policy);
    const calendar = await createCalendar(ctx().a.api);
    const changed = await ctx().a.api.patch(`${BASE}/${policy.id}`, {
      conditions: { types: ['chat'] }, first_response_seconds: null, resolution_seconds: 600, active: false, calendar_id: calendar.id,
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(
      [changed.body.data.conditions, changed.body.data.first_response_seconds, changed.body.data.resolution_seconds, changed.body.data.active, changed.body.data.calendar_id],
      [{ types: ['chat'] }, null, 600, false, calendar.id],
    );
    assert.ok(changed.body.data.updated_at > policy.updated_at);
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${policy.id}`)).body.data, changed.body.data);
  });

  it('DELETE answers 204, then the policy is gone', async () => {
    const policy = await createPolicy(ctx().a.api);
    assert.equal((await ctx().a.api.delete(`${BASE}/${policy.id}`)).status, 204);
    assertNotFound(await ctx().a.api.get(`${BASE}/${policy.id}`));
    assertNotFound(await ctx().a.api.delete(`${BASE}/${policy.id}`));
  });

  for (const [what, body, field, mentions] of [
    ['a missing name', { name: undefined }, 'name'],
    ['a blank name', { name: ' ' }, 'name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['no target', { first_response_seconds: undefined }, 'next_response_seconds', 'give at least one of'],
    ['only null targets', { first_response_seconds: null, next_response_seconds: null, resolution_seconds: null }, 'resolution_seconds', 'give at least one of'],
    ['a target of 0', { first_response_seconds: 0 }, 'first_response_seconds'],
    ['a negative target', { next_response_seconds: -60 }, 'next_response_seconds'],
    ['a fractional target', { resolution_seconds: 1.5 }, 'resolution_seconds'],
    ['a target over a year', { resolution_seconds: 31_536_001 }, 'resolution_seconds'],
    ['a target as a string', { first_response_seconds: '3600' }, 'first_response_seconds'],
    ['a position of 0', { position: 0 }, 'position'],
    ['active that is not a boolean', { active: 'yes' }, 'active'],
    ['conditions that are not an object', { conditions: [] }, 'conditions'],
    ['an unknown condition', { conditions: { assignee_ids: [] } }, 'conditions.assignee_ids'],
    ['a product id that is not a UUID', { conditions: { product_ids: ['app'] } }, 'conditions.product_ids'],
    ['an unknown product id', { conditions: { product_ids: [UNKNOWN_ID] } }, 'conditions.product_ids', UNKNOWN_ID],
    ['an unknown priority', { conditions: { priorities: ['critical'] } }, 'conditions.priorities'],
    ['an unknown type', { conditions: { types: ['bug'] } }, 'conditions.types'],
    ['an unknown source', { conditions: { sources: ['phone'] } }, 'conditions.sources'],
    ['a blank tag', { conditions: { tags: ['  '] } }, 'conditions.tags'],
    ['a tag with a comma', { conditions: { tags: ['a,b'] } }, 'conditions.tags'],
    ['101 products', { conditions: { product_ids: Array.from({ length: 101 }, () => UNKNOWN_ID) } }, 'conditions.product_ids'],
    ['a calendar id that is not a UUID', { calendar_id: 'office' }, 'calendar_id'],
    ['an unknown calendar', { calendar_id: UNKNOWN_ID }, 'calendar_id', 'not a calendar of this workspace'],
    ['an unknown field', { breach_webhook: true }, 'breach_webhook'],
  ] as const) {
    it(`POST rejects ${what}, creating nothing`, async () => {
      const before = await order(ctx().a.api);
      // An override of undefined leaves the field out (JSON has no undefined).
      assertInvalid(await ctx().a.api.post(BASE, { name: unique('Policy'), first_response_seconds: 3600, ...(body as Record<string, unknown>) }), field, mentions);
      assert.deepEqual(await order(ctx().a.api), before);
    });
  }

  it('POST names a product of another workspace as unknown', async () => {
    const theirs = await createProduct(ctx().b.api);
    assertInvalid(await ctx().a.api.post(BASE, { name: 'x', first_response_seconds: 60, conditions: { product_ids: [theirs.id] } }), 'conditions.product_ids', theirs.id);
  });

  for (const [what, body, field] of [
    ['a blank name', { name: '' }, 'name'],
    ['null as the name', { name: null }, 'name'],
    ['removing the last target', { first_response_seconds: null }, 'first_response_seconds'],
    ['an unknown product', { conditions: { product_ids: [UNKNOWN_ID] } }, 'conditions.product_ids'],
    ['an unknown calendar', { calendar_id: UNKNOWN_ID }, 'calendar_id'],
    ['a position of -1', { position: -1 }, 'position'],
    ['an unknown field', { id: UNKNOWN_ID }, 'id'],
  ] as const) {
    it(`PATCH rejects ${what}, changing nothing`, async () => {
      const policy = await createPolicy(ctx().a.api);
      assertInvalid(await ctx().a.api.patch(`${BASE}/${policy.id}`, body), field);
      assert.deepEqual((await ctx().a.api.get(`${BASE}/${policy.id}`)).body.data, policy);
    });
  }

  it('answers 404 for a malformed or unknown id (before the body), on every method', async () => {
    for (const id of ['nope', UNKNOWN_ID]) {
      assertNotFound(await ctx().a.api.get(`${BASE}/${id}`));
      assertNotFound(await ctx().a.api.patch(`${BASE}/${id}`, { name: '' }));
      assertNotFound(await ctx().a.api.delete(`${BASE}/${id}`));
    }
  });

  it('keeps each workspace\'s policies its own, and refuses another workspace\'s calendar', async () => {
    const policy = await createPolicy(ctx().a.api);
    assertNotFound(await ctx().b.api.get(`${BASE}/${policy.id}`));
    assertNotFound(await ctx().b.api.patch(`${BASE}/${policy.id}`, { name: 'Taken' }));
    assertNotFound(await ctx().b.api.delete(`${BASE}/${policy.id}`));
    assert.ok(!(await ctx().b.api.get(`${BASE}?limit=200`)).body.data.some((p: any) => p.id === policy.id));
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${policy.id}`)).body.data, policy);
    const theirs = await createCalendar(ctx().b.api);
    assertInvalid(await ctx().a.api.post(BASE, { name: 'x', first_response_seconds: 60, calendar_id: theirs.id }), 'calendar_id');
    assertInvalid(await ctx().a.api.patch(`${BASE}/${policy.id}`, { calendar_id: theirs.id }), 'calendar_id');
  });

  it('lets read-only keys read, and nothing else', async () => {
    const policy = await createPolicy(ctx().a.api);
    const readOnly = ctx().client(ctx().a.readOnlyKey);
    assert.equal((await readOnly.get(BASE)).status, 200);
    assert.equal((await readOnly.get(`${BASE}/${policy.id}`)).status, 200);
    assertForbidden(await readOnly.post(BASE, { name: 'x', first_response_seconds: 60 }));
    assertForbidden(await readOnly.patch(`${BASE}/${policy.id}`, { name: 'x' }));
    assertForbidden(await readOnly.delete(`${BASE}/${policy.id}`));
  });

  it('lets agents read, and refuses them every change (403 before lookup or validation)', async () => {
    const policy = await createPolicy(ctx().a.api);
    const agent = await newPerson(ctx(), ctx().a);
    const agentKey = ctx().client((await ctx().services.admin.createKey({ workspaceId: ctx().a.id, memberId: agent.member.id })).key);
    for (const api of [agent.app, agentKey]) {
      assert.equal((await api.get(BASE)).status, 200);
      assert.equal((await api.get(`${BASE}/${policy.id}`)).status, 200);
      assertForbidden(await api.post(BASE, { name: 'x', first_response_seconds: 60 }));
      assertForbidden(await api.post(BASE, {}));
      assertForbidden(await api.patch(`${BASE}/${policy.id}`, { name: 'x' }));
      assertForbidden(await api.patch(`${BASE}/${UNKNOWN_ID}`, { name: 'x' }));
      assertForbidden(await api.delete(`${BASE}/${policy.id}`));
    }
    const admin = await newPerson(ctx(), ctx().a, 'admin');
    assert.equal((await admin.app.patch(`${BASE}/${policy.id}`, { name: unique('By admin') })).status, 200);
    const integration = ctx().client(ctx().a.memberlessKey);
    assert.equal((await integration.post(BASE, { name: unique('By integration'), first_response_seconds: 60 })).status, 201);
  });
});

describeEachDialect('SLA policy positions [ext]', (ctx) => {
  // The second workspace, whose policies no other test touches.
  const api = () => ctx().b.api;

  it('appends, inserts at a position, moves up and down, and closes the gap of a delete: always 1 … n', async () => {
    const [a, b] = [await createPolicy(api(), { name: 'A' }), await createPolicy(api(), { name: 'B' })];
    assert.deepEqual([a.position, b.position], [1, 2]);
    const c = await createPolicy(api(), { name: 'C', position: 1 });
    assert.equal(c.position, 1);
    assert.deepEqual(await order(api()), [['C', 1], ['A', 2], ['B', 3]]);
    const d = await createPolicy(api(), { name: 'D', position: 99 });
    assert.equal(d.position, 4);
    // Down: those between move up one.
    assert.equal((await api().patch(`${BASE}/${c.id}`, { position: 3 })).body.data.position, 3);
    assert.deepEqual(await order(api()), [['A', 1], ['B', 2], ['C', 3], ['D', 4]]);
    // Up: those between move down one.
    assert.equal((await api().patch(`${BASE}/${d.id}`, { position: 1 })).body.data.position, 1);
    assert.deepEqual(await order(api()), [['D', 1], ['A', 2], ['B', 3], ['C', 4]]);
    // Past the end: the end.
    assert.equal((await api().patch(`${BASE}/${a.id}`, { position: 1000 })).body.data.position, 4);
    assert.deepEqual(await order(api()), [['D', 1], ['B', 2], ['C', 3], ['A', 4]]);
    assert.equal((await api().delete(`${BASE}/${b.id}`)).status, 204);
    assert.deepEqual(await order(api()), [['D', 1], ['C', 2], ['A', 3]]);
    assert.equal((await api().get(`${BASE}/${a.id}`)).body.data.position, 3);
  });

  it('a move to its own place changes nothing (updated_at stays); the others\' updated_at never moves with a shift', async () => {
    const before = (await api().get(`${BASE}?limit=200`)).body.data;
    const [first, second] = before;
    await sleep(5);
    assert.deepEqual((await api().patch(`${BASE}/${first.id}`, { position: first.position })).body.data, first);
    const moved = (await api().patch(`${BASE}/${second.id}`, { position: 1 })).body.data;
    assert.ok(moved.updated_at > second.updated_at);
    const shifted = (await api().get(`${BASE}/${first.id}`)).body.data;
    assert.deepEqual([shifted.position, shifted.updated_at], [2, first.updated_at]);
  });

  it('pages through the list in position order', async () => {
    const all = await order(api());
    const page = await api().get(`${BASE}?limit=1&offset=1`);
    assert.deepEqual(page.body.data.map((policy: any) => [policy.name, policy.position]), [all[1]]);
    assert.equal(page.body.pagination.total, all.length);
  });

  it('keeps positions 1 … n under concurrent creates and moves', async () => {
    const created = await Promise.all(Array.from({ length: 6 }, (_, i) => api().post(BASE, { name: unique(`Race ${i}`), first_response_seconds: 60, position: 1 })));
    for (const res of created) assert.equal(res.status, 201, res.text);
    const moves = await Promise.all(created.map((res, i) => api().patch(`${BASE}/${res.body.data.id}`, { position: (i % 3) + 1 })));
    for (const res of moves) assert.equal(res.status, 200, res.text);
    const positions = (await order(api())).map(([, position]) => position);
    assert.deepEqual(positions, Array.from({ length: positions.length }, (_, i) => i + 1));
  });
});
