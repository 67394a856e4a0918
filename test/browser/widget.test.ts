// The widget in a real browser (platform.md §1, "The embeddable widget"): host pages on other
// origins than the server's embed it with the snippet. SQLite only: what the browser does is the
// same on either database, and the live channel's PostgreSQL path (LISTEN/NOTIFY) has its own
// tests on both.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, serveHostPage, withPage, type HostPage } from '../helpers/browser.js';
import { createProduct } from '../helpers/factories.js';
import { createTestContext, type TestContext } from '../helpers/harness.js';

describe('the widget in a browser', () => {
  let ctx: TestContext & { close(): Promise<void> };
  let browser: Browser;
  let base: string;
  const hostPages: HostPage[] = [];

  before(async () => {
    ctx = await createTestContext('sqlite');
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await Promise.all(hostPages.map((page) => page.close()));
    await ctx?.close();
  });

  async function hostPage(hostname: string, body: string): Promise<HostPage> {
    const page = await serveHostPage(hostname, body);
    hostPages.push(page);
    return page;
  }

  it('can be framed only by the pages product.domain allows', async (t) => {
    const product = await createProduct(ctx.a.api, { domain: 'localhost', widget_config: { proof_of_work: false } });
    const frame = `<iframe title="support" src="${base}/widget/frame/${product.widget_key}"></iframe>`;
    const allowed = await hostPage('localhost', frame);
    // Another origin: the same loopback listener under the server's own host name, another port.
    const refused = await hostPage('127.0.0.1', frame);
    await withPage(t, browser, async (page) => {
      await page.goto(allowed.url);
      await page.frameLocator('iframe').locator('#app').waitFor({ state: 'attached' });
    });
    await withPage(t, browser, async (page) => {
      const violations: string[] = [];
      page.on('console', (message) => void (message.text().includes('frame-ancestors') && violations.push(message.text())));
      await page.goto(refused.url);
      await page.waitForTimeout(500);
      assert.equal(await page.frameLocator('iframe').locator('#app').count(), 0, 'the frame did not load');
      assert.equal(violations.length, 1, 'Chromium reports the frame-ancestors violation');
    });
  });
});
