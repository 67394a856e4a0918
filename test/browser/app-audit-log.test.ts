// Settings → Audit log in a real browser: newest first, filters, "Load more", the CSV download of
// what the filters select; no serious or critical axe-core violation at 1280×800 and 390×844.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { closeAppPage, openAppPage, settled, type AppPage } from '../helpers/app-server.js';
import { appContext, assertAccessible, withScreenshots } from '../helpers/browser.js';
import { expect } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

for (const dialect of DIALECTS) {
  describe(`Settings → Audit log [${dialect}]`, () => {
    let opened: AppPage;
    const contexts: BrowserContext[] = [];
    const pages = () => [opened.page, ...contexts.flatMap((context) => context.pages())];

    before(async () => {
      opened = await openAppPage(dialect, { env: { LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: '1' } });
      // More entries than one page: keys made and revoked by the first start's key, and a webhook changed.
      for (let i = 0; i < 30; i++) {
        const key = (await opened.app.api('POST', '/api/v1/api-keys', { label: `Script ${i}` })).data;
        await opened.app.api('DELETE', `/api/v1/api-keys/${key.id}`);
      }
      const hook = (await opened.app.api('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['*'] })).data;
      await opened.app.api('PATCH', `/api/v1/webhooks/${hook.id}`, { description: 'CRM sync' });
    });
    after(async () => {
      await closeAppPage(opened);
    });

    it('lists the newest first, loads more, filters, and downloads the CSV of the filters', () => withScreenshots(`${dialect} audit log`, pages, async () => {
      const { page } = opened;
      await page.goto('/app/settings');
      await page.getByRole('link', { name: 'Audit log' }).click();
      await expect(page.getByRole('heading', { name: 'Audit log' }));
      const rows = page.locator('tbody tr');
      await expect(rows.first().getByText('webhook.updated'));
      await expect(rows.first().getByText('CRM sync'));
      assert.equal(await rows.count(), 50);
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect(page.getByText(/^\d+ of \d+$/));
      await expect(rows.nth(50));
      assert.ok((await rows.count()) > 50);

      await page.getByLabel('Action').selectOption('api_key.revoked');
      await expect(page.getByRole('status').getByText('30 of 30'));
      assert.equal(await rows.count(), 30);
      assert.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0);
      const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
      assert.match(href!, /^\/api\/v1\/audit-log\.csv\?action=api_key\.revoked$/);
      const csv = await page.request.get(href!);
      assert.equal(csv.status(), 200);
      assert.match(csv.headers()['content-type'], /^text\/csv/);
      assert.equal((await csv.text()).split('\r\n').filter((line) => line.includes('api_key.revoked')).length, 30);

      await page.getByLabel('Record').selectOption('webhook');
      await expect(page.getByText('Nothing matches these filters.'));
    }));

    for (const viewport of ['desktop', 'phone'] as const) {
      it(`passes axe at ${viewport} size`, () => withScreenshots(`${dialect} audit log ${viewport}`, pages, async () => {
        const context = await appContext(opened.browser, opened.app.baseUrl, viewport, { storageState: await opened.context.storageState() });
        contexts.push(context);
        const page: Page = await context.newPage();
        await page.goto('/app/settings/audit-log');
        await settled(page);
        await expect(page.locator('tbody tr').first());
        await assertAccessible(page, `audit log (${viewport})`);
      }));
    }
  });
}
