// [ext] Fair assignment (docs/automation.md, "Assignment"): members' availability, each product's
// assignment settings, new conversations assigned in turn or to the fewest open, capacity, the queue
// assigned oldest first when a place comes free, and `assign: "round_robin"` in rules and macros.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertInvalid } from '../helpers/answers.js';
import { createMacro, createRule, settle } from '../helpers/automation.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { newPerson, type Person } from '../helpers/sessions.js';

const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091';

async function team(context: TestContext, size: number): Promise<Person[]> {
  const people: Person[] = [];
  for (let i = 0; i < size; i++) people.push(await newPerson(context, context.a));
  return people;
}

async function assigningProduct(context: TestContext, assignment: Record<string, unknown>): Promise<any> {
  const product = await createProduct(context.a.api);
  const res = await context.a.api.patch(`/api/v1/products/${product.id}`, { assignment: { capacity: null, member_ids: [], ...assignment } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

const assigneeOf = async (context: TestContext, id: string): Promise<string | null> => (await context.a.api.get(`/api/v1/conversations/${id}`)).body.data.assignee_id;

/** New conversations of the product, one after the other; their assignees in order. */
async function arrive(context: TestContext, productId: string, count: number): Promise<{ id: string; assignee_id: string | null }[]> {
  const created = [];
  for (let i = 0; i < count; i++) created.push(await importConversation(context.a.api, productId));
  return created.map(({ id, assignee_id }) => ({ id, assignee_id }));
}

describeEachDialect('availability: PATCH /api/v1/me, GET /me and GET /members', (ctx) => {
  it('is online by default, set away and back, shown on /me and /members', async () => {
    const person = await newPerson(ctx(), ctx().a);
    assert.equal((await person.app.get('/api/v1/me')).body.data.member.availability, 'online');
    const away = await person.app.patch('/api/v1/me', { availability: 'away' });
    assert.equal(away.status, 200, away.text);
    assert.equal(away.body.data.member.availability, 'away');
    const members = (await ctx().a.api.get('/api/v1/members?limit=100')).body.data;
    assert.equal(members.find((member: any) => member.id === person.member.id).availability, 'away');
    assert.equal(members.find((member: any) => member.id === ctx().a.owner.id).availability, 'online');
    assert.equal((await person.app.patch('/api/v1/me', { availability: 'online' })).body.data.member.availability, 'online');
  });

  it('refuses an unknown availability, a key without a member, and read-only keys', async () => {
    assertInvalid(await ctx().a.api.patch('/api/v1/me', { availability: 'busy' }), 'availability');
    const memberless = await ctx().client(ctx().a.memberlessKey).patch('/api/v1/me', { availability: 'away' });
    assert.equal(memberless.status, 400, memberless.text);
    assert.equal((await ctx().client(ctx().a.readOnlyKey).patch('/api/v1/me', { availability: 'away' })).status, 403);
  });
});

describeEachDialect('PATCH /api/v1/products/{id} assignment', (ctx) => {
  it('is off by default and replaced as a whole, with its product.updated', async () => {
    const product = await createProduct(ctx().a.api);
    assert.deepEqual(product.assignment, { mode: 'off', capacity: null, member_ids: [] });
    const [ana] = await team(ctx(), 1);
    const res = await ctx().a.api.patch(`/api/v1/products/${product.id}`, { assignment: { mode: 'balanced', capacity: 3, member_ids: [ana.member.id.toUpperCase()] } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.assignment, { mode: 'balanced', capacity: 3, member_ids: [ana.member.id] });
    assert.deepEqual((await ctx().a.api.get(`/api/v1/products/${product.id}`)).body.data.assignment, res.body.data.assignment);
  });

  it('validates the mode, the capacity, each member by its place, and the whole object', async () => {
    const product = await createProduct(ctx().a.api);
    const patch = (assignment: unknown) => ctx().a.api.patch(`/api/v1/products/${product.id}`, { assignment });
    assertInvalid(await patch({ mode: 'random', capacity: null, member_ids: [] }), 'assignment.mode');
    assertInvalid(await patch({ mode: 'balanced', capacity: 0, member_ids: [] }), 'assignment.capacity');
    assertInvalid(await patch({ mode: 'balanced', capacity: 1.5, member_ids: [] }), 'assignment.capacity');
    assertInvalid(await patch({ mode: 'balanced', member_ids: [] }), 'assignment.capacity');
    assertInvalid(await patch({ mode: 'balanced', capacity: null, member_ids: [], extra: 1 }), 'assignment.extra');
    const [ana] = await team(ctx(), 1);
    const res = await patch({ mode: 'round_robin', capacity: null, member_ids: [ana.member.id, UNKNOWN_ID, ctx().b.owner.id, ana.member.id] });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['assignment.member_ids[1]', 'assignment.member_ids[2]', 'assignment.member_ids[3]']);
    assert.deepEqual((await ctx().a.api.get(`/api/v1/products/${product.id}`)).body.data.assignment.mode, 'off', 'nothing written');
  });

  it('needs the settings role (403 for an agent, read-only keys), and is 404 for other workspaces\' products', async () => {
    const product = await createProduct(ctx().a.api);
    const body = { assignment: { mode: 'round_robin', capacity: null, member_ids: [] } };
    const [agent] = await team(ctx(), 1);
    assert.equal((await agent.app.patch(`/api/v1/products/${product.id}`, body)).status, 403);
    assert.equal((await ctx().client(ctx().a.readOnlyKey).patch(`/api/v1/products/${product.id}`, body)).status, 403);
    assert.equal((await ctx().b.api.patch(`/api/v1/products/${product.id}`, body)).status, 404);
    assert.equal((await ctx().client(ctx().a.memberlessKey).patch(`/api/v1/products/${product.id}`, body)).status, 200, 'an integration key has the settings role');
  });
});

describeEachDialect('fair assignment of new conversations', (ctx) => {
  it('round_robin: to the next online member of the list in turn, passing those away', async () => {
    const people = await team(ctx(), 3);
    const [ana, ben, cai] = people.map((person) => person.member.id);
    const product = await assigningProduct(ctx(), { mode: 'round_robin', member_ids: [ana, ben, cai] });
    assert.deepEqual((await arrive(ctx(), product.id, 4)).map((c) => c.assignee_id), [ana, ben, cai, ana]);
    await people[1].app.patch('/api/v1/me', { availability: 'away' });
    assert.deepEqual((await arrive(ctx(), product.id, 3)).map((c) => c.assignee_id), [cai, ana, cai]);
  });

  it('tells the assignee (a notification), and the conversation.created event shows them', async () => {
    const [ana] = await team(ctx(), 1);
    const product = await assigningProduct(ctx(), { mode: 'round_robin', member_ids: [ana.member.id] });
    const [conversation] = await arrive(ctx(), product.id, 1);
    assert.equal(conversation.assignee_id, ana.member.id);
    const notifications = (await ana.app.get('/api/v1/notifications')).body.data;
    assert.ok(notifications.some((n: any) => n.kind === 'assigned' && n.conversation.id === conversation.id), JSON.stringify(notifications));
  });

  it('balanced: to the online member with the fewest open conversations of the product', async () => {
    const people = await team(ctx(), 2);
    const [ana, ben] = people.map((person) => person.member.id);
    const product = await createProduct(ctx().a.api);
    for (let i = 0; i < 3; i++) {
      const { id } = await importConversation(ctx().a.api, product.id);
      assert.equal((await ctx().a.api.patch(`/api/v1/conversations/${id}`, { assignee_id: ana })).status, 200);
    }
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { assignment: { mode: 'balanced', capacity: null, member_ids: [ana, ben] } });
    assert.deepEqual((await arrive(ctx(), product.id, 4)).map((c) => c.assignee_id), [ben, ben, ben, ana]);
  });

  it('leaves them unassigned with mode off, and assigns every member with an empty list', async () => {
    const product = await createProduct(ctx().a.api);
    assert.equal((await arrive(ctx(), product.id, 1))[0].assignee_id, null);
    const everyone = await assigningProduct(ctx(), { mode: 'round_robin' });
    assert.equal((await arrive(ctx(), everyone.id, 1))[0].assignee_id !== null, true);
  });

  it('never to a member at capacity: the conversation waits, and is assigned oldest first when a place comes free', async () => {
    const people = await team(ctx(), 2);
    const [ana, ben] = people.map((person) => person.member.id);
    const product = await assigningProduct(ctx(), { mode: 'round_robin', capacity: 1, member_ids: [ana, ben] });
    const [first, second, third, fourth] = await arrive(ctx(), product.id, 4);
    assert.deepEqual([first.assignee_id, second.assignee_id, third.assignee_id, fourth.assignee_id], [ana, ben, null, null]);
    // Resolving ana's conversation frees her place: the oldest waiting one goes to her.
    assert.equal((await ctx().a.api.patch(`/api/v1/conversations/${first.id}`, { status: 'resolved' })).status, 200);
    await ctx().services.assignmentQueue.idle();
    assert.deepEqual([await assigneeOf(ctx(), third.id), await assigneeOf(ctx(), fourth.id)], [ana, null]);
    // Reassigning ben's conversation to ana frees ben's place.
    assert.equal((await ctx().a.api.patch(`/api/v1/conversations/${second.id}`, { assignee_id: ctx().a.owner.id })).status, 200);
    await ctx().services.assignmentQueue.idle();
    assert.equal(await assigneeOf(ctx(), fourth.id), ben);
  });

  it('assigns the waiting conversations when a member comes online, or the settings change', async () => {
    const people = await team(ctx(), 2);
    const [ana, ben] = people.map((person) => person.member.id);
    for (const person of people) await person.app.patch('/api/v1/me', { availability: 'away' });
    const product = await assigningProduct(ctx(), { mode: 'round_robin', capacity: 1, member_ids: [ana, ben] });
    const [first, second, third] = await arrive(ctx(), product.id, 3);
    assert.deepEqual([first.assignee_id, second.assignee_id, third.assignee_id], [null, null, null]);
    await people[1].app.patch('/api/v1/me', { availability: 'online' });
    await ctx().services.assignmentQueue.idle();
    assert.deepEqual([await assigneeOf(ctx(), first.id), await assigneeOf(ctx(), second.id)], [ben, null]);
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { assignment: { mode: 'round_robin', capacity: 2, member_ids: [ana, ben] } });
    await ctx().services.assignmentQueue.idle();
    assert.deepEqual([await assigneeOf(ctx(), second.id), await assigneeOf(ctx(), third.id)], [ben, null]);
  });

  it('drops a waiting conversation assigned by hand or closed from the queue', async () => {
    const [ana] = await team(ctx(), 1);
    const product = await assigningProduct(ctx(), { mode: 'round_robin', capacity: 1, member_ids: [ana.member.id] });
    const [first, second, third] = await arrive(ctx(), product.id, 3);
    await ctx().a.api.patch(`/api/v1/conversations/${second.id}`, { status: 'dismissed' });
    await ctx().a.api.patch(`/api/v1/conversations/${first.id}`, { status: 'resolved' });
    await ctx().services.assignmentQueue.idle();
    assert.deepEqual([await assigneeOf(ctx(), second.id), await assigneeOf(ctx(), third.id)], [null, ana.member.id]);
    const waiting = await ctx().database.db.selectFrom('assignment_waits').select('conversation_id').where('product_id', '=', product.id).execute();
    assert.deepEqual(waiting, []);
  });
});

describeEachDialect('assign "round_robin" in rules and macros', (ctx) => {
  it('a rule hands the conversation to the product\'s next member in turn (mode off: in turn over the list)', async () => {
    const people = await team(ctx(), 2);
    const [ana, ben] = people.map((person) => person.member.id);
    const product = await assigningProduct(ctx(), { mode: 'off', member_ids: [ana, ben] });
    await createRule(ctx().a.api, { conditions: [{ field: 'product_id', operator: 'equals', value: product.id }], actions: [{ type: 'assign', member_id: 'round_robin' }] });
    const created = await arrive(ctx(), product.id, 3);
    assert.deepEqual(created.map((c) => c.assignee_id), [null, null, null]);
    await settle(ctx());
    assert.deepEqual(await Promise.all(created.map((c) => assigneeOf(ctx(), c.id))), [ana, ben, ana]);
  });

  it('a macro assigns in turn in its one transaction, and its answer shows the assignee', async () => {
    const [ana] = await team(ctx(), 1);
    const product = await createProduct(ctx().a.api);
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { assignment: { mode: 'off', capacity: null, member_ids: [ana.member.id] } });
    const macro = await createMacro(ctx().a.api, { actions: [{ type: 'assign', member_id: 'round_robin' }] });
    assert.deepEqual(macro.actions, [{ type: 'assign', member_id: 'round_robin' }]);
    const [conversation] = await arrive(ctx(), product.id, 1);
    const res = await ctx().a.api.post(`/api/v1/conversations/${conversation.id}/macros/${macro.id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.assignee_id, ana.member.id);
  });
});
