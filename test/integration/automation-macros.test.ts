// /api/v1/macros and POST /conversations/{id}/macros/{macro_id} (docs/automation.md): saved action
// lists any member writes and runs, in one transaction, its events naming who ran it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { createMacro } from '../helpers/automation.js';
import { recorded } from '../helpers/events.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';

const BASE = '/api/v1/macros';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';
const runUrl = (conversationId: string, macroId: string) => `/api/v1/conversations/${conversationId}/macros/${macroId}`;

describeEachDialect('macros [ext]', (ctx) => {
  it('creates, reads, lists, updates and deletes one', async () => {
    const { api } = ctx().a;
    const macro = await createMacro(api, { name: ' Close as duplicate ', actions: [{ type: 'add_tags', tags: ['duplicate'] }, { type: 'set_status', status: 'resolved' }] });
    assert.equal(macro.name, 'Close as duplicate');
    assert.deepEqual(macro.actions, [{ type: 'add_tags', tags: ['duplicate'] }, { type: 'set_status', status: 'resolved' }]);
    assert.deepEqual((await api.get(`${BASE}/${macro.id}`)).body.data, macro);
    assert.ok((await api.get(`${BASE}?limit=200`)).body.data.some((one: any) => one.id === macro.id));
    const same = await api.patch(`${BASE}/${macro.id}`, { name: 'Close as duplicate' });
    assert.equal(same.body.data.updated_at, macro.updated_at);
    const changed = await api.patch(`${BASE}/${macro.id}`, { actions: [{ type: 'set_priority', priority: 'low' }] });
    assert.deepEqual(changed.body.data.actions, [{ type: 'set_priority', priority: 'low' }]);
    assert.equal((await api.delete(`${BASE}/${macro.id}`)).status, 204);
    assertNotFound(await api.get(`${BASE}/${macro.id}`));
  });

  it('names each bad action by its place; requires a name and 1–20 actions', async () => {
    const { api } = ctx().a;
    const res = await api.post(BASE, { name: 'Bad', actions: [{ type: 'set_status', status: 'closed' }, { type: 'assign', member_id: UNKNOWN_ID }, { type: 'nope' }] });
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['actions[0].status', 'actions[1].member_id', 'actions[2].type']);
    assertInvalid(await api.post(BASE, { name: 'Empty', actions: [] }), 'actions');
    assertInvalid(await api.post(BASE, { actions: [{ type: 'set_status', status: 'open' }] }), 'name');
    const macro = await createMacro(api);
    assertInvalid(await api.patch(`${BASE}/${macro.id}`, { actions: [{ type: 'add_note', body: ' ' }] }), 'actions[0].body');
  });

  it('answers 404 for unknown ids and another workspace\'s macro or conversation', async () => {
    const { a, b } = ctx();
    const macro = await createMacro(a.api);
    const conversation = await importConversation(a.api, (await createProduct(a.api)).id);
    for (const id of [UNKNOWN_ID, 'nope']) {
      assertNotFound(await a.api.get(`${BASE}/${id}`));
      assertNotFound(await a.api.patch(`${BASE}/${id}`, { name: 'x' }));
      assertNotFound(await a.api.delete(`${BASE}/${id}`));
      assertNotFound(await a.api.post(runUrl(conversation.id, id)));
      assertNotFound(await a.api.post(runUrl(id, macro.id)));
    }
    assertNotFound(await b.api.get(`${BASE}/${macro.id}`));
    assertNotFound(await b.api.post(runUrl(conversation.id, macro.id)));
    const theirs = await importConversation(b.api, (await createProduct(b.api)).id);
    assertNotFound(await a.api.post(runUrl(theirs.id, macro.id)));
    assert.ok(!(await b.api.get(`${BASE}?limit=200`)).body.data.some((one: any) => one.id === macro.id));
    // Both unknown: always the conversation's 404, whichever lookup would finish first.
    for (let i = 0; i < 5; i++) {
      const both = await a.api.post(runUrl(UNKNOWN_ID, UNKNOWN_ID));
      assert.deepEqual([both.status, both.body.detail], [404, 'conversation not found']);
    }
  });

  it('lets agents write and run macros, and read-only keys only read', async () => {
    const { a } = ctx();
    const agent = await newPerson(ctx(), a);
    const macro = await createMacro(agent.app);
    assert.equal((await agent.app.patch(`${BASE}/${macro.id}`, { name: 'Renamed by an agent' })).status, 200);
    const conversation = await importConversation(a.api, (await createProduct(a.api)).id);
    assert.equal((await agent.app.post(runUrl(conversation.id, macro.id))).status, 200);
    const readOnly = ctx().client(a.readOnlyKey);
    assert.equal((await readOnly.get(`${BASE}/${macro.id}`)).status, 200);
    assertForbidden(await readOnly.post(BASE, { name: 'x', actions: [{ type: 'set_status', status: 'open' }] }));
    assertForbidden(await readOnly.patch(`${BASE}/${macro.id}`, { name: 'x' }));
    assertForbidden(await readOnly.delete(`${BASE}/${macro.id}`));
    assertForbidden(await readOnly.post(runUrl(conversation.id, macro.id)));
  });

  it('runs every action in one transaction as the member, and answers the conversation after them', async () => {
    const { a } = ctx();
    const reply = (await a.api.post('/api/v1/saved-replies', { title: 'Thanks', body: 'Thanks {{contact.first_name}}, {{agent.name}}' })).body.data;
    const macro = await createMacro(a.api, {
      actions: [
        { type: 'assign', member_id: a.owner.id }, { type: 'add_tags', tags: ['done', 'x'] }, { type: 'remove_tags', tags: ['x'] },
        { type: 'set_priority', priority: 'low' }, { type: 'set_status', status: 'resolved' },
        { type: 'add_note', body: 'Closed with a macro' }, { type: 'reply', saved_reply_id: reply.id },
      ],
    });
    const conversation = await importConversation(a.api, (await createProduct(a.api)).id, { contact: { name: 'Bea Ruiz' }, body: 'Hi' });
    let res: any;
    const events = await recorded(ctx(), async () => (res = await a.api.post(runUrl(conversation.id, macro.id))));
    assert.equal(res.status, 200, res.text);
    const shown = res.body.data;
    assert.deepEqual([shown.assignee_id, shown.tags, shown.priority, shown.status], [a.owner.id, ['done'], 'low', 'resolved']);
    const [, note, answer] = shown.messages;
    assert.deepEqual([note.internal, note.body, note.sender_name], [true, 'Closed with a macro', a.owner.display_name]);
    assert.equal(answer.body, `Thanks Bea, ${a.owner.display_name}`);
    assert.deepEqual(events.map((event) => event.type).filter((type) => type !== 'notification.created'), ['message.created', 'message.created', 'conversation.updated']);
    for (const event of events.filter((one) => one.type !== 'notification.created')) assert.deepEqual((event.payload as any).actor, { type: 'member', id: a.owner.id });
  });

  it('changes nothing when an action no longer fits, and names it', async () => {
    const { a } = ctx();
    const agent = await newPerson(ctx(), a);
    const macro = await createMacro(a.api, { actions: [{ type: 'add_tags', tags: ['first'] }, { type: 'assign', member_id: agent.member.id }] });
    assert.equal((await a.api.delete(`/api/v1/members/${agent.member.id}`)).status, 204);
    const conversation = await importConversation(a.api, (await createProduct(a.api)).id);
    const events = await recorded(ctx(), async () => assertInvalid(await a.api.post(runUrl(conversation.id, macro.id)), 'actions[1].member_id'));
    assert.deepEqual(events, []);
    assert.deepEqual((await a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data.tags, []);
  });

  it('names a key without a member as the actor', async () => {
    const { a } = ctx();
    const memberless = ctx().client(a.memberlessKey);
    const macro = await createMacro(memberless, { actions: [{ type: 'set_priority', priority: 'high' }] });
    const conversation = await importConversation(a.api, (await createProduct(a.api)).id);
    const events = await recorded(ctx(), () => memberless.post(runUrl(conversation.id, macro.id)));
    assert.equal((events[0].payload as any).actor.type, 'api_key');
  });
});
