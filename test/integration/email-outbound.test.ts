// Replies by mail (docs/email.md), received by a real SMTP server in the test process: an agent's
// reply in an email conversation goes out once with the thread's headers and Reply-To its reply
// address; the customer's answers to it (an Outlook reply to that address, a Gmail reply naming its
// Message-ID) join the conversation; a refused attempt is retried; a delivery report that comes
// back to the reply's own return path (and only there) marks the reply failed with the reason.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import { startSmtpReceiver as startInboundReceiver } from '../../src/smtp/smtp-receiver.js';
import { DIALECTS } from '../helpers/databases.js';
import { deliveryReport, INBOUND_DOMAIN, mailSample, plainMail, postMail, testEmailConfig } from '../helpers/email.js';
import { eventually } from '../helpers/events.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { createTestContext, type Client, type TestContext } from '../helpers/harness.js';
import { newPerson } from '../helpers/sessions.js';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver.js';

const FROM = 'Acme Support <support@acme.test>';
const IGNORED = { conversation_id: null, message_id: null, created: false };

const conversationOf = async (api: Client, id: string) => (await api.get(`/api/v1/conversations/${id}`)).body.data;
const messageIn = async (api: Client, conversationId: string, messageId: string) =>
  (await conversationOf(api, conversationId)).messages.find((message: any) => message.id === messageId);
const deliveryOf = (api: Client, conversationId: string, messageId: string, status: string) =>
  eventually(async () => (await messageIn(api, conversationId, messageId)).delivery, (delivery) => delivery.status === status, `delivery ${status}`, 10_000);

for (const dialect of DIALECTS) {
  describe(`replies by mail [${dialect}]`, () => {
    let smtp: SmtpReceiver;
    let context: TestContext & { close(): Promise<void> };
    let api: Client;
    /** A conversation started by the multipart/alternative sample, and the product it came to. */
    let product: any;
    let conversationId: string;

    before(async () => {
      smtp = await startSmtpReceiver();
      context = await createTestContext(dialect, {
        email: testEmailConfig(), mail: { smtpUrl: smtp.url, from: FROM, timeoutMs: 2_000 }, webhooks: { pollIntervalMs: 20, retryScheduleMs: [50, 100] },
      });
      context.services.webhookDispatcher.start();
      api = context.a.api;
      product = await createProduct(api);
      conversationId = (await postMail(api, mailSample('multipart-alternative'), product.id)).body.data.conversation_id;
    });
    after(async () => {
      await context?.close();
      await smtp?.close();
    });

    /** The mail of the reply whose text holds `text`, as the SMTP server accepted it. */
    const sentWith = (text: string) => smtp.accepted.find((received) => received.mail.text?.includes(text))!;

    /** Runs `body` with the built-in SMTP receiver listening and a client that sends raw mail to one recipient (the accepted recipients). */
    async function throughReceiver(body: (send: (to: string, raw: Buffer) => Promise<unknown[]>) => Promise<void>) {
      const errors: unknown[] = [];
      const receiver = await startInboundReceiver({ inbound: context.services.inbound, host: '127.0.0.1', port: 0, maxBytes: 1024 * 1024, onError: (error) => errors.push(error) });
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: receiver.port, secure: false, ignoreTLS: true });
      try {
        await body(async (to, raw) => (await transport.sendMail({ envelope: { from: 'mailer-daemon@mx.example.net', to: [to] }, raw })).accepted);
      } finally {
        transport.close();
        await receiver.close();
      }
      assert.deepEqual(errors, []);
    }

    it('mails an agent\'s reply once, threaded, with Reply-To the conversation\'s reply address, and marks it sent', async () => {
      const posted = await api.post(`/api/v1/conversations/${conversationId}/messages`, { body: 'Could you try clearing your cache?' });
      assert.equal(posted.status, 201);
      assert.deepEqual(posted.body.data.delivery, { status: 'pending', error: null });
      assert.deepEqual(await deliveryOf(api, conversationId, posted.body.data.id, 'sent'), { status: 'sent', error: null });

      await smtp.waitUntil((receiver) => receiver.accepted.length >= 1, 'the reply');
      assert.equal(smtp.accepted.length, 1);
      const [{ recipients, mail }] = smtp.accepted;
      assert.deepEqual(recipients, ['ada@example.com']);
      assert.deepEqual(mail.from?.value, [{ name: `${context.a.owner.display_name} at ${product.name}`, address: 'support@acme.test' }]);
      assert.equal(mail.subject, 'Re: Export button does nothing');
      assert.match(mail.text!, /^Could you try clearing your cache\?\n\nOn \w{3}, \d{1,2} \w{3} \d{4} at \d{2}:\d{2} UTC, Ada Lovelace wrote:\n> /);
      assert.equal(mail.messageId, `<${posted.body.data.id}@acme.test>`);
      assert.equal(mail.inReplyTo, '<CAF1x7q0alt@mail.example.com>');
      assert.equal(mail.references, '<CAF1x7q0alt@mail.example.com>');
      const replyTo = mail.replyTo!.value[0].address!;
      assert.match(replyTo, new RegExp(`^${product.inbound_email.split('@')[0]}\\+[a-z0-9]{24}@${INBOUND_DOMAIN.replace(/\./g, '\\.')}$`));

      // A Gmail reply names the reply's Message-ID; an Outlook reply only goes to the reply address.
      const gmail = await postMail(api, mailSample('gmail-reply', { REPLY_TO: replyTo, IN_REPLY_TO: mail.messageId!, REFERENCES: mail.messageId! }), product.id);
      assert.deepEqual([gmail.body.data.conversation_id, gmail.body.data.created], [conversationId, false]);
      await api.patch(`/api/v1/conversations/${conversationId}`, { status: 'dismissed' });
      const outlook = await postMail(api, mailSample('outlook-reply', { REPLY_TO: replyTo }));
      assert.deepEqual([outlook.body.data.conversation_id, outlook.body.data.created], [conversationId, false]);
      const data = await conversationOf(api, conversationId);
      assert.equal(data.status, 'open');
      assert.deepEqual(data.messages.map((message: any) => message.sender_type), ['contact', 'agent', 'contact', 'contact']);
      assert.equal(data.messages[3].body, 'It is still blank. Screenshot attached.\n\nGrace Hopper\nGrace & Co.');
      assert.equal(smtp.accepted.length, 1, 'sent once');
    });

    it('mails a reply from the agent at the product, with their signature, as text and HTML alternatives, the contact\'s last message quoted, nothing anyone wrote as markup', async () => {
      const agent = await newPerson(context, context.a);
      const signature = 'Grace <b>Hopper</b>\nSupport, Acme';
      assert.equal((await agent.app.patch('/api/v1/me', { signature, time_zone: 'Asia/Tokyo' })).status, 200);
      const address = `grace-${process.pid}-${Date.now()}@example.com`;
      const asked = 'Hi,\n<img src=x onerror="alert(1)"> & <a href="https://evil.example">click</a>\nThanks';
      const started = (await postMail(api, plainMail({ from: `Grace Customer <${address}>`, messageId: `html-${process.pid}-${Date.now()}@example.com`, body: asked }), product.id)).body.data.conversation_id;
      const body = 'Hi **Grace**,\nplease try <script>alert(1)</script> and [this](javascript:alert(1)).';
      const posted = (await agent.app.post(`/api/v1/conversations/${started}/messages`, { body })).body.data;
      await deliveryOf(api, started, posted.id, 'sent');
      const { mail } = smtp.accepted.find((received) => received.recipients.includes(address))!;

      assert.deepEqual(mail.from?.value, [{ name: `${agent.member.display_name} at ${product.name}`, address: 'support@acme.test' }]);
      assert.match(String(mail.headers.get('content-type') && (mail.headers.get('content-type') as any).value), /^multipart\/alternative$/);
      const attribution = /On \w{3}, \d{1,2} \w{3} \d{4} at \d{2}:\d{2} GMT\+9, Grace Customer wrote:/;
      const [reply, quote] = mail.text!.split(attribution);
      assert.equal(reply, `${body}\n\n-- \n${signature}\n\n`, 'the reply as written, then the signature after "-- "');
      assert.equal(quote, `\n> Hi,\n> <img src=x onerror="alert(1)"> & <a href="https://evil.example">click</a>\n> Thanks`);

      const html = mail.html as string;
      const tags = new Set([...html.matchAll(/<\/?([a-z0-9]+)/gi)].map((match) => match[1].toLowerCase()));
      assert.deepEqual([...tags].filter((tag) => !['html', 'head', 'meta', 'body', 'div', 'p', 'br', 'strong', 'blockquote'].includes(tag)), [], html);
      assert.doesNotMatch(html, /href="javascript|<[^>]*\son\w+=|<script|<img|<b>|href="https:\/\/evil/i, 'no script, handler, image or foreign link');
      assert.match(html, /<p>Hi <strong>Grace<\/strong>,<br>\s*please try &lt;script&gt;alert\(1\)&lt;\/script&gt; and \[this\]\(javascript:alert\(1\)\)\.<\/p>/);
      assert.match(html, /<div class="signature"[^>]*>-- <br>\s*Grace &lt;b&gt;Hopper&lt;\/b&gt;<br>\s*Support, Acme<\/div>/);
      assert.match(html, /<p>On [^<]+ GMT\+9, Grace Customer wrote:<\/p>\s*<blockquote[^>]*>Hi,<br>\s*&lt;img src=x onerror=&quot;alert\(1\)&quot;&gt; &amp; &lt;a href=&quot;https:\/\/evil.example&quot;&gt;click&lt;\/a&gt;<br>\s*Thanks<\/blockquote>/);
    });

    it('mails a reply of a key without a member from the product alone, without a signature', async () => {
      const address = `memberless-${process.pid}-${Date.now()}@example.com`;
      const started = (await postMail(api, plainMail({ from: `Lin <${address}>`, messageId: `memberless-${process.pid}-${Date.now()}@example.com` }), product.id)).body.data.conversation_id;
      const posted = (await context.client(context.a.memberlessKey).post(`/api/v1/conversations/${started}/messages`, { body: 'From the team.' })).body.data;
      await deliveryOf(api, started, posted.id, 'sent');
      const { mail } = smtp.accepted.find((received) => received.recipients.includes(address))!;
      assert.deepEqual(mail.from?.value, [{ name: product.name, address: 'support@acme.test' }]);
      assert.match(mail.text!, /^From the team\.\n\nOn .+, Lin wrote:\n> Hello there\.$/);
    });

    it('addresses the reply to the contact\'s name on one line, whatever line breaks and bidi overrides the sender\'s display name held', async () => {
      const dirty = Buffer.from(' \u202eAda\r\n\tLovelace\u0085 ').toString('base64');
      const address = `ada-${process.pid}-${Date.now()}@example.com`;
      const raw = plainMail({ from: `=?UTF-8?B?${dirty}?= <${address}>`, messageId: `one-line-${process.pid}-${Date.now()}@example.com` });
      const started = (await postMail(api, raw, product.id)).body.data.conversation_id;
      const posted = (await api.post(`/api/v1/conversations/${started}/messages`, { body: 'On it.' })).body.data;
      await deliveryOf(api, started, posted.id, 'sent');
      const sent = smtp.accepted.find((received) => received.recipients.includes(address))!;
      assert.deepEqual(sent.mail.to && !Array.isArray(sent.mail.to) && sent.mail.to.value, [{ name: 'Ada Lovelace', address }]);
    });

    it('retries a reply the SMTP server refused until it is accepted', async () => {
      let refused = false;
      smtp.answer(() => (refused ? { accept: true } : ((refused = true), { refuse: 451 })));
      const before = smtp.accepted.length;
      const posted = (await api.post(`/api/v1/conversations/${conversationId}/messages`, { body: 'Second try.' })).body.data;
      await deliveryOf(api, conversationId, posted.id, 'sent');
      assert.equal(smtp.accepted.length, before + 1);
      assert.equal(smtp.attempts.filter((attempt) => attempt.mail.text?.includes('Second try.')).length, 2);
      smtp.answer(() => ({ accept: true }));
    });

    it('sends each reply from a return path of its own, and marks it failed with the reason when a delivery report comes back there', async () => {
      const posted = (await api.post(`/api/v1/conversations/${conversationId}/messages`, { body: 'This will bounce.' })).body.data;
      await deliveryOf(api, conversationId, posted.id, 'sent');
      const returnPath = sentWith('This will bounce.').returnPath!;
      assert.match(returnPath, new RegExp(`^bounces\\+[a-z0-9]{24}@${INBOUND_DOMAIN.replace(/\./g, '\\.')}$`));
      assert.notEqual(sentWith('Could you try clearing your cache?').returnPath, returnPath, 'each reply has its own');
      const bounce = await postMail(api, mailSample('postfix-bounce', { TO: returnPath, BOUNCED: `<${posted.id}@acme.test>` }));
      assert.deepEqual(bounce.body.data, IGNORED);
      const message = await messageIn(api, conversationId, posted.id);
      assert.deepEqual(message.delivery, {
        status: 'failed', error: '550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in virtual mailbox table',
      });
      assert.equal((await conversationOf(api, conversationId)).messages.length, 6, 'the report is no message');
    });

    it('ignores a delivery report that does not come back to the reply\'s return path, whatever Message-ID it names', async () => {
      const posted = (await api.post(`/api/v1/conversations/${conversationId}/messages`, { body: 'This one arrived.' })).body.data;
      await deliveryOf(api, conversationId, posted.id, 'sent');
      const forged = (to: string) => mailSample('postfix-bounce', { TO: to, BOUNCED: `<${posted.id}@acme.test>` });
      assert.deepEqual((await postMail(api, forged('support@acme.test'), product.id)).body.data, IGNORED);
      assert.deepEqual((await postMail(api, forged(product.inbound_email))).body.data, IGNORED);
      assert.deepEqual((await postMail(api, forged(`bounces+${'a'.repeat(24)}@${INBOUND_DOMAIN}`), product.id)).body.data, IGNORED);
      await throughReceiver(async (send) => assert.deepEqual(await send(product.inbound_email, forged(product.inbound_email)), [product.inbound_email]));
      assert.deepEqual((await messageIn(api, conversationId, posted.id)).delivery, { status: 'sent', error: null });
    });

    it('takes reports at a return path through the SMTP receiver, keeping the reason one plain line of at most 300 characters; refuses unknown return paths and ignores other mail there', async () => {
      const posted = (await api.post(`/api/v1/conversations/${conversationId}/messages`, { body: 'Bounce me through SMTP.' })).body.data;
      await deliveryOf(api, conversationId, posted.id, 'sent');
      const returnPath = sentWith('Bounce me through SMTP.').returnPath!;
      const before = (await conversationOf(api, conversationId)).messages.length;
      const conversations = (await api.get(`/api/v1/conversations?product_id=${product.id}&limit=100`)).body.pagination.total;
      await throughReceiver(async (send) => {
        const unknown = await send(`bounces+${'b'.repeat(24)}@${INBOUND_DOMAIN}`, plainMail({ messageId: `unknown-${posted.id}@example.com` })).catch((error) => error);
        assert.equal(unknown.responseCode, 550, String(unknown));
        // Not a report: neither a new conversation nor a failure.
        await send(returnPath, plainMail({ to: returnPath, messageId: `plain-${posted.id}@example.com`, headers: { 'In-Reply-To': `<${posted.id}@acme.test>` } }));
        assert.deepEqual((await messageIn(api, conversationId, posted.id)).delivery, { status: 'sent', error: null });
        const diagnostic = `550 \u202eCall +1 555 0100 to restore your account\u0007\u0085 ${'x'.repeat(400)}`;
        await send(returnPath, deliveryReport({ to: returnPath, diagnostic, messageId: `report-${posted.id}@mx.example.net` }));
      });
      const { delivery } = await messageIn(api, conversationId, posted.id);
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.error, `550 Call +1 555 0100 to restore your account ${'x'.repeat(400)}`.slice(0, 300));
      assert.equal((await conversationOf(api, conversationId)).messages.length, before);
      assert.equal((await api.get(`/api/v1/conversations?product_id=${product.id}&limit=100`)).body.pagination.total, conversations);
    });

    it('never mails an internal note, and mails a saved reply with its placeholders filled', async () => {
      const before = smtp.attempts.length;
      const note = (await api.post(`/api/v1/conversations/${conversationId}/notes`, { body: 'Customer is on the legacy plan.' })).body.data;
      assert.equal(note.delivery, null);
      const saved = (await api.post('/api/v1/saved-replies', { title: 'Thanks', body: 'Thanks {{contact.first_name}}, we are on it.' })).body.data;
      const posted = (await api.post(`/api/v1/conversations/${conversationId}/messages`, { saved_reply_id: saved.id })).body.data;
      await deliveryOf(api, conversationId, posted.id, 'sent');
      const sent = smtp.attempts.slice(before);
      assert.equal(sent.length, 1);
      assert.ok(sent[0].mail.text?.startsWith(`${posted.body}\n\nOn `), sent[0].mail.text);
      assert.doesNotMatch(posted.body, /\{\{/);
    });

    it('mails nothing for replies in conversations that did not come by mail', async () => {
      const before = smtp.attempts.length;
      const chat = await importConversation(api, product.id, { contact: { email: 'chat@example.com' } });
      const posted = (await api.post(`/api/v1/conversations/${chat.id}/messages`, { body: 'Hi from chat' })).body.data;
      assert.equal(posted.delivery, null);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(smtp.attempts.length, before);
    });
  });

  describe(`replies by mail with LOOPDESK_MAIL_RETURN_PATH=from [${dialect}]`, () => {
    let smtp: SmtpReceiver;
    let context: TestContext & { close(): Promise<void> };

    before(async () => {
      smtp = await startSmtpReceiver();
      context = await createTestContext(dialect, {
        email: testEmailConfig({ returnPath: 'from' }), mail: { smtpUrl: smtp.url, from: FROM, timeoutMs: 2_000 }, webhooks: { pollIntervalMs: 20, retryScheduleMs: [50, 100] },
      });
      context.services.webhookDispatcher.start();
    });
    after(async () => {
      await context?.close();
      await smtp?.close();
    });

    it('sends replies with the From address as the envelope sender', async () => {
      const api = context.a.api;
      const product = await createProduct(api);
      const conversationId = (await postMail(api, mailSample('multipart-alternative'), product.id)).body.data.conversation_id;
      const posted = (await api.post(`/api/v1/conversations/${conversationId}/messages`, { body: 'From the From address.' })).body.data;
      await deliveryOf(api, conversationId, posted.id, 'sent');
      assert.deepEqual(smtp.accepted.map((received) => received.returnPath), ['support@acme.test']);
    });
  });
}
