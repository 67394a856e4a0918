// Collision in the app (docs/automation.md, "Collision"; docs/app.md), in a real browser against a
// real server on each database, with two members signed in on two pages: Linus sees that Grace is
// viewing the conversation, then typing, and no longer once she leaves; and when Grace's reply
// arrives after Linus opened the conversation, his Send asks first ("Send anyway").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { acceptInvitation, closeAppPage, openAppPage, settled, type AppServer } from '../helpers/app-server.js';
import { appContext, assertAccessible, withScreenshots } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

for (const dialect of DIALECTS) {
  describe(`presence and reply collision in the app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let grace: Page;
    let linusContext: BrowserContext;
    let linus: Page;
    let conversationId: string;
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} presence ${name}`, () => [grace, linus].filter(Boolean), body));
    const presenceOf = (page: Page) => page.locator('.presence-note[role="status"]');
    // A page whose team stream connected after a teammate's announcement hears it at the next
    // refresh (every 10 s): wait for two refreshes, not the default ten seconds.
    const PRESENCE_MS = 25_000;

    before(async () => {
      ({ browser, app, page: grace } = await openAppPage(dialect));
      const invitation = (await app.api('POST', '/api/v1/members/invitations', { email: 'linus@example.com', role: 'agent' })).data;
      linusContext = await appContext(browser, app.baseUrl);
      linus = await linusContext.newPage();
      linus.setDefaultTimeout(10_000);
      await acceptInvitation(linus, invitation.url, 'Linus Pauling');
      const product = (await app.api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
      conversationId = (await app.api('POST', '/api/v1/conversations', {
        product_id: product.id, title: 'Export crashes', body: 'The export crashes every time.', contact: { name: 'Ada Byron', email: 'ada@example.com' },
      })).data.id;
    });
    after(() => closeAppPage({ browser, app }));

    step('shows who else is viewing, then typing, and forgets them when they leave', async () => {
      await linus.goto(`/app/inbox/${conversationId}`);
      await settled(linus);
      await grace.goto(`/app/inbox/${conversationId}`);
      await settled(grace);
      await expect(presenceOf(linus).getByText('Grace Hopper is viewing', { exact: true }), PRESENCE_MS);
      // Nobody is told about themselves.
      await expect(presenceOf(grace).getByText('Linus Pauling is viewing', { exact: true }), PRESENCE_MS);
      assert.equal(await presenceOf(linus).getByText(/Linus/).count(), 0);
      await grace.getByLabel('Reply', { exact: true }).fill('Looking into it');
      await expect(presenceOf(linus).getByText('Grace Hopper is typing…', { exact: true }), PRESENCE_MS);
      await assertAccessible(linus, 'a conversation where a teammate is typing');
      await grace.getByRole('link', { name: 'Issues' }).click();
      await expectGone(presenceOf(linus).getByText(/Grace Hopper/), PRESENCE_MS);
    });

    step('warns before a reply that would cross a teammate\'s, and sends it anyway when asked', async () => {
      await linus.reload();
      await settled(linus);
      await grace.goto(`/app/inbox/${conversationId}`);
      await settled(grace);
      await grace.getByLabel('Reply', { exact: true }).fill('Fixed in 2.4.1, please update.');
      await grace.getByRole('button', { name: 'Send' }).click();
      await expect(linus.getByText('Fixed in 2.4.1, please update.'));

      await linus.getByLabel('Reply', { exact: true }).fill('Could you send us the file?');
      await linus.getByRole('button', { name: 'Send' }).click();
      const warning = linus.getByRole('alert').filter({ hasText: 'Grace Hopper replied after you opened this conversation.' });
      await expect(warning);
      // Not sent yet; the choice has the focus.
      assert.equal(await linus.getByText('Could you send us the file?', { exact: true }).count(), 0);
      await eventually(async () => (await linus.evaluate(() => document.activeElement?.textContent?.trim())) === 'Send anyway', 'focus on Send anyway');
      await assertAccessible(linus, 'the warning before a crossing reply');
      await warning.getByRole('button', { name: 'Send anyway' }).click();
      await expect(linus.locator('.thread li', { hasText: 'Could you send us the file?' }));
      await expectGone(warning);
      const messages = (await app.api('GET', `/api/v1/conversations/${conversationId}`)).data.messages.map((m: { body: string }) => m.body);
      assert.deepEqual(messages.slice(-2), ['Fixed in 2.4.1, please update.', 'Could you send us the file?']);

      // Once answered, the next reply goes without a question.
      await linus.getByLabel('Reply', { exact: true }).fill('Thanks!');
      await linus.getByRole('button', { name: 'Send' }).click();
      await expect(linus.locator('.thread li', { hasText: 'Thanks!' }));
      assert.equal(await linus.getByRole('alert').filter({ hasText: 'replied after you opened' }).count(), 0);
    });
  });
}
