// Mail in by HTTP (docs/email.md): the samples of test/fixtures/email/ become the right
// conversations and messages; replies join their thread and reopen it; the same Message-ID is
// stored once; automatic mail, our own and a sender over the hourly limit are ignored.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProduct, importConversation } from '../helpers/factories.js';
import { INBOUND_DOMAIN, mailSample, plainMail, postMail, testEmailConfig } from '../helpers/email.js';
import { hostileMail } from '../helpers/hostile-mail.js';
import { describeEachDialect, unique, type Client } from '../helpers/harness.js';
import { identitySecret, signIdentity, startSession, widgetProduct } from '../helpers/widget.js';

const conversation = async (api: Client, id: string) => (await api.get(`/api/v1/conversations/${id}`)).body.data;
const uniqueId = (tag: string) => `${unique(tag).replace(/\W/g, '.')}@test.example`;

function accepted(res: { status: number; body: any }) {
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.data as { conversation_id: string | null; message_id: string | null; created: boolean };
}

describeEachDialect('products\' inbound_email [ext]', (ctx) => {
  it('is generated from the slug, unique, at the inbound domain', async () => {
    const [one, two] = [await createProduct(ctx().a.api, { name: 'Acme Mobile' }), await createProduct(ctx().a.api, { name: 'Acme Mobile' })];
    assert.match(one.inbound_email, new RegExp(`^${one.slug}-[a-z0-9]{6}@${INBOUND_DOMAIN.replace(/\./g, '\\.')}$`));
    assert.notEqual(one.inbound_email, two.inbound_email);
    assert.equal((await ctx().a.api.get(`/api/v1/products/${one.id}`)).body.data.inbound_email, one.inbound_email);
  });

  it('is read-only: sent in a POST or a PATCH it is a 400', async () => {
    const created = await ctx().a.api.post('/api/v1/products', { name: 'Mailer', inbound_email: 'mine@example.com' });
    assert.equal(created.status, 400);
    assert.ok(created.body.fields.inbound_email, JSON.stringify(created.body));
    const product = await createProduct(ctx().a.api);
    const patched = await ctx().a.api.patch(`/api/v1/products/${product.id}`, { inbound_email: 'mine@example.com' });
    assert.equal(patched.status, 400);
    assert.ok(patched.body.fields.inbound_email, JSON.stringify(patched.body));
  });
}, { email: testEmailConfig() });

describeEachDialect('POST /api/v1/inbound/email [ext]', (ctx) => {
  it('turns a multipart/alternative mail into an open email ticket with the sender as contact', async () => {
    const product = await createProduct(ctx().a.api);
    const result = accepted(await postMail(ctx().a.api, mailSample('multipart-alternative'), product.id));
    assert.equal(result.created, true);
    const data = await conversation(ctx().a.api, result.conversation_id!);
    assert.deepEqual([data.product_id, data.source, data.channel, data.type, data.status, data.title], [product.id, 'email', 'email', 'ticket', 'open', 'Export button does nothing']);
    assert.deepEqual([data.contact.name, data.contact.email], ['Ada Lovelace', 'ada@example.com']);
    assert.equal(data.messages.length, 1);
    const [message] = data.messages;
    assert.equal(message.id, result.message_id);
    assert.deepEqual([message.sender_type, message.sender_id, message.sender_name], ['contact', data.contact_id, 'Ada Lovelace']);
    assert.equal(message.body, 'Hello,\n\nThe export button on the reports page does nothing when I click it.\nI tried Firefox and Chrome.\n\nAda');
    assert.deepEqual([message.delivery, message.attachments], [null, []]);
  });

  it('never renames an existing contact: a verified one keeps the name its identity token gave, an imported one its own; only a new contact takes the display name', async () => {
    const product = await widgetProduct(ctx());
    const secret = await identitySecret(ctx(), product.id);
    const vera = `${unique('vera').replace(/\W/g, '-')}@cust.test`;
    const token = await signIdentity(secret, { sub: unique('vera'), aud: product.widget_key, email: vera, name: 'Vera' });
    await startSession(ctx(), product.widget_key, { identity_token: token });
    const grace = `${unique('grace').replace(/\W/g, '-')}@cust.test`;
    await importConversation(ctx().a.api, product.id, { contact: { name: 'Grace', email: grace } });

    const forged = '"Support Team - reset your password at http://evil.test"';
    for (const [address, name] of [[vera, 'Vera'], [grace, 'Grace']]) {
      const result = accepted(await postMail(ctx().a.api, plainMail({ from: `${forged} <${address}>`, messageId: uniqueId('rename') }), product.id));
      const data = await conversation(ctx().a.api, result.conversation_id!);
      assert.deepEqual([data.contact.name, data.messages[0].sender_name], [name, name], address);
    }
    const again = await startSession(ctx(), product.widget_key, { identity_token: token });
    assert.deepEqual([again.contact.name, again.contact.verified], ['Vera', true]);
    const newcomer = accepted(await postMail(ctx().a.api, plainMail({ from: `"Nina New" <${unique('nina').replace(/\W/g, '-')}@cust.test>`, messageId: uniqueId('new') }), product.id));
    assert.equal((await conversation(ctx().a.api, newcomer.conversation_id!)).contact.name, 'Nina New');
  });

  it('keeps the title of a subject with encoded line breaks, tabs and bidi overrides on one line', async () => {
    const product = await createProduct(ctx().a.api);
    const subject = `=?UTF-8?B?${Buffer.from('Export\r\n\tBcc: someone@example.com\u202e broken').toString('base64')}?=`;
    const { conversation_id } = accepted(await postMail(ctx().a.api, plainMail({ subject, messageId: uniqueId('subject') }), product.id));
    assert.equal((await conversation(ctx().a.api, conversation_id!)).title, 'Export Bcc: someone@example.com broken');
  });

  it('stores the same Message-ID once', async () => {
    const product = await createProduct(ctx().a.api);
    const raw = plainMail({ messageId: uniqueId('twice') });
    const first = accepted(await postMail(ctx().a.api, raw, product.id));
    const again = accepted(await postMail(ctx().a.api, raw, product.id));
    assert.deepEqual(again, { ...first, created: false });
    assert.equal((await conversation(ctx().a.api, first.conversation_id!)).messages.length, 1);
  });

  it('reads HTML-only mail as text, and quoted-printable and ISO-8859-1 mail in their charsets', async () => {
    const product = await createProduct(ctx().a.api);
    const bodyOf = async (sample: string) => {
      const { conversation_id } = accepted(await postMail(ctx().a.api, mailSample(sample), product.id));
      const data = await conversation(ctx().a.api, conversation_id!);
      return { title: data.title, name: data.contact.name, body: data.messages[0].body };
    };
    const html = await bodyOf('html-only');
    assert.equal(html.title, 'Invoices page is blank');
    assert.equal(html.body, 'Hi team,\n\nThe invoices page is completely blank since this morning.\n\n * Browser: Safari 19\n * Account: grace-co');
    const qp = await bodyOf('quoted-printable');
    assert.deepEqual([qp.title, qp.name], ['Problème d\'export — fichier vide', 'Renée Dupré']);
    assert.match(qp.body, /L'export CSV crée un fichier vide depuis la mise à jour\. Voici une ligne très longue qui a été coupée par le codage quoted-printable sans que/);
    const latin1 = await bodyOf('iso-8859-1');
    assert.deepEqual([latin1.title, latin1.name], ['Größenangabe falsch', 'Jürgen Müller']);
    assert.match(latin1.body, /12 µm statt 12 mm\. Schöne Grüße,/);
  });

  it('finds the product by its inbound address among the recipients; without one, product_id is required', async () => {
    const product = await createProduct(ctx().a.api);
    const named = accepted(await postMail(ctx().a.api, plainMail({ messageId: uniqueId('to'), to: `Support <${product.inbound_email.toUpperCase()}>` })));
    assert.equal((await conversation(ctx().a.api, named.conversation_id!)).product_id, product.id);

    const missing = await postMail(ctx().a.api, plainMail({ messageId: uniqueId('nowhere') }));
    assert.equal(missing.status, 400);
    assert.match(missing.body.fields.product_id, /required/);
    const foreign = await postMail(ctx().a.api, plainMail({ messageId: uniqueId('foreign') }), (await createProduct(ctx().b.api)).id);
    assert.equal(foreign.status, 400);
    assert.ok(foreign.body.fields.product_id);
  });

  it('refuses a product_id that is not a UUID, even when a recipient names the product, and takes one with spaces around it', async () => {
    const product = await createProduct(ctx().a.api);
    const to = `Support <${product.inbound_email}>`;
    for (const malformed of ['', 'nope', `${product.id}x`]) {
      const refused = await ctx().a.api.request('POST', `/api/v1/inbound/email?product_id=${encodeURIComponent(malformed)}`, {
        payload: plainMail({ messageId: uniqueId('malformed'), to }), headers: { 'content-type': 'message/rfc822' },
      });
      assert.equal(refused.status, 400, malformed);
      assert.match(refused.body.fields.product_id, /not a well-formed UUID/);
    }
    const padded = await ctx().a.api.request('POST', `/api/v1/inbound/email?product_id=${encodeURIComponent(` ${product.id.toUpperCase()} `)}`, {
      payload: plainMail({ messageId: uniqueId('padded') }), headers: { 'content-type': 'message/rfc822' },
    });
    assert.equal((await conversation(ctx().a.api, accepted(padded).conversation_id!)).product_id, product.id);
  });

  it('threads a reply by In-Reply-To/References, strips the quoted history (kept in full_body) and reopens a resolved conversation', async () => {
    const product = await createProduct(ctx().a.api);
    const first = plainMail({ messageId: uniqueId('thread'), subject: 'Export button does nothing' });
    const { conversation_id } = accepted(await postMail(ctx().a.api, first, product.id));
    const firstId = `<${/Message-ID: <([^>]+)>/.exec(first.toString())![1]}>`;
    await ctx().a.api.patch(`/api/v1/conversations/${conversation_id}`, { status: 'resolved' });

    const reply = accepted(await postMail(ctx().a.api, mailSample('gmail-reply', { REPLY_TO: 'support@example.com', IN_REPLY_TO: firstId, REFERENCES: firstId }), product.id));
    assert.deepEqual([reply.conversation_id, reply.created], [conversation_id, false]);
    const data = await conversation(ctx().a.api, conversation_id!);
    assert.equal(data.status, 'open');
    const message = data.messages.at(-1);
    assert.equal(message.body, 'Thanks, clearing the cache fixed it on Firefox. Chrome still fails though.');
    assert.match(message.full_body, /^Thanks, clearing the cache[\s\S]*wrote:\n\n> Could you try clearing your cache/);
  });

  it('ignores automatic mail (Auto-Submitted, Precedence, List-Id) and mail from our own addresses: 202, nothing stored, nothing reopened', async () => {
    const product = await createProduct(ctx().a.api);
    const first = plainMail({ messageId: uniqueId('auto-thread') });
    const { conversation_id } = accepted(await postMail(ctx().a.api, first, product.id));
    await ctx().a.api.patch(`/api/v1/conversations/${conversation_id}`, { status: 'resolved' });
    const firstId = `<${/Message-ID: <([^>]+)>/.exec(first.toString())![1]}>`;
    const ignored = [
      mailSample('auto-reply', { REPLY_TO: 'support@example.com', IN_REPLY_TO: firstId }),
      plainMail({ messageId: uniqueId('bulk'), headers: { Precedence: 'bulk' } }),
      plainMail({ messageId: uniqueId('list'), headers: { 'List-Id': 'Announcements <news.example.com>' } }),
      plainMail({ messageId: uniqueId('own'), from: `Us <${product.inbound_email}>`, headers: { 'In-Reply-To': firstId } }),
    ];
    for (const raw of ignored) assert.deepEqual(accepted(await postMail(ctx().a.api, raw, product.id)), { conversation_id: null, message_id: null, created: false });
    const data = await conversation(ctx().a.api, conversation_id!);
    assert.deepEqual([data.status, data.messages.length], ['resolved', 1]);
    const notAutomatic = accepted(await postMail(ctx().a.api, plainMail({ messageId: uniqueId('no'), headers: { 'Auto-Submitted': 'no' } }), product.id));
    assert.equal(notAutomatic.created, true);
  });

  it('starts at most the configured number of conversations per sender and hour; replies still thread', async () => {
    const product = await createProduct(ctx().a.api);
    const from = `Loop <${uniqueId('loop').replace('@', '-at-')}@example.net>`;
    const results = [];
    const ids = [0, 1, 2, 3].map((i) => uniqueId(`flood${i}`));
    for (const messageId of ids) results.push(accepted(await postMail(ctx().a.api, plainMail({ from, messageId }), product.id)));
    assert.deepEqual(results.map((result) => result.created), [true, true, true, false]);
    assert.equal(results[3].conversation_id, null);
    const reply = accepted(await postMail(ctx().a.api, plainMail({ from, messageId: uniqueId('flood-reply'), headers: { 'In-Reply-To': `<${ids[0]}>` } }), product.id));
    assert.equal(reply.conversation_id, results[0].conversation_id);
    const other = accepted(await postMail(ctx().a.api, plainMail({ messageId: uniqueId('other') }), product.id));
    assert.equal(other.created, true, 'another sender is not limited');
  });

  it('marks an agent\'s reply in an email conversation failed at once when no SMTP server is configured', async () => {
    const product = await createProduct(ctx().a.api);
    const { conversation_id } = accepted(await postMail(ctx().a.api, plainMail({ messageId: uniqueId('no-smtp') }), product.id));
    const posted = await ctx().a.api.post(`/api/v1/conversations/${conversation_id}/messages`, { body: 'Thanks, looking into it.' });
    assert.equal(posted.status, 201);
    assert.equal(posted.body.data.delivery.status, 'failed');
    assert.match(posted.body.data.delivery.error, /LOOPDESK_SMTP_URL/);
    assert.deepEqual((await conversation(ctx().a.api, conversation_id!)).messages[1].delivery, posted.body.data.delivery);
  });

  it('needs the settings role', async () => {
    const { services, a, client } = ctx();
    const agent = await services.admin.createMember({ workspaceId: a.id, name: unique('Agent'), role: 'agent' });
    const key = await services.admin.createKey({ workspaceId: a.id, memberId: agent.id });
    const product = await createProduct(a.api);
    const res = await postMail(client(key.key), plainMail({ messageId: uniqueId('agent') }), product.id);
    assert.equal(res.status, 403);
  });

  it('refuses a body that is not a raw message (415) and one over 25 MiB (413)', async () => {
    const product = await createProduct(ctx().a.api);
    const json = await ctx().a.api.post(`/api/v1/inbound/email?product_id=${product.id}`, { raw: 'x' });
    assert.equal(json.status, 415);
    const huge = await postMail(ctx().a.api, Buffer.alloc(25 * 1024 * 1024 + 1, 'a'), product.id);
    assert.equal(huge.status, 413);
    assert.match(huge.body.detail, /25 MiB/);
  });

  it('says so in the message when an HTML-only mail\'s HTML is over 2 MiB, rather than turning it into text', async () => {
    const product = await createProduct(ctx().a.api);
    const html = `<html><body>${'<p>A paragraph of a very long newsletter.</p>\r\n'.repeat(3 * 1024 * 1024 / 48)}</body></html>`;
    const raw = plainMail({ messageId: uniqueId('big-html'), body: html });
    const result = accepted(await postMail(ctx().a.api, Buffer.from(raw.toString().replace('text/plain', 'text/html')), product.id));
    const [message] = (await conversation(ctx().a.api, result.conversation_id!)).messages;
    assert.match(message.body, /^\[The mail's HTML was not turned into text: HTML too long for parsing \d+ bytes\]$/);
  });

  it('refuses a mail with over 1,000 parts or multiparts nested 2,000 deep (400, nothing stored), and takes one within the limits', async () => {
    const product = await createProduct(ctx().a.api);
    for (const raw of [hostileMail('parts', 1001), hostileMail('nesting', 2000)]) {
      const refused = await postMail(ctx().a.api, raw, product.id);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error_code, 'validation_error');
      assert.match(refused.body.detail, /the mail cannot be read .*at most 1000 MIME parts/);
    }
    assert.equal((await ctx().a.api.get(`/api/v1/conversations?product_id=${product.id}`)).body.data.length, 0);
    accepted(await postMail(ctx().a.api, hostileMail('nesting', 500, { messageId: uniqueId('nested') }), product.id));
  });
}, { email: testEmailConfig() });
