// POST /api/v1/conversations/{id}/notes (docs/inbox.md): an internal note is a message of the team
// with internal true. The team sees it (detail, events, webhooks); the contact never does (the
// widget API's reads here; its stream in widget-stream.test.ts, announcement emails in
// announcements.test.ts). A note answers nobody.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertForbidden, assertInvalid, assertNotFound } from '../helpers/answers.js';
import { recorded } from '../helpers/events.js';
import { apiKeyIdOf, createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const BASE = '/api/v1/conversations';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';
const NOTE = 'Internal: customer is on the legacy plan, do not promise a refund';

const fresh = async (ctx: TestContext, overrides: Record<string, unknown> = {}) =>
  importConversation(ctx.a.api, (await createProduct(ctx.a.api)).id, overrides);

describeEachDialect('POST /api/v1/conversations/{id}/notes [ext]', (ctx) => {
  it('adds an internal agent message from the key\'s member, shown in the detail; other messages are not internal', async () => {
    const data = await fresh(ctx(), { body: 'Refund please' });
    const res = await ctx().a.api.post(`${BASE}/${data.id}/notes`, { body: `  ${NOTE}\n` });
    assert.equal(res.status, 201, res.text);
    const { id, created_at, ...rest } = res.body.data;
    assert.deepEqual(rest, {
      sender_type: 'agent', sender_id: ctx().a.owner.id, sender_name: 'Alpha Owner', body: `  ${NOTE}\n`, internal: true, full_body: null, delivery: null, attachments: [],
    });
    await ctx().a.api.post(`${BASE}/${data.id}/messages`, { body: 'Looking into it' });
    const detail = (await ctx().a.api.get(`${BASE}/${data.id}`)).body.data;
    assert.deepEqual(detail.messages.map((m: any) => [m.body.trim(), m.internal]), [['Refund please', false], [NOTE, true], ['Looking into it', false]]);
    assert.equal(detail.messages[1].id, id);
    assert.ok(detail.updated_at >= created_at);
  });

  it('is no answer: waiting_since stays; it is the last message the team sees', async () => {
    const data = await fresh(ctx(), { body: 'Hello?' });
    const note = (await ctx().a.api.post(`${BASE}/${data.id}/notes`, { body: NOTE })).body.data;
    const after = (await ctx().a.api.get(`${BASE}/${data.id}`)).body.data;
    assert.equal(after.waiting_since, data.waiting_since);
    assert.deepEqual(after.last_message, { sender_type: 'agent', excerpt: NOTE, created_at: note.created_at });
  });

  it('is added by an agent (no settings role needed), and as the key itself by a key without a member', async () => {
    const data = await fresh(ctx());
    const agent = await newPerson(ctx(), ctx().a);
    const byAgent = await agent.app.post(`${BASE}/${data.id}/notes`, { body: NOTE });
    assert.equal(byAgent.status, 201, byAgent.text);
    assert.equal(byAgent.body.data.sender_id, agent.member.id);
    const memberless = ctx().client(ctx().a.memberlessKey);
    const byKey = await memberless.post(`${BASE}/${data.id}/notes`, { body: NOTE });
    assert.deepEqual([byKey.body.data.sender_id, byKey.body.data.sender_name], [await apiKeyIdOf(memberless), null]);
  });

  it('records message.created with internal true, for the team\'s stream and webhooks', async () => {
    const data = await fresh(ctx());
    const events = await recorded(ctx(), () => ctx().a.api.post(`${BASE}/${data.id}/notes`, { body: NOTE }));
    assert.deepEqual(events.map((event) => event.type), ['message.created']);
    assert.equal(events[0].payload.data.internal, true);
    assert.equal(events[0].payload.data.conversation_id, data.id);
  });

  for (const [what, body, field] of [
    ['a missing body', {}, 'body'],
    ['a blank body', { body: ' \n ' }, 'body'],
    ['a body over 50,000 characters', { body: 'x'.repeat(50_001) }, 'body'],
    ['a null body', { body: null }, 'body'],
    ['an unknown field', { body: 'hi', internal: false }, 'internal'],
  ] as const) {
    it(`rejects ${what}, adding nothing`, async () => {
      const data = await fresh(ctx());
      assertInvalid(await ctx().a.api.post(`${BASE}/${data.id}/notes`, body), field);
      assert.deepEqual((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.messages, []);
    });
  }

  it('answers 404 for a malformed or unknown id (before the body) and for another workspace\'s conversation', async () => {
    assertNotFound(await ctx().a.api.post(`${BASE}/nope/notes`, { body: NOTE }));
    assertNotFound(await ctx().a.api.post(`${BASE}/${UNKNOWN_ID}/notes`, {}));
    const data = await fresh(ctx());
    assertNotFound(await ctx().b.api.post(`${BASE}/${data.id}/notes`, { body: NOTE }));
    assert.deepEqual((await ctx().a.api.get(`${BASE}/${data.id}`)).body.data.messages, []);
  });

  it('forbids read-only keys, even for a missing conversation', async () => {
    const data = await fresh(ctx());
    for (const id of [data.id, UNKNOWN_ID]) assertForbidden(await ctx().client(ctx().a.readOnlyKey).post(`${BASE}/${id}/notes`, { body: NOTE }));
  });
});

describeEachDialect('internal notes never reach the contact: the widget API [ext]', (ctx) => {
  it('leaves notes out of the visitor\'s conversation, its list and a reply\'s answer, while the team sees them', async () => {
    const product = await widgetProduct(ctx());
    const session = await startSession(ctx(), product.widget_key, { name: 'Ada' });
    const path = (suffix = '') => widgetPath(product.widget_key, `/conversations${suffix}`);
    const started = (await visitor(ctx(), session.token).post(path(), { body: 'Is my refund coming?' })).body.data;
    await ctx().a.api.post(`${BASE}/${started.id}/notes`, { body: NOTE });
    await ctx().a.api.post(`${BASE}/${started.id}/messages`, { body: 'We are checking' });
    const reply = await visitor(ctx(), session.token).post(path(`/${started.id}/messages`), { body: 'Thanks' });
    assert.equal(reply.status, 201, reply.text);

    const seen = await visitor(ctx(), session.token).get(path(`/${started.id}`));
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body.data.messages.map((m: any) => m.body), ['Is my refund coming?', 'We are checking', 'Thanks']);
    const listed = await visitor(ctx(), session.token).get(path());
    assert.ok(![seen.text, listed.text, reply.text].some((text) => text.includes(NOTE) || text.includes('internal')));
    const team = (await ctx().a.api.get(`${BASE}/${started.id}`)).body.data;
    assert.equal(team.messages.filter((m: any) => m.internal).length, 1);
  });
});
