// The Reports screen (docs/app.md, "Reports") in a real browser against a real server on each
// database: a few conversations answered, resolved and rated through the API; the headline figures
// as /reports/summary gives them for the window the screen asks for (read from its CSV link); a
// filter that changes the URL, the figures and the CSV link; a reload that keeps them; an empty
// window that says "No data"; axe at 1280×800 and 390×844. One server and one browser per database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { countText, shareText, spanText } from '../../web/app/src/screens/reports/report-format.js';
import { acceptInvitation, closeAppPage, signIn, startAppServer, type AppServer } from '../helpers/app-server.js';
import { appContext, assertAccessible, launchBrowser, withScreenshots } from '../helpers/browser.js';
import { eventually, expect } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

const EMAIL = 'grace@example.com';
const TIME_ZONE = 'America/New_York';

for (const dialect of DIALECTS) {
  describe(`reports in the app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} reports ${name}`, () => context?.pages() ?? [], body));

    /** A visitor's request to the product's widget API; the answer's `data`. */
    const widget = async (widgetKey: string, method: string, path: string, body: unknown, token?: string) => {
      const response = await fetch(`${app.baseUrl}/widget/v1/${widgetKey}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      assert.ok(response.ok, `${method} ${path}: ${text}`);
      return JSON.parse(text).data;
    };
    /** The figure a card shows, by its title. */
    const figure = (title: string) => page.getByRole('region', { name: title, exact: true });
    const value = async (title: string) => (await figure(title).locator('.report-value').textContent())!.trim();
    const csvLink = () => page.getByRole('link', { name: 'Download CSV' });
    /** The query the screen sends (its CSV link carries the same), and the summary the API gives for it. */
    const shownQuery = async () => new URL((await csvLink().getAttribute('href'))!, app.baseUrl).searchParams;
    const summaryFor = async (query: URLSearchParams) => (await app.api('GET', `/api/v1/reports/summary?${query}`)).data;

    /** The screen's figures read as the summary API gives them for the screen's own query. */
    async function assertFiguresMatchSummary(): Promise<any> {
      const summary = await summaryFor(await shownQuery());
      const want = {
        created: countText(summary.conversations_created),
        resolved: countText(summary.conversations_resolved),
        first: spanText(summary.first_response.median_seconds),
        resolution: spanText(summary.resolution.median_seconds),
        csat: shareText(summary.csat.score),
        sla: shareText(summary.sla.hit_rate),
      };
      await eventually(async () => (await value('Conversations created')) === want.created, `${want.created} created`);
      assert.deepEqual({
        created: await value('Conversations created'),
        resolved: await value('Conversations resolved'),
        first: await value('First response'),
        resolution: await value('Resolution'),
        csat: await value('CSAT'),
        sla: await value('SLA hit rate'),
      }, want);
      assert.match((await figure('First response').locator('.report-detail').textContent())!, new RegExp(`p90 ${spanText(summary.first_response.p90_seconds)}`));
      assert.doesNotMatch((await page.locator('main').textContent())!, /NaN|undefined/);
      return summary;
    }

    before(async () => {
      browser = await launchBrowser();
      app = await startAppServer(dialect);
      context = await appContext(browser, app.baseUrl, 'desktop', { timezoneId: TIME_ZONE });
      page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await acceptInvitation(page, app.ownerInvitationUrl, 'Grace Hopper', EMAIL);
      const product = (await app.api('POST', '/api/v1/products', { name: 'Acme', triage: 'off', widget_config: { proof_of_work: false } })).data;
      // Three conversations from visitors: two answered, resolved and rated (one tagged vip), one waiting.
      for (const [question, rating, tags] of [['Login broken', 5, ['vip']], ['Export fails', 2, []], ['Dark mode?', null, []]] as const) {
        const { token } = await widget(product.widget_key, 'POST', '/sessions', {});
        const { id } = await widget(product.widget_key, 'POST', '/conversations', { body: question }, token);
        if (tags.length) await app.api('PATCH', `/api/v1/conversations/${id}`, { tags });
        if (rating === null) continue;
        await app.api('POST', `/api/v1/conversations/${id}/messages`, { body: 'Here is how.' });
        await app.api('PATCH', `/api/v1/conversations/${id}`, { status: 'resolved' });
        await widget(product.widget_key, 'PUT', `/conversations/${id}/rating`, { rating }, token);
      }
    });
    after(() => closeAppPage({ browser, app }));

    step('shows the last 7 days\' figures as the summary API gives them, charts with their figures, the members\' table', async () => {
      await page.getByRole('link', { name: 'Reports' }).click();
      await expect(figure('Conversations created').locator('.report-value'));
      const summary = await assertFiguresMatchSummary();
      assert.equal(summary.conversations_created, 3);
      assert.equal(summary.csat.responses, 2);
      assert.equal(await value('CSAT'), '50%');
      assert.equal(await value('SLA hit rate'), 'No data', 'no SLA policy: no hit rate, not 0%');
      // The window: 7 whole days in the browser's time zone, by day.
      const query = await shownQuery();
      assert.equal((Date.parse(query.get('to')!) - Date.parse(query.get('from')!)) / 3_600_000, 7 * 24);
      assert.equal(new Date(query.get('to')!).toLocaleTimeString('en-GB', { timeZone: TIME_ZONE }), '00:00:00');
      await expect(page.getByText(TIME_ZONE));
      // Each chart is an image named by what it shows, with its figures in a table.
      assert.match((await figure('Conversations created').getByRole('img').getAttribute('aria-label'))!, /^Conversations created by day, 7 days: highest 3 /);
      await figure('Conversations created').getByText('Conversations created by day').click();
      const rows = figure('Conversations created').getByRole('region', { name: 'Conversations created by day, every day' }).locator('tbody tr');
      assert.equal(await rows.count(), 7);
      assert.equal(await rows.last().locator('td').last().textContent(), '3');
      const grace = page.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Grace Hopper/ });
      await expect(grace);
      await assertAccessible(page, 'Reports');
    });

    step('a filter changes the URL, the figures and the CSV link; a reload keeps them', async () => {
      await page.getByLabel('Tag', { exact: true }).fill('vip');
      await page.getByLabel('Tag', { exact: true }).press('Enter');
      await eventually(async () => new URL(page.url()).searchParams.get('tag') === 'vip', 'the tag in the URL');
      await eventually(async () => (await value('Conversations created')) === '1', 'one vip conversation');
      assert.equal((await shownQuery()).get('tag'), 'vip');
      await assertFiguresMatchSummary();
      assert.equal(await value('CSAT'), '100%');

      await page.getByLabel('Assignee', { exact: true }).selectOption({ label: 'Unassigned' });
      await page.getByLabel('Window', { exact: true }).selectOption({ label: 'Last 30 days' });
      await eventually(async () => new URL(page.url()).searchParams.get('range') === '30d', 'the window in the URL');
      const url = new URL(page.url());
      assert.deepEqual({ tag: url.searchParams.get('tag'), assignee: url.searchParams.get('assignee_id') }, { tag: 'vip', assignee: 'none' });
      const query = await shownQuery();
      assert.deepEqual({ tag: query.get('tag'), assignee: query.get('assignee_id') }, { tag: 'vip', assignee: 'none' });
      assert.equal((Date.parse(query.get('to')!) - Date.parse(query.get('from')!)) / 86_400_000, 30);
      await assertFiguresMatchSummary();

      await page.reload();
      await expect(figure('Conversations created').locator('.report-value'));
      assert.equal(await page.getByLabel('Tag', { exact: true }).inputValue(), 'vip');
      assert.equal(await page.getByLabel('Window', { exact: true }).inputValue(), '30d');
      await assertFiguresMatchSummary();

      // The CSV is the same query's conversations, downloaded with the session.
      const csv = await page.request.get((await csvLink().getAttribute('href'))!);
      assert.equal(csv.status(), 200);
      assert.match(csv.headers()['content-type'], /^text\/csv/);
      const lines = (await csv.text()).trim().split('\r\n');
      assert.equal(lines.length, 2, 'the header and the one vip conversation');
      assert.match(lines[1], /,vip,/);
    });

    step('a custom window with nothing in it says "No data", by the hour for a day', async () => {
      await page.getByLabel('Window', { exact: true }).selectOption({ label: 'Custom dates' });
      await expect(page.getByLabel('From', { exact: true }));
      await page.getByLabel('From', { exact: true }).fill('2020-01-06');
      await page.getByLabel('To', { exact: true }).fill('2020-01-06');
      await eventually(async () => new URL(page.url()).searchParams.get('to') === '2020-01-06' && new URL(page.url()).searchParams.get('from') === '2020-01-06', 'the dates in the URL');
      await eventually(async () => (await value('Conversations created')) === '0', 'an empty window');
      for (const title of ['First response', 'Resolution', 'CSAT', 'SLA hit rate']) assert.equal(await value(title), 'No data', title);
      assert.match((await figure('First response').getByRole('img').getAttribute('aria-label'))!, /^First response by hour: no data in this window\.$/);
      assert.doesNotMatch((await page.locator('main').textContent())!, /NaN|undefined/);
      const query = await shownQuery();
      assert.deepEqual([query.get('from'), query.get('to')], ['2020-01-06T05:00:00Z', '2020-01-07T05:00:00Z']);
      await assertAccessible(page, 'Reports of an empty window');
    });

    it('passes axe at 390×844', () =>
      withScreenshots(`${dialect} reports phone`, () => context?.pages() ?? [], async () => {
        const phoneContext = await appContext(browser, app.baseUrl, 'phone', { timezoneId: TIME_ZONE });
        try {
          const phone = await phoneContext.newPage();
          phone.setDefaultTimeout(10_000);
          await signIn(phone, EMAIL);
          await phone.goto('/app/reports?range=30d');
          await expect(phone.getByRole('region', { name: 'First response', exact: true }).getByRole('img'));
          await assertAccessible(phone, 'Reports on a phone');
        } finally {
          await phoneContext.close();
        }
      }));
  });
}
