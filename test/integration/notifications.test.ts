// Notifications (docs/inbox.md, "Notifications"): who is told of what (an assignment, a contact
// writing in their conversation by the widget or by mail, a note mentioning them), never of their own
// doing; GET /notifications and its filter, order and pages; POST /notifications/read by ids or all;
// validation, the member-less key's 400, isolation between members and workspaces; notification.created
// on the member's own stream alone and never to webhooks; erasure leaving nothing of the contact; and
// mail at most once per member and conversation every 10 minutes (a test clock moves the time).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import { DIALECTS } from '../helpers/databases.js';
import { plainMail, postMail, testEmailConfig } from '../helpers/email.js';
import { eventually, fanOutAll } from '../helpers/events.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { createTestContext, describeEachDialect, unique, type Client, type TestContext } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver.js';
import { openStream } from '../helpers/sse-client.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const LIST = '/api/v1/notifications';
const READ = '/api/v1/notifications/read';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';

interface Teammate {
  member: any;
  email: string;
  key: string;
  api: Client;
}

/** A member of workspace `a` (or `b`) with a key of their own. */
async function teammate(ctx: TestContext, name: string, { workspace = ctx.a, role = 'agent' as const } = {}): Promise<Teammate> {
  const email = `${unique('m').replace(/\W/g, '-')}@team.test`;
  const member = await ctx.services.admin.createMember({ workspaceId: workspace.id, name, role, email });
  const { key } = await ctx.services.admin.createKey({ workspaceId: workspace.id, memberId: member.id });
  return { member, email, key, api: ctx.client(key) };
}

const listOf = async (api: Client, query = '') => {
  const res = await api.get(`${LIST}${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const notificationsOf = async (api: Client, query = '') => (await listOf(api, query)).data as any[];

const assign = async (api: Client, conversationId: string, assigneeId: string | null) => {
  const res = await api.patch(`/api/v1/conversations/${conversationId}`, { assignee_id: assigneeId });
  assert.equal(res.status, 200, res.text);
};
const note = async (api: Client, conversationId: string, body: string) => {
  const res = await api.post(`/api/v1/conversations/${conversationId}/notes`, { body });
  assert.equal(res.status, 201, res.text);
};

/** A widget conversation started by a visitor, and how the visitor writes in it. */
async function widgetConversation(ctx: TestContext, name = 'Ada Lovelace') {
  const product = await widgetProduct(ctx);
  const session = await startSession(ctx, product.widget_key, { name, email: `${unique('ada').replace(/\W/g, '-')}@example.com` });
  const started = await visitor(ctx, session.token).post(widgetPath(product.widget_key, '/conversations'), { body: 'The export button does nothing' });
  assert.equal(started.status, 201, started.text);
  const write = async (body: string) => {
    const res = await visitor(ctx, session.token).post(widgetPath(product.widget_key, `/conversations/${started.body.data.id}/messages`), { body });
    assert.equal(res.status, 201, res.text);
  };
  return { id: started.body.data.id as string, contactId: started.body.data.contact_id ?? (await ctx.a.api.get(`/api/v1/conversations/${started.body.data.id}`)).body.data.contact_id, write };
}

describeEachDialect('notifications: who is told of what [ext]', (ctx) => {
  let ann: Teammate;
  let annLee: Teammate;
  let bob: Teammate;
  before(async () => {
    ann = await teammate(ctx(), 'Ann');
    annLee = await teammate(ctx(), 'Ann Lee');
    bob = await teammate(ctx(), 'Bob');
  });

  it('tells a member a conversation was assigned to them, by whom; not again for the same assignee, never for assigning oneself', async () => {
    const conversation = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { title: 'Refund request' });
    await assign(ctx().a.api, conversation.id, bob.member.id);
    await assign(ctx().a.api, conversation.id, bob.member.id);
    const [told, ...rest] = await notificationsOf(bob.api);
    assert.equal(rest.filter((n) => n.conversation.id === conversation.id).length, 0);
    const { id, created_at, ...shown } = told;
    assert.deepEqual(shown, {
      kind: 'assigned', read_at: null,
      conversation: {
        id: conversation.id, title: 'Refund request', type: conversation.type, status: 'open', priority: 'normal', ai_summary: null, created_at: conversation.created_at,
      },
      actor: { type: 'member', id: ctx().a.owner.id, name: 'Alpha Owner' },
    });
    const before = (await notificationsOf(ctx().a.api)).length;
    await assign(ctx().a.api, conversation.id, 'me');
    await assign(bob.api, conversation.id, 'me');
    assert.equal((await notificationsOf(ctx().a.api)).length, before, 'assigning oneself tells nobody');
    assert.equal((await notificationsOf(bob.api)).filter((n) => n.conversation.id === conversation.id).length, 1);
  });

  it('names no actor when a key without a member assigns', async () => {
    const conversation = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id);
    await assign(ctx().client(ctx().a.memberlessKey), conversation.id, ann.member.id);
    const [told] = await notificationsOf(ann.api);
    assert.deepEqual([told.kind, told.conversation.id, told.actor], ['assigned', conversation.id, null]);
  });

  it('tells the assignee when the contact writes in the widget; not for replies, notes, or unassigned conversations', async () => {
    const assigned = await widgetConversation(ctx());
    await assign(ctx().a.api, assigned.id, annLee.member.id);
    const unassigned = await widgetConversation(ctx());
    await assigned.write('Any news?');
    await unassigned.write('Hello?');
    await ctx().a.api.post(`/api/v1/conversations/${assigned.id}/messages`, { body: 'Looking into it' });
    await note(ctx().a.api, assigned.id, 'Checking with billing');
    const told = (await notificationsOf(annLee.api)).filter((n) => n.conversation.id === assigned.id);
    assert.deepEqual(told.map((n) => n.kind), ['message', 'assigned']);
    assert.deepEqual(told[0].actor, { type: 'contact', id: assigned.contactId, name: 'Ada Lovelace' });
    const everyone = [ann, bob, annLee].map((mate) => mate.api).concat(ctx().a.api);
    for (const api of everyone) assert.ok(!(await notificationsOf(api)).some((n) => n.conversation.id === unassigned.id));
  });

  it('tells the assignee when the contact answers by mail', async () => {
    const product = await createProduct(ctx().a.api);
    const firstId = `${unique('first').replace(/\W/g, '-')}@mail.example.com`;
    const from = 'Grace Hopper <grace@example.com>';
    const started = await postMail(ctx().a.api, plainMail({ from, subject: 'Invoice missing', messageId: firstId }), product.id);
    const conversationId = started.body.data.conversation_id;
    await assign(ctx().a.api, conversationId, bob.member.id);
    const reply = await postMail(ctx().a.api, plainMail({ from, subject: 'Re: Invoice missing', messageId: `re-${firstId}`, headers: { 'In-Reply-To': `<${firstId}>` } }), product.id);
    assert.equal(reply.body.data.conversation_id, conversationId);
    const [told] = await notificationsOf(bob.api);
    assert.deepEqual([told.kind, told.conversation.title, told.actor.type, told.actor.name], ['message', 'Invoice missing', 'contact', 'Grace Hopper']);
  });

  it('tells the members a note mentions: longest name first, any case, punctuation after it; not addresses, code, longer words or oneself', async () => {
    const conversation = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id);
    const mentionedIn = async (body: string) => {
      const since = new Date().toISOString();
      await note(ctx().a.api, conversation.id, body);
      const told = [];
      for (const [name, mate] of [['Ann', ann], ['Ann Lee', annLee], ['Bob', bob]] as const) {
        if ((await notificationsOf(mate.api)).some((n) => n.kind === 'mention' && n.created_at >= since && n.conversation.id === conversation.id)) told.push(name);
      }
      return told;
    };
    assert.deepEqual(await mentionedIn('@ann lee, could you check? cc @BOB.'), ['Ann Lee', 'Bob']);
    assert.deepEqual(await mentionedIn('Thanks @Ann! And (@ann lee)'), ['Ann', 'Ann Lee']);
    assert.deepEqual(await mentionedIn('@Ann Leeds is a customer; @Annabel too'), ['Ann']);
    assert.deepEqual(await mentionedIn('Write to ann@example.com or bob@team.test'), []);
    assert.deepEqual(await mentionedIn('Run `notify @Bob` and\n```\n@Ann Lee\n```\nthen nothing'), []);
    assert.deepEqual(await mentionedIn('See @ann.smith and @bob-the-builder'), []);
    assert.deepEqual(await mentionedIn('@Bob @bob @BOB'), ['Bob']);
    const ownBefore = (await notificationsOf(ctx().a.api)).length;
    await note(ctx().a.api, conversation.id, 'Note to self, @Alpha Owner');
    assert.equal((await notificationsOf(ctx().a.api)).length, ownBefore, 'mentioning oneself tells nobody');
  });

  it('counts mentions in notes only, and names the note\'s member as the actor (none for a key without a member)', async () => {
    const conversation = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id);
    await ctx().a.api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'Hi, @Bob will help you' });
    assert.ok(!(await notificationsOf(bob.api)).some((n) => n.conversation.id === conversation.id), 'a reply mentions nobody');
    await note(ann.api, conversation.id, '@Bob over to you');
    await note(ctx().client(ctx().a.memberlessKey), conversation.id, '@Bob and this one');
    const told = (await notificationsOf(bob.api)).filter((n) => n.conversation.id === conversation.id);
    assert.deepEqual(told.map((n) => [n.kind, n.actor]), [['mention', null], ['mention', { type: 'member', id: ann.member.id, name: 'Ann' }]]);
  });
});

describeEachDialect('GET /api/v1/notifications and POST /api/v1/notifications/read [ext]', (ctx) => {
  let carol: Teammate;
  let dave: Teammate;
  /** Carol's three notifications, newest first. */
  let ids: string[] = [];
  before(async () => {
    carol = await teammate(ctx(), 'Carol');
    dave = await teammate(ctx(), 'Dave');
    const product = await createProduct(ctx().a.api);
    for (const title of ['First', 'Second', 'Third']) {
      const conversation = await importConversation(ctx().a.api, product.id, { title });
      await assign(ctx().a.api, conversation.id, carol.member.id);
      await assign(ctx().a.api, conversation.id, dave.member.id);
    }
    ids = (await notificationsOf(carol.api)).map((n) => n.id);
  });

  it('lists the member\'s own, newest first, with the list envelope and its pages', async () => {
    const all = await listOf(carol.api);
    assert.deepEqual(all.data.map((n: any) => n.conversation.title), ['Third', 'Second', 'First']);
    assert.deepEqual(all.pagination, { total: 3, limit: 50, offset: 0 });
    const page = await listOf(carol.api, '?limit=1&offset=1');
    assert.deepEqual([page.data.map((n: any) => n.id), page.pagination], [[ids[1]], { total: 3, limit: 1, offset: 1 }]);
    assert.deepEqual((await listOf(carol.api, '?limit=2&offset=2')).data.map((n: any) => n.id), [ids[2]]);
  });

  it('rejects bad paging and filter values', async () => {
    for (const [query, field] of [['?limit=0', 'limit'], ['?limit=201', 'limit'], ['?offset=-1', 'offset'], ['?unread=maybe', 'unread']]) {
      const res = await carol.api.get(`${LIST}${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields[field], `${query}: ${res.text}`);
    }
  });

  it('marks the named ones read (once: read_at stays), and unread=true leaves them out', async () => {
    const res = await carol.api.post(READ, { ids: [ids[1]!.toUpperCase()] });
    assert.equal(res.status, 204, res.text);
    const marked = (await notificationsOf(carol.api)).find((n) => n.id === ids[1]);
    assert.ok(marked.read_at);
    await carol.api.post(READ, { ids: [ids[1]] });
    assert.equal((await notificationsOf(carol.api)).find((n) => n.id === ids[1]).read_at, marked.read_at);
    const unread = await listOf(carol.api, '?unread=true');
    assert.deepEqual([unread.data.map((n: any) => n.id), unread.pagination.total], [[ids[0], ids[2]], 2]);
    assert.equal((await listOf(carol.api, '?unread=false')).pagination.total, 3);
  });

  it('refuses ids that are not the caller\'s (another member\'s, another workspace\'s, unknown) alike, with 400 on ids, marking nothing', async () => {
    const daves = (await notificationsOf(dave.api)).map((n) => n.id);
    const carols = (await notificationsOf(carol.api)).map((n) => n.id);
    for (const [api, ids] of [[carol.api, [carols[0], daves[0]]], [carol.api, [UNKNOWN_ID]], [ctx().b.api, daves]] as const) {
      const res = await api.post(READ, { ids });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error_code, 'validation_error');
      assert.deepEqual(Object.keys(res.body.fields), ['ids']);
      assert.match(res.body.fields.ids, new RegExp(ids.filter((id) => id !== carols[0]).join('.*')));
    }
    assert.equal((await ctx().b.api.post(READ, { all: true })).status, 204);
    assert.ok((await notificationsOf(dave.api)).every((n) => n.read_at === null));
    assert.equal((await notificationsOf(carol.api)).find((n) => n.id === carols[0]).read_at, null, 'a refused request marks none of its ids');
    assert.deepEqual(await notificationsOf(ctx().b.api), []);
  });

  it('marks all of the caller\'s read with all: true, and no one else\'s', async () => {
    assert.equal((await carol.api.post(READ, { all: true })).status, 204);
    assert.equal((await listOf(carol.api, '?unread=true')).pagination.total, 0);
    assert.equal((await listOf(dave.api, '?unread=true')).pagination.total, 3);
  });

  for (const [what, body, fields] of [
    ['both ids and all', { ids: [UNKNOWN_ID], all: true }, ['ids', 'all']],
    ['neither', {}, ['ids', 'all']],
    ['all: false', { all: false }, ['all']],
    ['a malformed id', { ids: ['nope'] }, ['ids']],
    ['an empty ids list', { ids: [] }, ['ids']],
    ['more than 200 ids', { ids: Array.from({ length: 201 }, () => UNKNOWN_ID) }, ['ids']],
    ['an unknown field', { all: true, everything: true }, ['everything']],
  ] as const) {
    it(`rejects ${what}, marking nothing`, async () => {
      const res = await dave.api.post(READ, body);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error_code, 'validation_error');
      for (const field of fields) assert.ok(res.body.fields?.[field], `${field} in ${res.text}`);
      assert.equal((await listOf(dave.api, '?unread=true')).pagination.total, 3);
    });
  }

  it('answers 400 to a key without a member, saying why', async () => {
    const memberless = ctx().client(ctx().a.memberlessKey);
    for (const res of [await memberless.get(LIST), await memberless.post(READ, { all: true })]) {
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error_code, 'validation_error');
      assert.match(res.body.detail, /belong to a member/);
    }
  });

  it('lets a read-only key list but not mark, and needs a key', async () => {
    assert.equal((await ctx().client(ctx().a.readOnlyKey).get(LIST)).status, 200);
    assert.equal((await ctx().client(ctx().a.readOnlyKey).post(READ, { all: true })).status, 403);
    assert.equal((await ctx().client(null).get(LIST)).status, 401);
  });
});

describeEachDialect('notifications live, on the member\'s own stream [ext]', (ctx) => {
  it('carries notification.created to its member\'s stream alone, not to others, a key without a member, or webhooks', async () => {
    const context = ctx();
    if (!context.app.server.listening) await context.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}/api/v1/events/stream`;
    const erin = await teammate(context, 'Erin');
    const open = (key: string) => openStream(base, { headers: { authorization: `Bearer ${key}` } });
    const [erinStream, ownerStream, memberlessStream] = await Promise.all([open(erin.key), open(context.a.key), open(context.a.memberlessKey)]);
    const hook = await context.a.api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    assert.equal(hook.status, 201, hook.text);
    for (const stream of [erinStream, ownerStream, memberlessStream]) await stream.waitFor(() => stream.lastEventId !== '', 'the starting position');
    const conversation = await importConversation(context.a.api, (await createProduct(context.a.api)).id);
    await assign(context.a.api, conversation.id, erin.member.id);
    const [told] = await notificationsOf(erin.api);
    const events = await erinStream.waitFor((all) => all.some((e) => e.event === 'notification.created'), 'Erin\'s notification');
    const live = events.find((e) => e.event === 'notification.created')!;
    const payload = JSON.parse(live.data);
    assert.deepEqual(payload.data, { ...told, member_id: erin.member.id });
    // The owner's and the key's streams got the same conversation.updated, and no notification.
    for (const stream of [ownerStream, memberlessStream]) {
      await stream.waitFor((all) => all.some((e) => e.event === 'conversation.updated' && JSON.parse(e.data).data.assignee_id === erin.member.id), 'the assignment');
      assert.ok(!stream.events.some((e) => e.event === 'notification.created'));
    }
    for (const stream of [erinStream, ownerStream, memberlessStream]) stream.close();
    await fanOutAll(context);
    const deliveries = await context.database.db.selectFrom('webhook_deliveries').select('event_type').where('workspace_id', '=', context.a.id).execute();
    assert.ok(deliveries.some((d) => d.event_type === 'conversation.updated'));
    assert.ok(!deliveries.some((d) => d.event_type === 'notification.created'));
  });
}, { webhooks: { allowPrivate: true } });

describeEachDialect('notifications and erasure [ext]', (ctx) => {
  it('keeps nothing of an erased contact: the actor goes, the stored events go, the conversation stays', async () => {
    const frank = await teammate(ctx(), 'Frank');
    const conversation = await widgetConversation(ctx(), 'Zelda Quartz');
    await assign(ctx().a.api, conversation.id, frank.member.id);
    await conversation.write('My card number is 4242');
    assert.equal((await notificationsOf(frank.api))[0].actor.name, 'Zelda Quartz');
    assert.equal((await ctx().a.api.delete(`/api/v1/contacts/${conversation.contactId}`)).status, 204);
    const after = await frank.api.get(LIST);
    assert.deepEqual(after.body.data.map((n: any) => [n.kind, n.actor?.type ?? null]), [['message', null], ['assigned', 'member']]);
    assert.ok(!after.text.includes('Zelda') && !after.text.includes('4242') && !after.text.includes(conversation.contactId));
    const events = await ctx().database.db.selectFrom('events').select('payload').where('workspace_id', '=', ctx().a.id).where('type', '=', 'notification.created').execute();
    assert.ok(!events.some((e) => e.payload.includes('Zelda') || e.payload.includes(conversation.contactId)));
  });

  it('lets a removed member\'s notifications go with them, and a removed actor become nobody', async () => {
    const gina = await teammate(ctx(), 'Gina');
    const hank = await teammate(ctx(), 'Hank');
    const conversation = await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id);
    await note(gina.api, conversation.id, '@Hank please');
    await note(hank.api, conversation.id, '@Gina thanks');
    assert.equal((await ctx().a.api.delete(`/api/v1/members/${gina.member.id}`)).status, 204);
    const [told] = await notificationsOf(hank.api);
    assert.deepEqual([told.kind, told.actor], ['mention', null]);
    const left = await ctx().database.db.selectFrom('notifications').select('id').where('member_id', '=', gina.member.id).execute();
    assert.deepEqual(left, []);
  });
});

for (const dialect of DIALECTS) {
  describe(`notifications by mail [${dialect}]`, () => {
    let smtp: SmtpReceiver;
    let context: TestContext & { close(): Promise<void> };
    const clock = manualClock();
    before(async () => {
      smtp = await startSmtpReceiver();
      context = await createTestContext(dialect, {
        clock, email: testEmailConfig(), mail: { smtpUrl: smtp.url, from: 'Acme Support <support@acme.test>', timeoutMs: 2_000 },
        webhooks: { pollIntervalMs: 20, retryScheduleMs: [50, 100] },
      });
    });
    after(async () => {
      await context?.close();
      await smtp?.close();
    });

    const mailRows = (memberId: string) => context.database.db.selectFrom('notification_mails').select(['status', 'created_at']).where('member_id', '=', memberId).execute();

    it('mails a member who asked, at most once per conversation every 10 minutes, later ones folded in while it waits', async () => {
      const ivy = await teammate(context, 'Ivy');
      const quiet = await teammate(context, 'Jack');
      assert.equal((await ivy.api.patch('/api/v1/me', { notify_email: true, time_zone: 'Europe/Berlin' })).status, 200);
      const conversation = await widgetConversation(context, 'Ada Lovelace');
      await assign(context.a.api, conversation.id, ivy.member.id);
      clock.advance(60_000);
      await conversation.write('Secret words of the customer');
      await note(context.a.api, conversation.id, '@Jack fyi');
      assert.equal((await mailRows(ivy.member.id)).length, 1, 'one mail for the window');
      assert.deepEqual(await mailRows(quiet.member.id), [], 'no mail for a member who did not ask');

      context.services.webhookDispatcher.start();
      await smtp.waitUntil((receiver) => receiver.accepted.length >= 1, 'the notification mail');
      const [{ recipients, mail }] = smtp.accepted;
      assert.deepEqual(recipients, [ivy.email]);
      assert.equal(mail.subject, `Alpha Owner assigned you “The export button does nothing” (and 1 more)`);
      assert.match(mail.text!, /^\w{3}, \d{1,2} \w{3} \d{4} at 11:00 CET: Alpha Owner assigned you “The export button does nothing”\n.* at 11:01 CET: Ada Lovelace wrote in “The export button does nothing”\n/);
      assert.ok(mail.text!.includes(`/app/inbox/${conversation.id}`));
      assert.ok(!mail.text!.includes('Secret words'), 'the customer\'s words stay in Loopdesk');
      assert.equal(mail.headers.get('auto-submitted'), 'auto-generated');
      await eventually(() => mailRows(ivy.member.id), (rows) => rows[0]?.status === 'done', 'the mail marked done');

      clock.advance(5 * 60_000);
      await conversation.write('Still there?');
      assert.equal((await mailRows(ivy.member.id)).length, 1, 'within 10 minutes: no second mail');
      clock.advance(5 * 60_000);
      await conversation.write('Hello again');
      await smtp.waitUntil((receiver) => receiver.accepted.length >= 2, 'the next window\'s mail');
      assert.equal(smtp.accepted[1]!.mail.subject, 'Ada Lovelace wrote in “The export button does nothing”');
      assert.equal(smtp.accepted.length, 2);
    });
  });
}
