// The public help center in a real browser (docs/help-center.md, "The public pages"): an article
// and the search page at a desktop and a phone width, axe-clean, with the page's own CSP in force
// (nothing bypassed: the page must style itself by its hash alone), no script and nothing blocked.
// SQLite only: the pages are the same HTML on either database (the integration tests run both).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { VIEWPORTS, assertAccessible, launchBrowser, type ViewportName } from '../helpers/browser.js';
import { createProduct } from '../helpers/factories.js';
import { createTestContext, type TestContext } from '../helpers/harness.js';

const BODY = [
  '## Before you start', '', 'You need the **email address** of your account. See [our status page](https://status.example.com).', '',
  '1. Open *Settings*', '2. Choose **Reset password**', '', '```', 'curl https://api.example.com/reset', '```', '',
  '> The link works for one hour.', '', '<script>window.pwned = true</script> <img src=x onerror="window.pwned = true">',
  '[click](javascript:window.pwned=true)',
].join('\n');

describe('the public help center in a browser', () => {
  let ctx: TestContext & { close(): Promise<void> };
  let browser: Browser;
  let base: string;
  let article: { slug: string };
  let helpSlug: string;

  before(async () => {
    ctx = await createTestContext('sqlite');
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const product = await createProduct(ctx.a.api, { name: 'Acme Mobile', widget_config: { color: '#f5c542' } });
    helpSlug = product.help_slug;
    const collection = (await ctx.a.api.post('/api/v1/collections', { product_id: product.id, name: 'Your account' })).body.data;
    const original = await ctx.a.api.post('/api/v1/articles', { product_id: product.id, collection_id: collection.id, title: 'Reset your password', body: BODY, status: 'published' });
    assert.equal(original.status, 201, original.text);
    article = original.body.data;
    await ctx.a.api.post('/api/v1/articles', {
      product_id: product.id, collection_id: collection.id, title: 'Passwort zurücksetzen', body: 'Öffnen Sie die **Einstellungen**.', locale: 'de',
      translation_of: original.body.data.id, status: 'published',
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await ctx?.close();
  });

  /** A page at `viewport`, its CSP in force, collecting what the browser reports blocked or failing. */
  async function open(viewport: ViewportName, path: string): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: VIEWPORTS[viewport], reducedMotion: 'reduce' });
    const page = await context.newPage();
    const problems: string[] = [];
    // A CSP violation is reported on the console; the browser's own favicon request is no part of the page.
    page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) problems.push(message.text()); });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) problems.push(`${response.status()} ${response.url()}`);
    });
    const res = await page.goto(`${base}${path}`);
    assert.equal(res?.status(), 200, path);
    return { page, problems };
  }

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`shows an article, styled and axe-clean, with nothing run (${VIEWPORTS[viewport].width}×${VIEWPORTS[viewport].height})`, async () => {
      const { page, problems } = await open(viewport, `/help/${helpSlug}/articles/${article.slug}`);
      assert.equal(await page.locator('h1').innerText(), 'Reset your password');
      assert.equal(await page.getByRole('heading', { name: 'Before you start' }).evaluate((h) => h.tagName), 'H2');
      assert.equal(await page.getByRole('searchbox', { name: 'Search the help center' }).count(), 1);
      assert.equal(await page.getByRole('link', { name: 'Deutsch' }).getAttribute('hreflang'), 'de');
      // The stylesheet applied (allowed by its hash): the header carries the product's colour.
      assert.equal(await page.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(245, 197, 66)');
      assert.equal(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned), undefined);
      assert.equal(await page.locator('script, iframe, [onerror], a[href^="javascript:"]').count(), 0);
      assert.deepEqual(problems, []);
      const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(pageWidth <= VIEWPORTS[viewport].width, `no horizontal scrolling (${pageWidth}px)`);
      await assertAccessible(page, `an article at ${viewport}`);
      await page.context().close();
    });

    it(`searches from the form without JavaScript, axe-clean (${VIEWPORTS[viewport].width}×${VIEWPORTS[viewport].height})`, async () => {
      const { page, problems } = await open(viewport, `/help/${helpSlug}`);
      await page.getByRole('searchbox', { name: 'Search the help center' }).fill('passwort');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/search\?q=passwort/);
      assert.equal(await page.locator('h1').innerText(), 'Results for “passwort”');
      assert.equal(await page.getByRole('link', { name: 'Passwort zurücksetzen' }).count(), 1);
      assert.deepEqual(problems, []);
      await assertAccessible(page, `the search page at ${viewport}`);
      await page.context().close();
    });
  }
});
