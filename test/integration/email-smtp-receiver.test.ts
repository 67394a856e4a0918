// The built-in SMTP receiver (docs/email.md) with a real SMTP client (nodemailer): mail for a
// product's inbound address becomes its conversation, other recipients are refused at RCPT TO with
// a 5xx, a message over the size limit is refused, and connections over the cap are turned away (421).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import nodemailer, { type Transporter } from 'nodemailer';
import { startSmtpReceiver, type SmtpReceiver } from '../../src/smtp/smtp-receiver.js';
import { mailSample, testEmailConfig, INBOUND_DOMAIN } from '../helpers/email.js';
import { createProduct } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';
import { openSmtpDialog } from '../helpers/smtp-client.js';

const MAX_BYTES = 64 * 1024;
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
