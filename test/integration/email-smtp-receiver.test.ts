// The built-in SMTP receiver (docs/email.md) with a real SMTP client (nodemailer): mail for a
// product's inbound address becomes its conversation, other recipients are refused at RCPT TO with
// a 5xx, a message over the size limit is refused, mail the parser refuses is refused for good
// (554) while a database gone away is a 451, and connections over the cap are turned away (421).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodemailer, { type Transporter } from 'nodemailer';
import { startSmtpReceiver, type SmtpReceiver } from '../../src/smtp/smtp-receiver.js';
import { DIALECTS, migratedDatabaseUrl } from '../helpers/databases.js';
import { mailSample, plainMail, testEmailConfig, INBOUND_DOMAIN } from '../helpers/email.js';
import { createProduct } from '../helpers/factories.js';
import { createWorkspaceFixture, describeEachDialect, openTestApp } from '../helpers/harness.js';
import { hostileMail } from '../helpers/hostile-mail.js';
import { openSmtpDialog } from '../helpers/smtp-client.js';

const MAX_BYTES = 256 * 1024;
const MAX_CONNECTIONS = 3;

describeEachDialect('the SMTP receiver [ext]', (ctx) => {
  let receiver: SmtpReceiver;
  let transport: Transporter;
  const errors: unknown[] = [];
  before(async () => {
    receiver = await startSmtpReceiver({
      inbound: ctx().services.inbound, host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES, maxConnections: MAX_CONNECTIONS, onError: (error) => errors.push(error),
    });
    transport = nodemailer.createTransport({ host: '127.0.0.1', port: receiver.port, secure: false, ignoreTLS: true });
  });
  after(async () => {
    transport?.close();
    await receiver?.close();
    assert.deepEqual(errors, []);
  });

  it('takes mail for a product\'s inbound address and makes it the product\'s conversation', async () => {
    const product = await createProduct(ctx().a.api);
    const sent = await transport.sendMail({ envelope: { from: 'ada@example.com', to: [product.inbound_email] }, raw: mailSample('multipart-alternative') });
    assert.deepEqual(sent.accepted, [product.inbound_email]);
    const list = (await ctx().a.api.get(`/api/v1/conversations?product_id=${product.id}`)).body.data;
    assert.equal(list.length, 1);
    assert.deepEqual([list[0].source, list[0].title, list[0].contact.email], ['email', 'Export button does nothing', 'ada@example.com']);
  });

  it('refuses other recipients at RCPT TO with a 5xx, and keeps the message for the ones it takes', async () => {
    const product = await createProduct(ctx().a.api);
    const strangers = [`nobody@${INBOUND_DOMAIN}`, 'someone@elsewhere.example'];
    const refused = await transport.sendMail({ envelope: { from: 'grace@example.org', to: strangers }, raw: mailSample('html-only') }).catch((error: unknown) => error as { responseCode?: number; command?: string });
    assert.equal(refused.responseCode, 550, String(refused));
    assert.equal(refused.command, 'RCPT TO');

    const mixed = await transport.sendMail({ envelope: { from: 'grace@example.org', to: [strangers[0], product.inbound_email] }, raw: mailSample('html-only') });
    assert.deepEqual([mixed.accepted, mixed.rejected], [[product.inbound_email], [strangers[0]]]);
    const list = (await ctx().a.api.get(`/api/v1/conversations?product_id=${product.id}`)).body.data;
    assert.deepEqual(list.map((conversation: any) => conversation.title), ['Invoices page is blank']);
  });

  it('refuses a message over the size limit', async () => {
    const product = await createProduct(ctx().a.api);
    const big = `From: a@example.com\r\nTo: ${product.inbound_email}\r\nSubject: big\r\nMessage-ID: <big@example.com>\r\n\r\n${'x'.repeat(MAX_BYTES)}\r\n`;
    const refused = await transport.sendMail({ envelope: { from: 'a@example.com', to: [product.inbound_email] }, raw: big }).catch((error: unknown) => error as { responseCode?: number; command?: string });
    assert.equal(refused.responseCode, 552, String(refused));
    assert.equal((await ctx().a.api.get(`/api/v1/conversations?product_id=${product.id}`)).body.data.length, 0);
  });

  it('refuses for good (554) a mail with over 1,000 parts or multiparts nested 2,000 deep, and takes one within the limits', async () => {
    const product = await createProduct(ctx().a.api);
    const send = (raw: Buffer) => transport.sendMail({ envelope: { from: 'mallory@example.com', to: [product.inbound_email] }, raw })
      .catch((error: unknown) => error as { responseCode?: number; command?: string; response?: string });
    for (const raw of [hostileMail('parts', 1001, { to: product.inbound_email }), hostileMail('nesting', 2000, { to: product.inbound_email })]) {
      const refused = await send(raw);
      assert.deepEqual([refused.responseCode, refused.command], [554, 'DATA'], String(refused));
      assert.match(String(refused.response), /at most 1000 MIME parts/);
    }
    assert.equal((await ctx().a.api.get(`/api/v1/conversations?product_id=${product.id}`)).body.data.length, 0);
    const within = await send(hostileMail('parts', 500, { to: product.inbound_email, messageId: 'within-limits@example.com' }));
    assert.deepEqual((within as { accepted?: string[] }).accepted, [product.inbound_email], String(within));
  });

  it('turns connections over the cap away with 421, and serves again once one closes', async () => {
    const open = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => openSmtpDialog(receiver.port)));
    try {
      assert.deepEqual(open.map((dialog) => dialog.greeting.code), Array(MAX_CONNECTIONS).fill(220));
      const over = await openSmtpDialog(receiver.port);
      over.close();
      assert.equal(over.greeting.code, 421, over.greeting.text);
      open.pop()!.close();
      // The server hears of the close a moment later: until then a newcomer may still be one too many.
      let again = await openSmtpDialog(receiver.port);
      for (let attempt = 1; again.greeting.code === 421 && attempt < 100; attempt++) {
        again.close();
        await new Promise((resolve) => setTimeout(resolve, 10));
        again = await openSmtpDialog(receiver.port);
      }
      open.push(again);
      assert.equal(again.greeting.code, 220, again.greeting.text);
    } finally {
      for (const dialog of open) dialog.close();
    }
  });
}, { email: testEmailConfig() });

for (const dialect of DIALECTS) {
  describe(`the SMTP receiver without its database [ext] [${dialect}]`, () => {
    it('answers 451 to a mail it cannot store, so the sender retries', async () => {
      const testApp = await openTestApp(await migratedDatabaseUrl(dialect), { email: testEmailConfig() });
      const fixture = await createWorkspaceFixture(testApp.services, testApp.client, 'Mail');
      const product = await createProduct(fixture.api);
      const errors: unknown[] = [];
      const receiver = await startSmtpReceiver({ inbound: testApp.services.inbound, host: '127.0.0.1', port: 0, maxBytes: MAX_BYTES, maxConnections: 1, onError: (error) => errors.push(error) });
      const dialog = await openSmtpDialog(receiver.port);
      try {
        assert.equal((await dialog.send('EHLO sender.example.com')).code, 250);
        assert.equal((await dialog.send('MAIL FROM:<ada@example.com>')).code, 250);
        assert.equal((await dialog.send(`RCPT TO:<${product.inbound_email}>`)).code, 250);
        await testApp.database.close();
        assert.equal((await dialog.send('DATA')).code, 354);
        const answer = await dialog.send(`${plainMail({ to: product.inbound_email, messageId: 'no-database@example.com' })}.`);
        assert.equal(answer.code, 451, answer.text);
        assert.equal(errors.length, 1);
      } finally {
        dialog.close();
        await receiver.close();
        await testApp.services.live.close();
        await testApp.app.close();
      }
    });
  });
}
