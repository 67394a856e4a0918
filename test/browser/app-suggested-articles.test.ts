// Suggested articles beside the reply box (docs/app.md, "Suggested articles"), in a real browser
// against a real server on each database: an article published, a conversation that asks what it
// answers shows it above the reply, its link goes into the reply from the keyboard (after what the
// agent typed) and is sent; a conversation nothing answers shows no suggestions; axe at 1280×800
// and 390×844. One server, one browser and one signed-in page per database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { acceptInvitation, closeAppPage, settled, signIn, startAppServer, type AppServer } from '../helpers/app-server.js';
import { appContext, assertAccessible, launchBrowser, withScreenshots } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

const EMAIL = 'katherine@example.com';
const PASSWORD = 'To reset your password, open Settings, then Security, and choose Reset password. The emailed link works for one hour.';

for (const dialect of DIALECTS) {
  describe(`suggested articles in the app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let asking: { id: string };
    let article: { id: string; title: string; slug: string };
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} suggested articles ${name}`, () => context?.pages() ?? [], body));
    const suggestions = (on: Page) => on.getByRole('region', { name: 'Suggested articles' });

    before(async () => {
      browser = await launchBrowser();
      app = await startAppServer(dialect);
      context = await appContext(browser, app.baseUrl);
      page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await acceptInvitation(page, app.ownerInvitationUrl, 'Katherine Johnson', EMAIL);
      const product = (await app.api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
      article = (await app.api('POST', '/api/v1/articles', { product_id: product.id, title: 'Reset your password', body: PASSWORD, status: 'published' })).data;
      asking = (await app.api('POST', '/api/v1/conversations', { product_id: product.id, title: 'Password', body: 'How do I reset my password? The link expired.' })).data;
      await app.api('POST', '/api/v1/conversations', { product_id: product.id, title: 'Invoice', body: 'Could you send last month\'s invoice again?' });
    });
    after(() => closeAppPage({ browser, app }));

    step('shows the article that answers the conversation, inserts its link from the keyboard, and sends it', async () => {
      await page.goto(`/app/inbox/${asking.id}`);
      const found = suggestions(page);
      await expect(found.getByRole('link', { name: 'Reset your password' }));
      assert.match((await found.getByRole('link', { name: 'Reset your password' }).getAttribute('href'))!, new RegExp(`/help/acme/articles/${article.slug}\\?locale=en$`));
      await assertAccessible(page, 'a conversation with suggested articles');
      const reply = page.getByRole('textbox', { name: 'Reply' });
      await reply.fill('Hi! This should help:');
      await found.getByRole('button', { name: 'Insert link to “Reset your password” into the reply' }).focus();
      await page.keyboard.press('Enter');
      const url = (await found.getByRole('link', { name: 'Reset your password' }).getAttribute('href'))!;
      const expected = `Hi! This should help: [Reset your password](${url})`;
      await eventually(async () => (await reply.inputValue()) === expected, 'the link after the text');
      await eventually(async () => page.evaluate(() => document.activeElement?.tagName === 'TEXTAREA'), 'back in the reply');
      await page.getByRole('button', { name: 'Send' }).click();
      await eventually(async () => {
        const messages = (await app.api('GET', `/api/v1/conversations/${asking.id}`)).data.messages as { body: string; sender_type: string }[];
        return messages.some((message) => message.sender_type === 'agent' && message.body === expected);
      }, 'the reply with the link sent');
      await eventually(async () => (await reply.inputValue()) === '', 'the box emptied');
    });

    step('inserts with a click into an empty reply; an internal note hides them', async () => {
      const reply = page.getByRole('textbox', { name: 'Reply' });
      await suggestions(page).getByRole('button', { name: /^Insert link to/ }).click();
      await eventually(async () => /^\[Reset your password\]\(http[^)]+\)$/.test(await reply.inputValue()), 'the link alone');
      await page.getByRole('radio', { name: 'Internal note' }).click();
      await expectGone(suggestions(page));
      await page.getByRole('radio', { name: 'Reply' }).click();
      await expect(suggestions(page));
    });

    step('shows none when no article answers the conversation', async () => {
      await page.goto('/app/inbox');
      await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /Invoice/ }).click();
      await expect(page.getByRole('textbox', { name: 'Reply' }));
      await settled(page);
      assert.equal(await suggestions(page).count(), 0);
    });

    it('passes axe at 390×844: a conversation with suggested articles', () =>
      withScreenshots(`${dialect} suggested articles phone`, () => context?.pages() ?? [], async () => {
        const phoneContext = await appContext(browser, app.baseUrl, 'phone');
        try {
          const phone = await phoneContext.newPage();
          phone.setDefaultTimeout(10_000);
          await signIn(phone, EMAIL);
          await phone.goto(`/app/inbox/${asking.id}`);
          await expect(suggestions(phone).getByRole('link', { name: 'Reset your password' }));
          await assertAccessible(phone, 'a conversation with suggested articles on a phone');
        } finally {
          await phoneContext.close();
        }
      }));
  });
}
