// Contact names on one line at every way in (docs/privacy.md, "Names"): a widget session's and a
// form's name, an identity token's name claim, an import, a PATCH and a mail's display name lose
// their control characters, line and paragraph separators and bidi overrides; a name with nothing
// left is refused where a blank one is, and null where a blank one clears it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { importConversation } from '../helpers/factories.js';
import { postMail, testEmailConfig } from '../helpers/email.js';
import { describeEachDialect, unique } from '../helpers/harness.js';
import { identitySecret, signIdentity, startSession, widgetPath, widgetProduct } from '../helpers/widget.js';

const BASE = '/api/v1/contacts';
const emailOf = (label: string) => `${unique(label).replace(/\W/g, '').toLowerCase()}@example.com`;

describeEachDialect('contact names [ext]', (ctx) => {
  // Line breaks and a tab (C0), NEL (C1), a right-to-left override and an isolate, around and inside the name.
  const DIRTY = ' \u202eAda\r\n\tLovelace\u0085\u2066 ';
  const CLEAN = 'Ada Lovelace';
  const NOTHING_LEFT = '\u0007\u202e\u2028';
  const contactOf = async (email: string) => (await ctx().a.api.get(`${BASE}?q=${encodeURIComponent(email)}`)).body.data[0];
  const mailFrom = (name: string, email: string) => Buffer.from([
    `From: =?UTF-8?B?${Buffer.from(name).toString('base64')}?= <${email}>`, 'To: support@example.com', 'Subject: Hello',
    `Message-ID: <${email}>`, 'Content-Type: text/plain; charset=utf-8', '', 'Hello there.', '',
  ].join('\r\n'));

  it('are one line at every way in: control characters, line and paragraph separators and bidi overrides become one space, then trimmed', async () => {
    const product = await widgetProduct(ctx());
    const [typed, claimed, formed, imported, patched, mailed] = ['typed', 'claimed', 'formed', 'imported', 'patched', 'mailed'].map(emailOf);
    const session = await startSession(ctx(), product.widget_key, { name: DIRTY, email: typed });
    assert.equal(session.contact.name, CLEAN);
    const secret = await identitySecret(ctx(), product.id);
    const identity_token = await signIdentity(secret, { sub: unique('claimed'), aud: product.widget_key, email: claimed, name: DIRTY });
    assert.equal((await startSession(ctx(), product.widget_key, { identity_token })).contact.name, CLEAN);
    const form = await ctx().client(null).post(widgetPath(product.widget_key, '/forms'), { title: 'Broken', body: 'It broke.', name: DIRTY, email: formed });
    assert.equal(form.status, 201, form.text);
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${form.body.data.id}`)).body.data.messages[0].sender_name, CLEAN);
    await importConversation(ctx().a.api, product.id, { contact: { name: DIRTY, email: imported }, body: 'Hi' });
    const patchedId = (await importConversation(ctx().a.api, product.id, { contact: { email: patched } })).contact_id;
    assert.equal((await ctx().a.api.patch(`${BASE}/${patchedId}`, { name: DIRTY })).body.data.name, CLEAN);
    assert.equal((await postMail(ctx().a.api, mailFrom(DIRTY, mailed), product.id)).status, 202);
    for (const email of [typed, claimed, formed, imported, patched, mailed]) assert.equal((await contactOf(email))?.name, CLEAN, email);
  });

  it('with nothing left are refused where a blank name is (the widget, an import), and null where a blank name clears it (PATCH, an identity token, mail)', async () => {
    const product = await widgetProduct(ctx());
    for (const [path, body] of [['/sessions', { name: NOTHING_LEFT }], ['/forms', { title: 'x', body: 'y', name: NOTHING_LEFT }]] as const) {
      const res = await ctx().client(null).post(widgetPath(product.widget_key, path), body);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.ok(res.body.fields.name, res.text);
    }
    const refused = await ctx().a.api.post('/api/v1/conversations', { product_id: product.id, title: 'x', contact: { name: NOTHING_LEFT, email: emailOf('refused') } });
    assert.equal(refused.status, 400, refused.text);
    assert.ok(refused.body.fields['contact.name'], refused.text);

    const [patched, claimed, mailed] = ['patched', 'claimed', 'mailed'].map(emailOf);
    const patchedId = (await importConversation(ctx().a.api, product.id, { contact: { name: 'Grace', email: patched } })).contact_id;
    assert.equal((await ctx().a.api.patch(`${BASE}/${patchedId}`, { name: NOTHING_LEFT })).body.data.name, null);
    const secret = await identitySecret(ctx(), product.id);
    const identity_token = await signIdentity(secret, { sub: unique('claimed'), aud: product.widget_key, email: claimed, name: NOTHING_LEFT });
    assert.equal((await startSession(ctx(), product.widget_key, { identity_token })).contact.name, null);
    assert.equal((await postMail(ctx().a.api, mailFrom(NOTHING_LEFT, mailed), product.id)).status, 202);
    assert.equal((await contactOf(mailed)).name, null);
  });
}, { email: testEmailConfig() });
