// /api/v1/automation-rules (docs/automation.md): CRUD with validation named by place, and the
// runs: each event kind, each operator and action, position order, once per event, no loops,
// `actor` on the rules' events, runs/last_run_at, and regular expressions refused or bounded.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { createMacro, createRule, settle } from '../helpers/automation.js';
import { fanOutAll, recordEvents, recorded } from '../helpers/events.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';
import { createServices } from '../../src/services.js';

const BASE = '/api/v1/automation-rules';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';

const conversationOf = async (api: Client, id: string) => (await api.get(`/api/v1/conversations/${id}`)).body.data;
const ruleOf = async (api: Client, id: string) => (await api.get(`${BASE}/${id}`)).body.data;

/** A fresh product, so each test's rules only meet its own conversations' events… */
async function isolated(ctx: TestContext) {
  // …rules are per workspace, so every test removes the rules it made at the end (`cleanup`).
  const api = ctx.a.api;
  const product = await createProduct(api);
  const made: string[] = [];
  return {
    api, product,
    rule: async (overrides: Record<string, unknown>) => {
      const rule = await createRule(api, { conditions: [{ field: 'product_id', operator: 'equals', value: product.id }], ...overrides });
      made.push(rule.id);
      return rule;
    },
    async cleanup() {
      await settle(ctx);
      for (const id of made) await api.delete(`${BASE}/${id}`);
    },
  };
}

describeEachDialect('automation rules CRUD [ext]', (ctx) => {
  it('creates one with every field and reads it back by id and in the list', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const res = await api.post(BASE, {
      name: '  Refunds ', active: false, event: 'message.created',
      conditions: [
        { field: 'message.body', operator: 'contains', value: 'refund' },
        { field: 'product_id', operator: 'in', value: [product.id.toUpperCase()] },
        { field: 'assignee_id', operator: 'equals', value: null },
      ],
      actions: [{ type: 'add_tags', tags: [' billing ', 'Billing'] }, { type: 'set_priority', priority: 'high' }],
    });
    assert.equal(res.status, 201, res.text);
    const rule = res.body.data;
    assert.equal(rule.name, 'Refunds');
    assert.equal(rule.active, false);
    assert.equal(rule.event, 'message.created');
    assert.deepEqual(rule.conditions[1], { field: 'product_id', operator: 'in', value: [product.id] });
    assert.deepEqual(rule.actions, [{ type: 'add_tags', tags: ['billing'] }, { type: 'set_priority', priority: 'high' }]);
    assert.equal(rule.runs, 0);
    assert.equal(rule.last_run_at, null);
    assert.deepEqual(await ruleOf(api, rule.id), rule);
    const list = await api.get(`${BASE}?limit=200`);
    assert.ok(list.body.data.some((one: any) => one.id === rule.id));
    await api.delete(`${BASE}/${rule.id}`);
  });

  it('keeps positions 1 … n through a create in front, a move and a delete', async () => {
    const { api } = ctx().a;
    const first = await createRule(api, { active: false });
    const second = await createRule(api, { active: false });
    const front = await createRule(api, { active: false, position: 1 });
    const order = async () => (await api.get(`${BASE}?limit=200`)).body.data.map((rule: any) => [rule.id, rule.position]);
    assert.deepEqual(await order(), [[front.id, 1], [first.id, 2], [second.id, 3]]);
    const moved = await api.patch(`${BASE}/${front.id}`, { position: 99 });
    assert.equal(moved.body.data.position, 3);
    assert.deepEqual(await order(), [[first.id, 1], [second.id, 2], [front.id, 3]]);
    assert.equal((await api.delete(`${BASE}/${first.id}`)).status, 204);
    assert.deepEqual(await order(), [[second.id, 1], [front.id, 2]]);
    for (const rule of [second, front]) await api.delete(`${BASE}/${rule.id}`);
  });

  it('changes only what PATCH gives; updated_at moves only on an effective change', async () => {
    const { api } = ctx().a;
    const rule = await createRule(api, { active: false });
    const same = await api.patch(`${BASE}/${rule.id}`, { name: rule.name, active: false });
    assert.equal(same.body.data.updated_at, rule.updated_at);
    const changed = await api.patch(`${BASE}/${rule.id}`, { event: 'conversation.updated', actions: [{ type: 'set_status', status: 'resolved' }] });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.data.event, 'conversation.updated');
    assert.deepEqual(changed.body.data.actions, [{ type: 'set_status', status: 'resolved' }]);
    assert.deepEqual(changed.body.data.conditions, rule.conditions);
    await api.delete(`${BASE}/${rule.id}`);
  });

  it('names each bad condition and action by its place, all in one answer', async () => {
    const { api } = ctx().a;
    const res = await api.post(BASE, {
      name: 'Bad', event: 'conversation.created',
      conditions: [
        { field: 'colour', operator: 'equals', value: 'red' },
        { field: 'title', operator: 'resembles', value: 'x' },
        { field: 'status', operator: 'equals', value: 'closed' },
        { field: 'priority', operator: 'in', value: 'high' },
        { field: 'product_id', operator: 'equals', value: UNKNOWN_ID },
        { field: 'status', operator: 'contains', value: 'open' },
        { field: 'title', operator: 'equals' },
        { field: 'title', operator: 'equals', value: 'x', extra: 1 },
        {},
        { field: 'assignee_id', operator: 'in', value: [UNKNOWN_ID] },
        { field: 'title', operator: 'contains', value: 7 },
      ],
      actions: [
        { type: 'explode' },
        { type: 'assign', member_id: UNKNOWN_ID },
        { type: 'assign', member_id: 'round-robin' },
        { type: 'add_tags', tags: ['  '] },
        { type: 'remove_tags', tags: [] },
        { type: 'set_priority', priority: 'asap' },
        { type: 'set_status', status: 'closed' },
        { type: 'add_note', body: '   ' },
        { type: 'reply', saved_reply_id: UNKNOWN_ID },
        { type: 'add_note', body: 'x', colour: 'red' },
        { type: 'set_status' },
      ],
    });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(Object.keys(res.body.fields).sort(), [
      'actions[0].type', 'actions[10].status', 'actions[1].member_id', 'actions[2].member_id', 'actions[3].tags', 'actions[4].tags',
      'actions[5].priority', 'actions[6].status', 'actions[7].body', 'actions[8].saved_reply_id', 'actions[9].colour',
      'conditions[0].field', 'conditions[10].value', 'conditions[1].operator', 'conditions[2].value', 'conditions[3].value', 'conditions[4].value',
      'conditions[5].operator', 'conditions[6].value', 'conditions[7].extra', 'conditions[8].field', 'conditions[8].operator', 'conditions[9].value[0]',
    ]);
  });

  it('refuses a body without its required fields, an unknown event, no actions, or too many', async () => {
    const { api } = ctx().a;
    const missing = await api.post(BASE, {});
    assert.deepEqual(Object.keys(missing.body.fields).sort(), ['actions', 'event', 'name']);
    assertInvalid(await api.post(BASE, { name: 'x', event: 'issue.created', actions: [{ type: 'set_status', status: 'open' }] }), 'event');
    assertInvalid(await api.post(BASE, { name: 'x', event: 'conversation.created', actions: [] }), 'actions');
    const many = Array.from({ length: 21 }, () => ({ type: 'set_status', status: 'open' }));
    assertInvalid(await api.post(BASE, { name: 'x', event: 'conversation.created', actions: many }), 'actions');
    assertInvalid(await api.post(BASE, { name: '  ', event: 'conversation.created', actions: [{ type: 'set_status', status: 'open' }] }), 'name');
  });

  it('refuses a catastrophic regular expression at save time, and one that does not compile', async () => {
    const { api } = ctx().a;
    const body = (value: string) => ({ name: 'Regex', event: 'message.created', conditions: [{ field: 'message.body', operator: 'matches', value }], actions: [{ type: 'add_tags', tags: ['x'] }] });
    assertInvalid(await api.post(BASE, body('^(a+)+$')), 'conditions[0].value', 'exponential');
    assertInvalid(await api.post(BASE, body('(\\d*)*x')), 'conditions[0].value', 'exponential');
    assertInvalid(await api.post(BASE, body('(unclosed')), 'conditions[0].value', 'not a valid regular expression');
    const rule = await createRule(api, { ...body('order\\s+#?\\d+'), active: false });
    const patched = await api.patch(`${BASE}/${rule.id}`, { conditions: [{ field: 'title', operator: 'matches', value: '(x+)+y' }] });
    assertInvalid(patched, 'conditions[0].value', 'exponential');
    await api.delete(`${BASE}/${rule.id}`);
  });

  it('answers 404 for an unknown or malformed id, and for another workspace\'s rule', async () => {
    const { a, b } = ctx();
    const rule = await createRule(a.api, { active: false });
    for (const id of [UNKNOWN_ID, 'nope', rule.id]) {
      const api = id === rule.id ? b.api : a.api;
      assertNotFound(await api.get(`${BASE}/${id}`));
      assertNotFound(await api.patch(`${BASE}/${id}`, { active: true }));
      assertNotFound(await api.delete(`${BASE}/${id}`));
    }
    assert.ok(!(await b.api.get(`${BASE}?limit=200`)).body.data.some((one: any) => one.id === rule.id));
    assert.equal((await ctx().a.api.get(`${BASE}/${rule.id}`)).status, 200);
    await a.api.delete(`${BASE}/${rule.id}`);
  });

  it('refuses another workspace\'s product, member and saved reply in conditions and actions', async () => {
    const { a, b } = ctx();
    const product = await createProduct(b.api);
    const reply = (await b.api.post('/api/v1/saved-replies', { title: 'B', body: 'b' })).body.data;
    const res = await a.api.post(BASE, {
      name: 'Cross', event: 'conversation.created', conditions: [{ field: 'product_id', operator: 'equals', value: product.id }],
      actions: [{ type: 'assign', member_id: b.owner.id }, { type: 'reply', saved_reply_id: reply.id }],
    });
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['actions[0].member_id', 'actions[1].saved_reply_id', 'conditions[0].value']);
  });

  it('lets read-only keys and agents read, and refuses them every change', async () => {
    const { a } = ctx();
    const rule = await createRule(a.api, { active: false });
    const readOnly = ctx().client(a.readOnlyKey);
    const agent = await newPerson(ctx(), a);
    for (const api of [readOnly, agent.app]) {
      assert.equal((await api.get(`${BASE}/${rule.id}`)).status, 200);
      assert.equal((await api.get(BASE)).status, 200);
      assertForbidden(await api.post(BASE, { name: 'x', event: 'conversation.created', actions: [{ type: 'set_status', status: 'open' }] }));
      assertForbidden(await api.patch(`${BASE}/${rule.id}`, { active: true }));
      assertForbidden(await api.delete(`${BASE}/${rule.id}`));
    }
    const memberless = ctx().client(a.memberlessKey);
    assert.equal((await memberless.patch(`${BASE}/${rule.id}`, { name: 'By the integration' })).status, 200);
    await a.api.delete(`${BASE}/${rule.id}`);
  });
});

describeEachDialect('automation rules running [ext]', (ctx) => {
  it('runs on conversation.created, once, and counts the run; its events carry the rule as actor', async () => {
    const t = await isolated(ctx());
    const rule = await t.rule({ actions: [{ type: 'add_tags', tags: ['new'] }] });
    const conversation = await importConversation(t.api, t.product.id, { body: 'Hello' });
    const events = await recorded(ctx(), () => settle(ctx()));
    assert.deepEqual((await conversationOf(t.api, conversation.id)).tags, ['new']);
    const updated = events.filter((event) => event.type === 'conversation.updated');
    assert.equal(updated.length, 1);
    assert.deepEqual((updated[0].payload as any).actor, { type: 'rule', id: rule.id });
    assert.deepEqual(updated[0].payload.data.previous.tags, []);
    const after = await ruleOf(t.api, rule.id);
    assert.equal(after.runs, 1);
    assert.ok(after.last_run_at);
    assert.equal(after.updated_at, rule.updated_at);
    // Fanning out and running again finds nothing more to do: once per event.
    await settle(ctx());
    assert.equal((await ruleOf(t.api, rule.id)).runs, 1);
    await t.cleanup();
  });

  it('runs on message.created for contacts\' messages only', async () => {
    const t = await isolated(ctx());
    const rule = await t.rule({ event: 'message.created', conditions: [{ field: 'message.body', operator: 'contains', value: 'REEMBOLSO' }], actions: [{ type: 'add_tags', tags: ['refund'] }] });
    const conversation = await importConversation(t.api, t.product.id, { body: 'Quiero un reembolsó, por favor' });
    await settle(ctx());
    assert.deepEqual((await conversationOf(t.api, conversation.id)).tags, ['refund']);
    await t.api.patch(`/api/v1/conversations/${conversation.id}`, { tags: [] });
    await t.api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'An agent says reembolso' });
    await settle(ctx());
    assert.deepEqual((await conversationOf(t.api, conversation.id)).tags, []);
    assert.equal((await ruleOf(t.api, rule.id)).runs, 1);
    await t.cleanup();
  });

  it('runs on conversation.updated, and on conversation.sla_breached', async () => {
    const t = await isolated(ctx());
    await t.rule({ event: 'conversation.updated', conditions: [{ field: 'priority', operator: 'equals', value: 'urgent' }], actions: [{ type: 'add_tags', tags: ['escalated'] }] });
    await t.rule({ event: 'conversation.sla_breached', conditions: [], actions: [{ type: 'set_priority', priority: 'high' }] });
    const conversation = await importConversation(t.api, t.product.id);
    await t.api.patch(`/api/v1/conversations/${conversation.id}`, { priority: 'urgent' });
    await settle(ctx());
    assert.deepEqual((await conversationOf(t.api, conversation.id)).tags, ['escalated']);
    const other = await importConversation(t.api, t.product.id);
    await recordEvents(ctx(), [{
      type: 'conversation.sla_breached' as any, workspaceId: ctx().a.id,
      data: { conversation: await conversationOf(t.api, other.id), target: 'first_response', due_at: new Date().toISOString() },
    }]);
    await settle(ctx());
    assert.equal((await conversationOf(t.api, other.id)).priority, 'high');
    await t.cleanup();
  });

  it('tests each operator: equals, not_equals, in, contains (without case or accents), matches, and null for empty', async () => {
    const t = await isolated(ctx());
    const tagWhen = (tag: string, condition: Record<string, unknown>) => t.rule({ conditions: [{ field: 'product_id', operator: 'equals', value: t.product.id }, condition], actions: [{ type: 'add_tags', tags: [tag] }] });
    await tagWhen('eq', { field: 'type', operator: 'equals', value: 'ticket' });
    await tagWhen('eq-no', { field: 'type', operator: 'equals', value: 'idea' });
    await tagWhen('ne', { field: 'source', operator: 'not_equals', value: 'email' });
    await tagWhen('in', { field: 'priority', operator: 'in', value: ['low', 'high'] });
    await tagWhen('contains', { field: 'title', operator: 'contains', value: 'CAFE' });
    await tagWhen('contains-no', { field: 'title', operator: 'contains', value: 'tea' });
    await tagWhen('email', { field: 'contact.email', operator: 'matches', value: '@example\\.(com|org)$' });
    await tagWhen('matches-no', { field: 'message.body', operator: 'matches', value: '^order #\\d+$' });
    await tagWhen('unassigned', { field: 'assignee_id', operator: 'equals', value: null });
    await tagWhen('summary', { field: 'ai_summary', operator: 'not_equals', value: null });
    const conversation = await importConversation(t.api, t.product.id, {
      title: 'Le café est froid', priority: 'high', contact: { name: 'Ana', email: 'ana@example.org' }, body: 'Order #12 please',
    });
    await settle(ctx());
    assert.deepEqual((await conversationOf(t.api, conversation.id)).tags, ['eq', 'ne', 'in', 'contains', 'email', 'unassigned']);
    await t.cleanup();
  });

  it('runs each action: assign, add and remove tags, priority, status, a note and a saved reply under the rule\'s name', async () => {
    const t = await isolated(ctx());
    const reply = (await t.api.post('/api/v1/saved-replies', { title: 'Hi', body: 'Hi {{contact.first_name}}, {{agent.name}} here.' })).body.data;
    const rule = await t.rule({
      name: 'Triage bot',
      actions: [
        { type: 'assign', member_id: ctx().a.owner.id },
        { type: 'add_tags', tags: ['one', 'two'] },
        { type: 'remove_tags', tags: ['ONE'] },
        { type: 'set_priority', priority: 'urgent' },
        { type: 'set_status', status: 'in_progress' },
        { type: 'add_note', body: 'Routed automatically' },
        { type: 'reply', saved_reply_id: reply.id },
      ],
    });
    const conversation = await importConversation(t.api, t.product.id, { contact: { name: 'Ana Lima', email: 'ana.lima@example.com' }, body: 'Help' });
    const events = await recorded(ctx(), () => settle(ctx()));
    const after = await conversationOf(t.api, conversation.id);
    assert.equal(after.assignee_id, ctx().a.owner.id);
    assert.deepEqual(after.tags, ['two']);
    assert.equal(after.priority, 'urgent');
    assert.equal(after.status, 'in_progress');
    const [, note, answer] = after.messages;
    assert.deepEqual([note.sender_type, note.internal, note.sender_name, note.body], ['agent', true, 'Triage bot', 'Routed automatically']);
    assert.deepEqual([answer.sender_type, answer.internal, answer.body], ['agent', false, 'Hi Ana, Triage bot here.']);
    assert.equal(after.waiting_since, null);
    const ruled = events.filter((event) => ['conversation.updated', 'message.created'].includes(event.type));
    assert.deepEqual(ruled.map((event) => event.type), ['message.created', 'message.created', 'conversation.updated']);
    for (const event of ruled) assert.deepEqual((event.payload as any).actor, { type: 'rule', id: rule.id });
    await t.cleanup();
  });

  it('runs the rules in position order, each seeing what the ones before it did', async () => {
    const t = await isolated(ctx());
    const second = await t.rule({ conditions: [{ field: 'tags', operator: 'equals', value: 'VIP' }], actions: [{ type: 'set_priority', priority: 'urgent' }] });
    const first = await t.rule({ position: 1, conditions: [{ field: 'title', operator: 'contains', value: 'ceo' }], actions: [{ type: 'add_tags', tags: ['vip'] }] });
    const conversation = await importConversation(t.api, t.product.id, { title: 'From the CEO' });
    await settle(ctx());
    assert.equal((await conversationOf(t.api, conversation.id)).priority, 'urgent');
    // In the other order the second sees no tag yet.
    await t.api.patch(`${BASE}/${first.id}`, { position: 99 });
    const again = await importConversation(t.api, t.product.id, { title: 'The CEO again' });
    await settle(ctx());
    const later = await conversationOf(t.api, again.id);
    assert.deepEqual([later.tags, later.priority], [['vip'], 'normal']);
    assert.deepEqual([(await ruleOf(t.api, first.id)).runs, (await ruleOf(t.api, second.id)).runs], [2, 1]);
    await t.cleanup();
  });

  it('runs a rule once per event even when two runners work the queue at once', async () => {
    const t = await isolated(ctx());
    const rule = await t.rule({ actions: [{ type: 'add_note', body: 'once' }] });
    const conversations = await Promise.all(Array.from({ length: 5 }, () => importConversation(t.api, t.product.id)));
    await Promise.all([ctx().services.webhookDispatcher.fanOut(), ctx().services.webhookDispatcher.fanOut()]);
    await Promise.all([ctx().services.automationRunner.run(), ctx().services.automationRunner.run()]);
    await settle(ctx());
    for (const conversation of conversations) {
      assert.deepEqual((await conversationOf(t.api, conversation.id)).messages.map((message: any) => message.body), ['once']);
    }
    assert.equal((await ruleOf(t.api, rule.id)).runs, 5);
    await t.cleanup();
  });

  it('runs a conversation\'s jobs of one claim together, in order, a rule that holds for two of them counted twice', async () => {
    const t = await isolated(ctx());
    const conversation = await importConversation(t.api, t.product.id, { body: 'Hello' });
    await settle(ctx());
    const rule = await t.rule({ event: 'conversation.updated', actions: [{ type: 'add_note', body: 'seen' }] });
    // Two changes before the fan-out: two jobs of one conversation, claimed together.
    await t.api.patch(`/api/v1/conversations/${conversation.id}`, { priority: 'high' });
    await t.api.patch(`/api/v1/conversations/${conversation.id}`, { status: 'in_progress' });
    await settle(ctx());
    const notes = (await conversationOf(t.api, conversation.id)).messages.filter((message: any) => message.internal).map((message: any) => message.body);
    assert.deepEqual(notes, ['seen', 'seen']);
    const after = await ruleOf(t.api, rule.id);
    assert.equal(after.runs, 2);
    const jobs = await ctx().database.db.selectFrom('automation_jobs').select('id').where('conversation_id', '=', conversation.id).execute();
    assert.deepEqual(jobs, []);
    await t.cleanup();
  });

  it('never runs rules on rules\' changes: a ping-pong pair runs once each and stops', async () => {
    const t = await isolated(ctx());
    const ping = await t.rule({ event: 'conversation.updated', conditions: [{ field: 'tags', operator: 'equals', value: 'ping' }], actions: [{ type: 'remove_tags', tags: ['ping'] }, { type: 'add_tags', tags: ['pong'] }] });
    const pong = await t.rule({ event: 'conversation.updated', conditions: [{ field: 'tags', operator: 'equals', value: 'pong' }], actions: [{ type: 'remove_tags', tags: ['pong'] }, { type: 'add_tags', tags: ['ping'] }] });
    const conversation = await importConversation(t.api, t.product.id);
    await t.api.patch(`/api/v1/conversations/${conversation.id}`, { tags: ['ping'] });
    for (let round = 0; round < 3; round++) await settle(ctx());
    assert.deepEqual((await conversationOf(t.api, conversation.id)).tags, ['ping']);
    assert.deepEqual([(await ruleOf(t.api, ping.id)).runs, (await ruleOf(t.api, pong.id)).runs], [1, 1]);
    await t.cleanup();
  });

  it('runs rules on a macro\'s changes (an agent\'s), which carry the member as actor', async () => {
    const t = await isolated(ctx());
    const rule = await t.rule({ event: 'conversation.updated', conditions: [{ field: 'status', operator: 'equals', value: 'resolved' }], actions: [{ type: 'add_tags', tags: ['closed-by-macro'] }] });
    const macro = await createMacro(t.api, { actions: [{ type: 'set_status', status: 'resolved' }] });
    const conversation = await importConversation(t.api, t.product.id);
    const events = await recorded(ctx(), () => t.api.post(`/api/v1/conversations/${conversation.id}/macros/${macro.id}`));
    assert.deepEqual((events[0].payload as any).actor, { type: 'member', id: ctx().a.owner.id });
    await settle(ctx());
    assert.deepEqual((await conversationOf(t.api, conversation.id)).tags, ['closed-by-macro']);
    assert.equal((await ruleOf(t.api, rule.id)).runs, 1);
    await t.api.delete(`/api/v1/macros/${macro.id}`);
    await t.cleanup();
  });

  it('bounds a slow regular expression at run time: its condition fails, the next rules run, the server answers', async () => {
    const t = await isolated(ctx());
    // Passes the save-time check (no nested quantifier) yet backtracks exponentially on a run of a's without b.
    const slow = await t.rule({ event: 'message.created', conditions: [{ field: 'message.body', operator: 'matches', value: '(a|a)*b' }], actions: [{ type: 'add_tags', tags: ['slow'] }] });
    const next = await t.rule({ event: 'message.created', conditions: [], actions: [{ type: 'add_tags', tags: ['next'] }] });
    const conversation = await importConversation(t.api, t.product.id, { body: 'a'.repeat(40) });
    const settling = settle(ctx());
    assert.equal((await t.api.get('/api/v1/me')).status, 200);
    await settling;
    assert.deepEqual((await conversationOf(t.api, conversation.id)).tags, ['next']);
    assert.deepEqual([(await ruleOf(t.api, slow.id)).runs, (await ruleOf(t.api, next.id)).runs], [0, 1]);
    await t.cleanup();
  });

  it('keeps each workspace\'s rules to its own conversations', async () => {
    const t = await isolated(ctx());
    const rule = await createRule(t.api, { actions: [{ type: 'add_tags', tags: ['alpha-rule'] }] });
    const theirs = await importConversation(ctx().b.api, (await createProduct(ctx().b.api)).id);
    await settle(ctx());
    assert.deepEqual((await conversationOf(ctx().b.api, theirs.id)).tags, []);
    assert.equal((await ruleOf(t.api, rule.id)).runs, 0);
    await t.api.delete(`${BASE}/${rule.id}`);
    await t.cleanup();
  });

  it('skips a rule whose member was removed since, and runs the rest', async () => {
    const t = await isolated(ctx());
    const agent = await newPerson(ctx(), ctx().a);
    const gone = await t.rule({ actions: [{ type: 'assign', member_id: agent.member.id }] });
    const after = await t.rule({ actions: [{ type: 'add_tags', tags: ['after'] }] });
    assert.equal((await t.api.delete(`/api/v1/members/${agent.member.id}`)).status, 204);
    const conversation = await importConversation(t.api, t.product.id);
    await settle(ctx());
    const shown = await conversationOf(t.api, conversation.id);
    assert.deepEqual([shown.assignee_id, shown.tags], [null, ['after']]);
    assert.deepEqual([(await ruleOf(t.api, gone.id)).runs, (await ruleOf(t.api, after.id)).runs], [0, 1]);
    await t.cleanup();
  });

  it('runs a message.created rule on what the conversation.created rules of the same new conversation did', async () => {
    const t = await isolated(ctx());
    // Planned together: the message's job is kept though nothing held when it was planned, since the creation's job runs first.
    await t.rule({ event: 'message.created', conditions: [{ field: 'tags', operator: 'equals', value: 'vip' }], actions: [{ type: 'set_priority', priority: 'urgent' }] });
    await t.rule({ conditions: [{ field: 'title', operator: 'contains', value: 'ceo' }], actions: [{ type: 'add_tags', tags: ['vip'] }] });
    const conversation = await importConversation(t.api, t.product.id, { title: 'From the CEO', body: 'Hello' });
    await settle(ctx());
    const shown = await conversationOf(t.api, conversation.id);
    assert.deepEqual([shown.tags, shown.priority], [['vip'], 'urgent']);
    // Nothing holds for another conversation: no job is left or created for it.
    const quiet = await importConversation(t.api, t.product.id, { title: 'Hello', body: 'Hello' });
    await fanOutAll(ctx());
    const jobs = await ctx().database.db.selectFrom('automation_jobs').select('id').where('conversation_id', '=', quiet.id).execute();
    assert.deepEqual(jobs, []);
    await t.cleanup();
  });

  it('undoes a run that fails alone: the rules before and after it keep theirs, nothing of it is left', async () => {
    const t = await isolated(ctx());
    const agent = await newPerson(ctx(), ctx().a);
    const before = await t.rule({ actions: [{ type: 'add_tags', tags: ['before'] }] });
    // Its note and tag are written before its assignment fails: the run's savepoint undoes them.
    const failing = await t.rule({ actions: [{ type: 'add_note', body: 'half a run' }, { type: 'add_tags', tags: ['half'] }, { type: 'assign', member_id: agent.member.id }] });
    const after = await t.rule({ actions: [{ type: 'add_note', body: 'after' }] });
    assert.equal((await t.api.delete(`/api/v1/members/${agent.member.id}`)).status, 204);
    const conversation = await importConversation(t.api, t.product.id, { body: 'Hello' });
    const events = await recorded(ctx(), () => settle(ctx()));
    const shown = await conversationOf(t.api, conversation.id);
    assert.deepEqual([shown.tags, shown.assignee_id], [['before'], null]);
    assert.deepEqual(shown.messages.map((message: any) => message.body), ['Hello', 'after']);
    const actors = events.filter((event) => (event.payload as any).actor?.type === 'rule').map((event) => [event.type, (event.payload as any).actor.id]);
    assert.deepEqual(actors, [['conversation.updated', before.id], ['message.created', after.id]]);
    const runs = await Promise.all([before, failing, after].map(async (rule) => (await ruleOf(t.api, rule.id)).runs));
    assert.deepEqual(runs, [1, 0, 1]);
    await t.cleanup();
  });

  it('runs each rule as it stands when the job runs, even when saved through another process (each keeps its rules in memory)', async () => {
    const t = await isolated(ctx());
    // A second set of services on the same database: another process, with its own rule cache.
    const other = createServices(ctx().database);
    const otherContext = { database: ctx().database, services: other };
    const tagged = await t.rule({ actions: [{ type: 'add_tags', tags: ['first'] }] });
    const first = await importConversation(t.api, t.product.id);
    await settle(otherContext);
    assert.deepEqual((await conversationOf(t.api, first.id)).tags, ['first']);
    // Changed through this process: the other one's next job uses the change.
    await t.api.patch(`${BASE}/${tagged.id}`, { actions: [{ type: 'add_tags', tags: ['second'] }] });
    const second = await importConversation(t.api, t.product.id);
    await settle(otherContext);
    assert.deepEqual((await conversationOf(t.api, second.id)).tags, ['second']);
    // Planned, then deactivated and another rule deleted before the job runs: neither runs.
    const deleted = await t.rule({ actions: [{ type: 'add_tags', tags: ['deleted'] }] });
    const third = await importConversation(t.api, t.product.id);
    await fanOutAll(otherContext);
    await t.api.patch(`${BASE}/${tagged.id}`, { active: false });
    await t.api.delete(`${BASE}/${deleted.id}`);
    await settle(otherContext);
    assert.deepEqual((await conversationOf(t.api, third.id)).tags, []);
    assert.equal((await ruleOf(t.api, tagged.id)).runs, 2);
    await other.automationRunner.stop();
    await t.cleanup();
  });
});

