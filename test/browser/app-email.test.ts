// Email conversations in the app (docs/email.md, docs/app.md), in a real browser against a real
// server on each database, with a real SMTP server in the test process for the replies: a mail
// with a screenshot and a PDF becomes a conversation marked as email, the screenshot shown as a
// thumbnail (downloaded with the session) and the PDF as a link; the reply box says the reply will
// be emailed, and the reply shows how its delivery stands; the product's settings show the inbound
// address and how to forward mail to it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeAppPage, openAppPage, settled, type AppServer } from '../helpers/app-server.js';
import { assertAccessible, withScreenshots } from '../helpers/browser.js';
import { eventually, expect } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';
import { INBOUND_DOMAIN } from '../helpers/email.js';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

for (const dialect of DIALECTS) {
  describe(`email conversations in the app [${dialect}]`, () => {
    let smtp: SmtpReceiver;
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let product: { id: string; inbound_email: string | null };
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} email ${name}`, () => context?.pages() ?? [], body));

    before(async () => {
      smtp = await startSmtpReceiver();
      ({ browser, app, context, page } = await openAppPage(dialect, {
        // Two quick retries: a refused reply fails within a second.
        env: { LOOPDESK_INBOUND_DOMAIN: INBOUND_DOMAIN, LOOPDESK_SMTP_URL: smtp.url, LOOPDESK_MAIL_FROM: 'Acme Support <support@acme.test>', LOOPDESK_WEBHOOK_RETRY_SCHEDULE_MS: '100,200' },
      }));
      product = (await app.api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
    });
    after(async () => {
      await closeAppPage({ browser, app });
      await smtp?.close();
    });

    step('shows a mail as an email conversation with its attachments, and a reply with its delivery', async () => {
      const raw = await new MailComposer({
        from: 'Ada Lovelace <ada@example.com>', to: product.inbound_email!, subject: 'The export page is blank', messageId: `<blank-${dialect}@example.com>`,
        text: 'Hello, the export page is blank since this morning. Screenshot and log attached.',
        attachments: [
          { filename: 'blank-page.png', content: PNG, contentType: 'image/png' },
          { filename: 'export-log.pdf', content: Buffer.from('%PDF-1.4 a log'), contentType: 'application/pdf' },
        ],
      }).compile().build();
      const response = await fetch(`${app.baseUrl}/api/v1/inbound/email`, {
        method: 'POST', headers: { authorization: `Bearer ${app.key}`, 'content-type': 'message/rfc822' }, body: new Uint8Array(raw),
      });
      assert.equal(response.status, 202, await response.clone().text());
      const { conversation_id: id } = (await response.json()).data;

      await page.goto(`/app/inbox/${id}`);
      // What happened, never "Ticket via email".
      await expect(page.locator('.conversation-meta').getByText(/· Email ·/));
      assert.doesNotMatch(await page.locator('.conversation-meta').innerText(), /via|Ticket/);
      const thread = page.getByRole('list', { name: 'Messages' });
      const thumbnail = thread.getByRole('img', { name: 'blank-page.png' });
      await expect(thumbnail);
      // The image came through GET /attachments/{id} with the session: it decoded.
      await eventually(async () => (await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)) === 1, 'the thumbnail loaded');
      await expect(thread.getByRole('link', { name: /export-log\.pdf/ }));
      await expect(page.getByText('Your reply will be emailed to ada@example.com', { exact: false }));
      await assertAccessible(page, 'an email conversation');

      await page.getByLabel('Reply', { exact: true }).fill('Thanks Ada, we are looking at it.');
      await page.getByRole('button', { name: 'Send' }).click();
      const reply = thread.locator('li', { hasText: 'Thanks Ada, we are looking at it.' });
      await expect(reply.getByText(/Sending by email…|Sent by email/));
      await smtp.waitUntil((receiver) => receiver.accepted.length >= 1, 'the reply by mail');
      assert.deepEqual(smtp.accepted[0]!.recipients, ['ada@example.com']);
      await eventually(async () => {
        await page.reload();
        await settled(page);
        return (await reply.getByText('Sent by email').count()) === 1;
      }, 'the reply marked sent');
    });

    step('shows a reply that could not be delivered, with the reason', async () => {
      smtp.answer(() => ({ refuse: 550 }));
      try {
        const id = (await app.api('GET', `/api/v1/conversations?product_id=${product.id}`)).data[0].id;
        const posted = (await app.api('POST', `/api/v1/conversations/${id}/messages`, { body: 'A reply that bounces.' })).data;
        await eventually(async () => {
          const message = (await app.api('GET', `/api/v1/conversations/${id}`)).data.messages.find((m: { id: string }) => m.id === posted.id);
          return message.delivery.status === 'failed';
        }, 'the reply failed');
        await page.goto(`/app/inbox/${id}`);
        const failed = page.getByRole('list', { name: 'Messages' }).locator('li', { hasText: 'A reply that bounces.' });
        await expect(failed.getByRole('alert').getByText(/^Not delivered/));
        await assertAccessible(page, 'a reply not delivered');
      } finally {
        smtp.answer(() => ({ accept: true }));
      }
    });

    step('shows the product\'s inbound address and how to forward mail to it', async () => {
      await page.goto(`/app/settings/products/${product.id}`);
      const email = page.getByRole('region', { name: 'Email' });
      await expect(email.getByText(product.inbound_email!));
      assert.match(product.inbound_email!, new RegExp(`@${INBOUND_DOMAIN.replace(/\./g, '\\.')}$`));
      await expect(email.getByText(/forward its mail to the inbound address/));
      await assertAccessible(page, 'a product\'s email settings');
    });
  });
}
