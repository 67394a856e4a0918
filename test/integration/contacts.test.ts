import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { it } from 'node:test';
import { sql } from 'kysely';
import { INBOUND_DOMAIN, mailSample, mailWith, plainMail, postMail, testEmailConfig } from '../helpers/email.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, unique, type TestContext } from '../helpers/harness.js';
import { identitySecret, signIdentity, startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const BASE = '/api/v1/contacts';
const UNKNOWN_ID = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000';
const emailOf = (label: string) => `${unique(label).replace(/\W/g, '').toLowerCase()}@example.com`;

/** A key of A whose member is an agent. */
async function agentKey(ctx: TestContext): Promise<string> {
  const member = await ctx.services.admin.createMember({ workspaceId: ctx.a.id, name: 'Agent', role: 'agent' });
  return (await ctx.services.admin.createKey({ workspaceId: ctx.a.id, memberId: member.id })).key;
}

describeEachDialect('GET /api/v1/contacts [ext]', (ctx) => {
  it('lists contacts newest first with their counts, and filters by a prefix of name or email without case', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const prefix = unique('Zed').replace(/\W/g, '');
    const first = await importConversation(ctx().a.api, productId, { contact: { name: `${prefix} One`, email: emailOf('one') }, body: 'Hello' });
    await importConversation(ctx().a.api, productId, { contact: { email: first.contact.email } });
    const second = await importConversation(ctx().a.api, productId, { contact: { name: 'Other', email: `${prefix.toLowerCase()}@example.com` } });
    await importConversation(ctx().a.api, productId, { contact: { name: 'Unrelated' } });
    const res = await ctx().a.api.get(`${BASE}?q=${prefix.toUpperCase()}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.map((row: any) => row.id), [second.contact_id, first.contact_id]);
    assert.equal(res.body.pagination.total, 2);
    const one = res.body.data[1];
    assert.deepEqual(one, {
      id: first.contact_id, name: `${prefix} One`, email: first.contact.email, verified: false, created_at: first.created_at,
      last_seen_at: first.created_at, conversations_count: 2,
    });
    assert.equal(res.body.data[0].last_seen_at, null);
    assert.equal((await ctx().b.api.get(`${BASE}?q=${prefix}`)).body.pagination.total, 0);
    assert.equal((await ctx().client(ctx().a.readOnlyKey).get(BASE)).status, 200);
  });

  it('rejects a bad limit', async () => {
    assert.equal((await ctx().a.api.get(`${BASE}?limit=0`)).status, 400);
  });
});

describeEachDialect('GET and PATCH /api/v1/contacts/{id} [ext]', (ctx) => {
  it('shows the contact with their conversations, newest first', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const email = emailOf('ada');
    const older = await importConversation(ctx().a.api, productId, { contact: { name: 'Ada', email } });
    const newer = await importConversation(ctx().a.api, productId, { contact: { email } });
    const res = await ctx().a.api.get(`${BASE}/${older.contact_id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.conversations.map((row: any) => row.id), [newer.id, older.id]);
    assert.equal(res.body.data.conversations_count, 2);
  });

  it('answers 404 for an unknown, malformed or other workspace\'s id', async () => {
    const contactId = (await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { contact: { name: 'X' } })).contact_id;
    for (const [api, id] of [[ctx().a.api, UNKNOWN_ID], [ctx().a.api, 'nope'], [ctx().b.api, contactId]] as const) {
      assert.equal((await api.get(`${BASE}/${id}`)).status, 404);
      assert.equal((await api.patch(`${BASE}/${id}`, { name: 'Y' })).status, 404);
      assert.equal((await api.get(`${BASE}/${id}/export`)).status, 404);
      assert.equal((await api.delete(`${BASE}/${id}`)).status, 404);
    }
  });

  it('corrects name (trimmed) and email (lowercased); the new email finds the contact again', async () => {
    const productId = (await createProduct(ctx().a.api)).id;
    const contactId = (await importConversation(ctx().a.api, productId, { contact: { name: 'Grace', email: emailOf('grace') } })).contact_id;
    const email = emailOf('hopper');
    const res = await ctx().a.api.patch(`${BASE}/${contactId}`, { name: '  Grace Hopper ', email: email.toUpperCase() });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.name, 'Grace Hopper');
    assert.equal(res.body.data.email, email);
    assert.equal((await importConversation(ctx().a.api, productId, { contact: { email } })).contact_id, contactId);
    assert.equal((await ctx().a.api.get(`${BASE}?q=grace h`)).body.data[0].id, contactId);
    assert.equal((await ctx().a.api.patch(`${BASE}/${contactId}`, { name: null })).body.data.name, null);
  });

  for (const [what, body, field] of [
    ['a malformed email', { email: 'not-an-email' }, 'email'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['an unknown field', { phone: '1' }, 'phone'],
  ] as const) {
    it(`rejects ${what}`, async () => {
      const contactId = (await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { contact: { name: 'X' } })).contact_id;
      const res = await ctx().a.api.patch(`${BASE}/${contactId}`, body);
      assert.equal(res.status, 400);
      assert.ok(res.body.fields[field], res.text);
    });
  }

  it('rejects an email another contact of the workspace has (400), not one of another workspace', async () => {
    const taken = emailOf('taken');
    await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { contact: { email: taken } });
    const contactId = (await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { contact: { name: 'X' } })).contact_id;
    const res = await ctx().a.api.patch(`${BASE}/${contactId}`, { email: taken });
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.email);
    const inB = (await importConversation(ctx().b.api, (await createProduct(ctx().b.api)).id, { contact: { name: 'X' } })).contact_id;
    assert.equal((await ctx().b.api.patch(`${BASE}/${inB}`, { email: taken })).status, 200);
  });

  it('refuses a read-only key (403)', async () => {
    const contactId = (await importConversation(ctx().a.api, (await createProduct(ctx().a.api)).id, { contact: { name: 'X' } })).contact_id;
    assert.equal((await ctx().client(ctx().a.readOnlyKey).patch(`${BASE}/${contactId}`, { name: 'Y' })).status, 403);
    assert.equal((await ctx().client(ctx().a.readOnlyKey).delete(`${BASE}/${contactId}`)).status, 403);
  });
});

/** A person known through the widget (verified, with a message, a rating and an upvote) and an import. */
async function seedPerson(ctx: TestContext) {
  const marker = unique('qzx').replace(/\W/g, '').toLowerCase();
  const product = await widgetProduct(ctx);
  const secret = await identitySecret(ctx, product.id);
  const identity_token = await signIdentity(secret, { sub: `sub${marker}`, aud: product.widget_key, email: `${marker}@example.com`, name: `Name${marker}` });
  const session = await startSession(ctx, product.widget_key, { identity_token });
  const person = visitor(ctx, session.token);
  const chat = await person.post(widgetPath(product.widget_key, '/conversations'), { body: `Text${marker} my card was charged twice` }, { headers: { 'idempotency-key': marker } });
  assert.equal(chat.status, 201, chat.text);
  await ctx.a.api.post(`/api/v1/conversations/${chat.body.data.id}/messages`, { body: 'We refunded you.' });
  await ctx.a.api.patch(`/api/v1/conversations/${chat.body.data.id}`, { status: 'resolved' });
  assert.equal((await person.request('PUT', widgetPath(product.widget_key, `/conversations/${chat.body.data.id}/rating`), { body: { rating: 5 } })).status, 200);
  const idea = await importConversation(ctx.a.api, product.id, { type: 'idea', title: 'Dark mode' });
  assert.equal((await person.post(widgetPath(product.widget_key, `/ideas/${idea.id}/upvote`))).status, 200);
  const imported = await importConversation(ctx.a.api, product.id, { contact: { email: `${marker}@example.com` }, body: `Mail${marker} about my invoice` });
  return { marker, product, session, person, chatId: chat.body.data.id, ideaId: idea.id, importedId: imported.id, contactId: session.contact.id };
}

/** Where a marker still lies: the SQLite file's bytes (and its WAL), or every PostgreSQL table's rows as text. */
async function whereMarkerLies(ctx: TestContext, marker: string): Promise<string[]> {
  if (ctx.dialect === 'sqlite') {
    const file = ctx.databaseUrl.slice('sqlite:'.length);
    return [file, `${file}-wal`].filter((path) => existsSync(path) && readFileSync(path).includes(marker));
  }
  const { rows: tables } = await sql<{ name: string }>`select relname as name from pg_class where relkind = 'r' and relnamespace = current_schema()::regnamespace`.execute(ctx.database.db);
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)} t where t::text like ${`%${marker}%`}`.execute(ctx.database.db);
    if (rows[0]!.n > 0) found.push(name);
  }
  return found;
}

/** Mail as people write it: new words above the quoted history (which only `full_body` keeps), a file attached. */
const mailFrom = (person: { name: string; email: string }, marker: string, inReplyTo?: string) => mailWith(`${person.name} <${person.email}>`, [
  { filename: `File${marker}.txt`, content: Buffer.from(`Bytes${marker}`), contentType: 'text/plain' },
], { text: `Mail${marker} the export still fails.\n\nOn Tue, Nov 24, 2026 at 1:05 PM Acme Support <support@acme.test> wrote:\n\n> Quoted${marker} history, ${person.email}\n`, inReplyTo });

/** Replies are queued for an SMTP server that the tests never start sending to (no dispatcher runs). */
const MAIL = { smtpUrl: 'smtp://127.0.0.1:9', from: 'Acme Support <support@acme.test>', timeoutMs: 1_000 };

/**
 * A mail of the seeded person into their own new thread, and the team's two replies to it: one
 * bounced naming their address, one still waiting to go.
 */
async function seedMail(ctx: TestContext, seeded: Awaited<ReturnType<typeof seedPerson>>) {
  const email = `${seeded.marker}@example.com`;
  const mail = (await postMail(ctx.a.api, await mailFrom({ name: `Name${seeded.marker}`, email }, seeded.marker), seeded.product.id)).body.data;
  assert.ok(mail.created, 'a thread of its own');
  // The team's reply addresses them by name, and its answer is stored for its Idempotency-Key.
  const reply = (await ctx.a.api.post(`/api/v1/conversations/${mail.conversation_id}/messages`, { body: `Hi Name${seeded.marker}, could you try again?` }, {
    headers: { 'idempotency-key': `reply-${seeded.marker}` },
  })).body.data;
  // A report counts only at the reply's own return path (docs/email.md).
  const { return_path_token: token } = await ctx.database.db.selectFrom('email_jobs').select('return_path_token').where('id', '=', reply.id).executeTakeFirstOrThrow();
  const bounce = mailSample('postfix-bounce', { BOUNCED: `<${reply.id}@acme.test>`, TO: `bounces+${token}@${INBOUND_DOMAIN}` })
    .toString('latin1').replaceAll('nobody@example.com', email);
  assert.equal((await postMail(ctx.a.api, Buffer.from(bounce, 'latin1'), seeded.product.id)).status, 202);
  const waiting = (await ctx.a.api.post(`/api/v1/conversations/${mail.conversation_id}/messages`, { body: 'One more thing.' })).body.data;
  const messages = (await ctx.a.api.get(`/api/v1/conversations/${mail.conversation_id}`)).body.data.messages;
  const byId = (id: string) => messages.find((message: any) => message.id === id);
  const theirs = byId(mail.message_id);
  assert.ok(theirs.full_body.includes(`Quoted${seeded.marker}`) && !theirs.body.includes(`Quoted${seeded.marker}`), 'the quoted history only in full_body');
  assert.equal(theirs.attachments[0].filename, `File${seeded.marker}.txt`);
  assert.ok(byId(reply.id).delivery.error.includes(email), 'the bounce names their address');
  assert.equal(byId(waiting.id).delivery.status, 'pending');
  return { conversationId: mail.conversation_id, messageId: mail.message_id, replyIds: [reply.id, waiting.id], bounce: Buffer.from(bounce, 'latin1') };
}

/** Another person's email thread, and a mail of the seeded person sent into it (In-Reply-To naming the other person's mail). */
async function seedMailIntoOtherThread(ctx: TestContext, seeded: Awaited<ReturnType<typeof seedPerson>>) {
  const other = unique('pqy').replace(/\W/g, '').toLowerCase();
  const otherMailId = `${other}@example.com`;
  const thread = (await postMail(ctx.a.api, plainMail({ from: `Other${other} <${other}@example.com>`, messageId: otherMailId, body: `Words${other} about my order` }), seeded.product.id)).body.data;
  const into = (await postMail(ctx.a.api, await mailFrom({ name: `Name${seeded.marker}`, email: `${seeded.marker}@example.com` }, seeded.marker, `<${otherMailId}>`), seeded.product.id)).body.data;
  assert.deepEqual([into.conversation_id, into.created], [thread.conversation_id, false], 'the documented threading put it into the other person\'s thread');
  return { other, conversationId: thread.conversation_id, otherMessageId: thread.message_id, messageId: into.message_id };
}

describeEachDialect('GET /api/v1/contacts/{id}/export [ext]', (ctx) => {
  it('exports the contact, their conversations with messages and ratings, upvotes and widget sessions; never the team\'s notes', async () => {
    const seeded = await seedPerson(ctx());
    const note = await ctx().a.api.post(`/api/v1/conversations/${seeded.chatId}/notes`, { body: `Note${seeded.marker}: refund approved by finance` });
    assert.equal(note.status, 201, note.text);
    const res = await ctx().client(ctx().a.readOnlyKey).get(`${BASE}/${seeded.contactId}/export`);
    assert.equal(res.status, 200, res.text);
    const { contact, conversations, upvotes, widget_sessions } = res.body.data;
    assert.equal(contact.email, `${seeded.marker}@example.com`);
    assert.equal(contact.verified, true);
    assert.deepEqual(conversations.map((row: any) => row.id), [seeded.importedId, seeded.chatId]);
    const chat = conversations[1];
    assert.equal(chat.rating, 5);
    assert.deepEqual(chat.messages.map((message: any) => message.body), [`Text${seeded.marker} my card was charged twice`, 'We refunded you.']);
    assert.deepEqual(upvotes.map((upvote: any) => [upvote.conversation_id, upvote.title]), [[seeded.ideaId, 'Dark mode']]);
    assert.equal(widget_sessions.length, 1);
    assert.equal(widget_sessions[0].product_id, seeded.product.id);
    assert.ok(!res.text.includes(seeded.session.token), 'never the session token');
    assert.ok(!res.text.includes(`Note${seeded.marker}`), 'never an internal note');
  });

  it('exports their messages in another person\'s thread, and nothing else of it', async () => {
    const seeded = await seedPerson(ctx());
    const elsewhere = await seedMailIntoOtherThread(ctx(), seeded);
    const res = await ctx().a.api.get(`${BASE}/${seeded.contactId}/export`);
    assert.equal(res.status, 200, res.text);
    const { conversations, messages_elsewhere } = res.body.data;
    assert.ok(!conversations.some((row: any) => row.id === elsewhere.conversationId), 'not their conversation');
    assert.deepEqual(messages_elsewhere.map((message: any) => [message.id, message.conversation_id, message.sender_id]), [[elsewhere.messageId, elsewhere.conversationId, seeded.contactId]]);
    assert.match(messages_elsewhere[0].body, new RegExp(`^Mail${seeded.marker}`));
    assert.deepEqual(messages_elsewhere[0].attachments.map((file: any) => file.filename), [`File${seeded.marker}.txt`]);
    assert.ok(!res.text.includes(elsewhere.other), 'never the other person\'s words, name or address');
  });
}, { email: testEmailConfig() });

describeEachDialect('DELETE /api/v1/contacts/{id} [ext]', (ctx) => {
  it('needs the settings role: an agent\'s key gets 403 and nothing is erased', async () => {
    const seeded = await seedPerson(ctx());
    const res = await ctx().client(await agentKey(ctx())).delete(`${BASE}/${seeded.contactId}`);
    assert.equal(res.status, 403);
    assert.equal((await ctx().a.api.get(`${BASE}/${seeded.contactId}`)).status, 200);
  });

  it('erases the person from every table and file; conversations stay usable; tallies stay right', async () => {
    const seeded = await seedPerson(ctx());
    assert.ok((await whereMarkerLies(ctx(), seeded.marker)).length > 0, 'the markers are there before');
    const res = await ctx().a.api.delete(`${BASE}/${seeded.contactId}`);
    assert.equal(res.status, 204, res.text);

    assert.deepEqual(await whereMarkerLies(ctx(), seeded.marker), []);
    assert.equal((await ctx().a.api.get(`${BASE}/${seeded.contactId}`)).status, 404);
    assert.equal((await seeded.person.get(widgetPath(seeded.product.widget_key, '/conversations'))).status, 401);

    const chat = (await ctx().a.api.get(`/api/v1/conversations/${seeded.chatId}`)).body.data;
    assert.deepEqual([chat.contact_id, chat.contact, chat.ai_summary, chat.title], [null, null, null, '[erased]']);
    assert.deepEqual(chat.messages.map((message: any) => [message.body, message.sender_type === 'contact' ? message.sender_name : 'kept']), [['[erased]', null], ['[erased]', 'kept']]);
    assert.equal((await ctx().a.api.post(`/api/v1/conversations/${seeded.chatId}/messages`, { body: 'Still here' })).status, 201);
    assert.ok((await ctx().a.api.get(`/api/v1/conversations?product_id=${seeded.product.id}`)).body.data.some((row: any) => row.id === seeded.chatId));
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${seeded.ideaId}`)).body.data.upvotes, 0);

    const again = await importConversation(ctx().a.api, seeded.product.id, { contact: { email: `${seeded.marker}@example.com` } });
    assert.notEqual(again.contact_id, seeded.contactId);
  });

  it('erases the words of conversations folded into their search documents too', async () => {
    const seeded = await seedPerson(ctx());
    const { db, dialect } = ctx().database;
    for (const id of [seeded.chatId, seeded.importedId]) await db.transaction().execute((tx) => dialect.fullText.fold(tx, id));
    assert.equal((await ctx().a.api.delete(`${BASE}/${seeded.contactId}`)).status, 204);
    assert.deepEqual(await whereMarkerLies(ctx(), seeded.marker), []);
    // The documents hold the erased text now.
    const found = await ctx().a.api.get(`/api/v1/search?q=erased&types=conversation&product_id=${seeded.product.id}`);
    assert.deepEqual(new Set(found.body.data.map((result: any) => result.id)), new Set([seeded.chatId, seeded.importedId]));
  });

  it('records conversation.updated for each erased conversation, naming only the contact id', async () => {
    const seeded = await seedPerson(ctx());
    await ctx().a.api.delete(`${BASE}/${seeded.contactId}`);
    const rows = await ctx().database.db.selectFrom('events').select('payload').where('type', '=', 'conversation.updated').execute();
    const erased = rows.map((row) => JSON.parse(row.payload)).filter((event) => event.data.previous?.contact_id === seeded.contactId);
    assert.deepEqual(erased.map((event) => event.data.id).sort(), [seeded.chatId, seeded.importedId].sort());
  });

  it('erases their mail: its whole text with the quoted history, their files, a bounce\'s delivery error, a reply waiting to go; the erasure\'s events hold none of it', async () => {
    const seeded = await seedPerson(ctx());
    const mail = await seedMail(ctx(), seeded);
    assert.equal((await ctx().a.api.delete(`${BASE}/${seeded.contactId}`)).status, 204);
    // The same report once more, at the erased reply's old return path: it writes nothing back.
    assert.equal((await postMail(ctx().a.api, mail.bounce, seeded.product.id)).status, 202);

    assert.deepEqual(await whereMarkerLies(ctx(), seeded.marker), []);
    const messages = (await ctx().a.api.get(`/api/v1/conversations/${mail.conversationId}`)).body.data.messages;
    const theirs = messages.find((message: any) => message.id === mail.messageId);
    assert.deepEqual([theirs.body, theirs.full_body, theirs.sender_name, theirs.attachments], ['[erased]', null, null, []]);
    for (const id of mail.replyIds) {
      assert.deepEqual(messages.find((message: any) => message.id === id).delivery, { status: 'failed', error: '[erased]' }, 'the bounced one, and the waiting one, never sent now');
    }
    const events = await ctx().database.db.selectFrom('events').select('payload').where('type', '=', 'conversation.updated').execute();
    const erasure = events.map((row) => JSON.parse(row.payload)).find((event) => event.data.id === mail.conversationId && event.data.previous?.contact_id === seeded.contactId);
    assert.deepEqual(erasure.data.messages.find((message: any) => message.id === mail.messageId), { ...theirs });
  });

  it('erases what they sent into another person\'s thread, which stays the other person\'s', async () => {
    const seeded = await seedPerson(ctx());
    const elsewhere = await seedMailIntoOtherThread(ctx(), seeded);
    const { db, dialect } = ctx().database;
    await db.transaction().execute((tx) => dialect.fullText.fold(tx, elsewhere.conversationId));
    assert.equal((await ctx().a.api.delete(`${BASE}/${seeded.contactId}`)).status, 204);

    assert.deepEqual(await whereMarkerLies(ctx(), seeded.marker), []);
    const thread = (await ctx().a.api.get(`/api/v1/conversations/${elsewhere.conversationId}`)).body.data;
    assert.equal(thread.contact.email, `${elsewhere.other}@example.com`);
    const [others, theirs] = [thread.messages.find((message: any) => message.id === elsewhere.otherMessageId), thread.messages.find((message: any) => message.id === elsewhere.messageId)];
    assert.match(others.body, new RegExp(`^Words${elsewhere.other}`));
    assert.deepEqual([theirs.body, theirs.full_body, theirs.sender_name, theirs.attachments], ['[erased]', null, null, []]);
    const listed = (await ctx().a.api.get(`/api/v1/conversations?product_id=${seeded.product.id}`)).body.data.find((row: any) => row.id === elsewhere.conversationId);
    assert.equal(listed.last_message.excerpt, '[erased]');
    const found = await ctx().a.api.get(`/api/v1/search?q=Words${elsewhere.other}&types=conversation`);
    assert.deepEqual(found.body.data.map((result: any) => result.id), [elsewhere.conversationId], 'the other person\'s words are still found');
    const events = await db.selectFrom('events').select('payload').where('type', '=', 'conversation.updated').execute();
    assert.ok(events.some((row) => JSON.parse(row.payload).data.id === elsewhere.conversationId), 'webhook consumers learn of the erasure in that thread');
  });
}, { email: testEmailConfig(), mail: MAIL });
