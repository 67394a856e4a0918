// The help center in a real browser, on each database (docs/help-center.md, "In the widget" and
// "In the app"): a visitor finds an article in the widget (suggested, searched, and matching the
// message being typed), opens it (a view counted once per session) and votes; a member writes an
// article in the app, previews it (raw HTML stays text), publishes it and translates it beside its
// original. axe finds nothing serious at 1280×800 and 390×844.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { acceptInvitation, signIn, startAppServer, type AppServer } from '../helpers/app-server.js';
import { assertAccessible, launchBrowser, serveHostPage, VIEWPORTS, withScreenshots, type HostPage, type ViewportName } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

for (const dialect of DIALECTS) {
  describe(`the help center in a browser [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let host: HostPage;
    let product: { id: string; widget_key: string };
    const contexts: BrowserContext[] = [];

    before(async () => {
      browser = await launchBrowser();
      app = await startAppServer(dialect);
      product = (await app.api('POST', '/api/v1/products', { name: 'Acme', domain: 'localhost', widget_config: { proof_of_work: false } })).data;
      host = await serveHostPage('localhost', `<h1>Acme</h1><script src="${app.baseUrl}/widget.js" data-widget-key="${product.widget_key}" async></script>`);
    });
    after(async () => {
      await browser?.close();
      await host?.close();
      app?.server.kill('SIGTERM');
      await app?.server.process.exited;
    });

    async function newPage(viewport: ViewportName, appPage = false): Promise<Page> {
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport], reducedMotion: 'reduce', ...(appPage && { baseURL: app.baseUrl, bypassCSP: true }) });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    }
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} help center ${name}`, () => contexts.flatMap((context) => context.pages()), body));
    const article = async (id: string) => (await app.api('GET', `/api/v1/articles/${id}`)).data;

    async function openWidget(page: Page): Promise<FrameLocator> {
      await page.goto(host.url);
      await page.getByRole('button', { name: 'Open support' }).click();
      const frame = page.frameLocator('iframe[title="Support"]');
      await expect(frame.getByRole('textbox', { name: 'Message' }));
      return frame;
    }
    const widgetFrame = (page: Page) => page.frames().find((candidate) => candidate.url().includes('/widget/frame/'))!;

    step('the widget suggests, finds and opens an article, counts the view once and takes a vote', async () => {
      const reset = (await app.api('POST', '/api/v1/articles', {
        product_id: product.id, status: 'published', title: 'Reset your password', body: '## Steps\n\nOpen **Settings**, then *Security*.\n\n<script>window.ran = true</script>',
      })).data;
      await app.api('POST', '/api/v1/articles', { product_id: product.id, status: 'published', title: 'Download invoices', body: 'Invoices are under Billing.' });
      await app.api('POST', '/api/v1/articles', { product_id: product.id, title: 'Secret draft', body: 'Not yet.' });

      for (const viewport of ['desktop', 'phone'] as const) {
        const page = await newPage(viewport);
        const frame = await openWidget(page);
        const suggested = frame.getByRole('region', { name: 'Suggested articles' });
        await expect(suggested.getByRole('button', { name: /Reset your password/ }));
        await expect(suggested.getByRole('button', { name: /Download invoices/ }));
        assert.equal(await frame.getByText('Secret draft').count(), 0);
        await assertAccessible(widgetFrame(page), `the widget with suggested articles (${viewport})`);

        await frame.getByRole('textbox', { name: 'Message' }).fill('I cannot remember my password');
        await expect(frame.getByRole('region', { name: 'Articles that may answer this' }).getByRole('button', { name: /Reset your password/ }));
        await eventually(async () => (await frame.getByRole('region', { name: 'Articles that may answer this' }).getByRole('button').count()) === 1, 'only the matching article');
        await frame.getByRole('searchbox', { name: 'Search help articles' }).fill('invoices');
        await expect(frame.getByRole('region', { name: 'Articles found' }).getByRole('button', { name: /Download invoices/ }));
        await frame.getByRole('searchbox', { name: 'Search help articles' }).fill('');

        await frame.getByRole('button', { name: /Reset your password/ }).click();
        await expect(frame.getByRole('heading', { name: 'Reset your password' }));
        await expect(frame.getByRole('heading', { name: 'Steps' }));
        await expect(frame.getByText('<script>window.ran = true</script>'));
        assert.equal(await widgetFrame(page).evaluate(() => (window as unknown as { ran?: boolean }).ran ?? false), false, 'the script never ran');
        await assertAccessible(widgetFrame(page), `the widget's article view (${viewport})`);
        await frame.getByRole('button', { name: 'Yes' }).click();
        await expect(frame.getByText('Thanks for your answer.'));
        await frame.getByRole('button', { name: '← Back' }).click();
        await frame.getByRole('button', { name: /Reset your password/ }).first().click();
        assert.equal(await frame.getByRole('button', { name: 'Yes' }).getAttribute('aria-pressed'), 'true', 'the vote is remembered');
        await frame.getByRole('button', { name: 'No' }).click();
        await eventually(async () => (await frame.getByRole('button', { name: 'No' }).getAttribute('aria-pressed')) === 'true', 'the vote changed');
      }
      // Two visitors (one per browser profile), each opening it twice: two views; each changed their vote to no.
      await eventually(async () => {
        const { views, helpful, not_helpful } = await article(reset.id);
        return views === 2 && helpful === 0 && not_helpful === 2;
      }, 'two views and two votes, both changed to no');
    });

    step('the app writes, previews, publishes and translates an article, with its views and helpful rate', async () => {
      const page = await newPage('desktop', true);
      await acceptInvitation(page, app.ownerInvitationUrl, 'Grace Hopper', 'grace@example.com');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help center' }).click();
      await expect(page.getByRole('heading', { name: 'Help center', level: 1 }));
      await page.getByRole('button', { name: 'New article' }).click();
      await page.getByRole('textbox', { name: 'Title' }).fill('Export your data');
      await page.getByRole('textbox', { name: 'Body' }).fill('## How\n\nOpen **Settings**.\n\n<img src=x onerror="window.ran = true">');
      const preview = page.getByRole('region', { name: 'Preview' });
      await expect(preview.getByRole('heading', { name: 'How' }));
      await expect(preview.getByText('<img src=x onerror="window.ran = true">'));
      assert.equal(await preview.locator('img').count(), 0, 'raw HTML is text');
      await assertAccessible(page, 'the article editor');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(page.getByText(/^Draft · en · 0 views/));
      const id = /\/help-center\/articles\/([0-9a-f-]{36})/.exec(page.url())![1];
      assert.equal((await article(id)).status, 'draft');
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByText(/^Published · en/));
      assert.equal((await article(id)).status, 'published');
      assert.equal(await page.evaluate(() => (window as unknown as { ran?: boolean }).ran ?? false), false);

      await page.getByRole('textbox', { name: 'Translate into' }).fill('de');
      await page.getByRole('button', { name: 'Add translation' }).click();
      await expect(page.getByText(/^Draft · de/));
      const original = page.getByRole('region', { name: 'Original' });
      await expect(original.getByRole('heading', { name: 'How' }));
      await page.getByRole('textbox', { name: 'Title' }).fill('Daten exportieren');
      await page.getByRole('textbox', { name: 'Body' }).fill('## Wie\n\nÖffnen Sie **Einstellungen**.');
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByText(/^Published · de/));
      const translationId = /\/help-center\/articles\/([0-9a-f-]{36})/.exec(page.url())![1];
      const translation = await article(translationId);
      assert.deepEqual([translation.translation_of, translation.locale, translation.title, translation.status], [id, 'de', 'Daten exportieren', 'published']);
      await expect(page.getByRole('region', { name: 'Translations' }).getByRole('link', { name: 'en: Export your data' }));
      await assertAccessible(page, 'a translation beside its original');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help center' }).click();
      const row = page.getByRole('row', { name: /Export your data/ });
      await expect(row);
      await expect(row.getByRole('cell', { name: '—' }));
      await page.getByRole('combobox', { name: 'Status' }).selectOption('draft');
      await expect(page.getByRole('row', { name: /Secret draft/ }));
      await expectGone(page.getByRole('row', { name: /Export your data/ }));
      await assertAccessible(page, 'the article list');
    });

    step('the app\'s help center at 390×844: collections made and reordered, the editor stacked', async () => {
      const page = await newPage('phone', true);
      await signIn(page, 'grace@example.com');
      await page.goto('/app/help-center/collections');
      for (const name of ['Billing', 'Account']) {
        await page.getByRole('textbox', { name: 'New collection' }).fill(name);
        await page.getByRole('button', { name: 'Create' }).click();
        await expect(page.getByRole('list', { name: 'Collections' }).getByText(name, { exact: true }));
      }
      await page.getByRole('button', { name: 'Move Account up' }).click();
      await eventually(async () => (await page.getByRole('list', { name: 'Collections' }).locator('strong').allTextContents()).join() === 'Account,Billing', 'Account first');
      const listed = (await app.api('GET', `/api/v1/collections?product_id=${product.id}`)).data.map((c: { name: string }) => c.name);
      assert.deepEqual(listed, ['Account', 'Billing']);
      await assertAccessible(page, 'the collections at 390 px');
      await page.goto('/app/help-center/articles/new');
      await expect(page.getByRole('textbox', { name: 'Body' }));
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the screen');
      await assertAccessible(page, 'the article editor at 390 px');
    });
  });
}
