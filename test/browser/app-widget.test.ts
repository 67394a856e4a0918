// The team app with the widget API (docs/accounts.md, docs/widget.md): the product's settings show the
// server's embed snippet and create an identity secret shown once; a visitor signed in with it
// writes through /widget/v1 and the inbox shows the new conversation, its Verified contact and the
// visitor's next message live, without a reload.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeAppPage, openAppPage, type AppServer } from '../helpers/app-server.js';
import { assertAccessible, withScreenshots } from '../helpers/browser.js';
import { expect } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';
import { signIdentity } from '../helpers/widget.js';

for (const dialect of DIALECTS) {
  describe(`the team app with the widget [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let product: { id: string; widget_key: string; embed_snippet: string };
    let secret: string;
    let visitorToken: string;
    let conversationId: string;
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`widget ${dialect} ${name}`, () => context?.pages() ?? [], body));

    /** A visitor's request to the product's widget API; the answer's `data`. */
    async function widget(method: string, path: string, body: unknown, token?: string): Promise<any> {
      const response = await fetch(`${app.baseUrl}/widget/v1/${product.widget_key}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      assert.equal(response.status, 201, `${method} ${path}: ${text}`);
      return JSON.parse(text).data;
    }

    before(async () => {
      ({ browser, app, context, page } = await openAppPage(dialect));
      product = (await app.api('POST', '/api/v1/products', { name: 'Acme Mobile App', widget_config: { proof_of_work: false } })).data;
    });
    after(() => closeAppPage({ browser, app }));

    step('shows the server\'s embed snippet and an identity secret once, after a confirmation', async () => {
      await page.goto(`/app/settings/products/${product.id}`);
      await expect(page.getByRole('heading', { name: 'Identity secret' }));
      assert.equal(await page.getByLabel('Embed snippet', { exact: true }).textContent(), product.embed_snippet);
      let confirmation = '';
      page.once('dialog', (dialog) => { confirmation = dialog.message(); void dialog.accept(); });
      await page.getByRole('button', { name: 'Create or rotate secret' }).click();
      const shown = page.getByLabel('New identity secret', { exact: true });
      await expect(shown);
      assert.match(confirmation, /verified widget sessions/);
      secret = (await shown.textContent())!;
      assert.match(secret, /^ids_[0-9A-Za-z]{40}$/);
      await page.getByText('How to sign a visitor').click();
      assert.match((await page.getByLabel('Signing example', { exact: true }).textContent())!, new RegExp(`aud: '${product.widget_key}'`));
      await assertAccessible(page, 'the product settings with a new identity secret');
      // Shown once: after a reload the page has no secret, only the button to make another.
      await page.reload();
      await expect(page.getByRole('button', { name: 'Create or rotate secret' }));
      assert.equal(await page.getByLabel('New identity secret', { exact: true }).count(), 0);
    });

    step('a signed-in visitor\'s new widget conversation appears in the inbox, Verified, without a reload', async () => {
      await page.getByRole('link', { name: 'Inbox' }).click();
      await expect(page.getByText('All caught up'));
      await expect(page.getByText('Live', { exact: true }));
      const identity_token = await signIdentity(secret, { sub: 'user-7', aud: product.widget_key, name: 'Ana Lima', email: 'ana@example.com' });
      const session = await widget('POST', '/sessions', { identity_token });
      assert.equal(session.contact.verified, true);
      visitorToken = session.token;
      conversationId = (await widget('POST', '/conversations', { body: 'The app logs me out every hour.' }, visitorToken)).id;
      const row = page.getByRole('link', { name: /The app logs me out every hour/ });
      await expect(row);
      await expect(row.getByText('Verified'));
      await row.click();
      await expect(page.getByRole('list', { name: 'Messages' }).getByText('The app logs me out every hour.'));
      await expect(page.locator('.conversation-meta').getByText('Verified', { exact: true }));
      // What happened: a chat, never "Chat via chat".
      await expect(page.locator('.conversation-meta').getByText(/· Chat ·/));
      assert.doesNotMatch(await page.locator('.conversation-meta').innerText(), /via/);
      await assertAccessible(page, 'a widget conversation with a verified contact');
    });

    step('the visitor\'s next message appears in the open conversation without a reload', async () => {
      await widget('POST', `/conversations/${conversationId}/messages`, { body: 'It happens on Wi-Fi and on 5G.' }, visitorToken);
      await expect(page.getByRole('list', { name: 'Messages' }).getByText('It happens on Wi-Fi and on 5G.'));
      assert.match(page.url(), new RegExp(`/app/inbox/${conversationId}$`));
    });

    step('an anonymous visitor\'s conversation joins the list while another is open, without the Verified badge', async () => {
      const anonymous = await widget('POST', '/sessions', { name: 'Bo' });
      assert.equal(anonymous.contact.verified, false);
      await widget('POST', '/conversations', { body: 'Where is the dark mode switch?' }, anonymous.token);
      const row = page.getByRole('link', { name: /Where is the dark mode switch/ });
      await expect(row);
      assert.equal(await row.getByText('Verified').count(), 0);
      await expect(page.getByRole('list', { name: 'Messages' }).getByText('It happens on Wi-Fi and on 5G.'));
    });
  });
}
