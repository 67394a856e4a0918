// Snooze in the app (docs/app.md, "Snooze"), in a real browser against a real server on each
// database: Z snoozes the open conversation until tomorrow 9:00 on the member's wall clock (their
// time zone from GET /me, set here by PATCH /me to one that is neither the machine's nor the
// browser's; the browser's when they have none); the open views leave it out and the Snoozed view
// lists it with when it wakes; the snooze menu's other choices, and waking it now.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { acceptInvitation, closeAppPage, settled, startAppServer, type AppServer } from '../helpers/app-server.js';
import { assertAccessible, launchBrowser, VIEWPORTS, withScreenshots } from '../helpers/browser.js';
import { eventually, expect } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

/** The member's zone: far from the machine's (UTC on CI) and from the browser's. */
const MEMBER_ZONE = 'Pacific/Auckland';
const BROWSER_ZONE = 'America/Los_Angeles';

/** The instant of 9:00 on the day after today, on the wall clock of `zone`, as the API writes instants. */
function tomorrowNineIn(zone: string): string {
  const date = Temporal.Now.plainDateISO(zone).add({ days: 1 });
  return date.toZonedDateTime({ timeZone: zone, plainTime: { hour: 9 } }).toInstant().toString({ fractionalSecondDigits: 3 });
}

/** The coming Monday's 9:00 (a week ahead on a Monday) in `zone`. */
function nextMondayNineIn(zone: string): string {
  const today = Temporal.Now.plainDateISO(zone);
  return today.add({ days: 8 - today.dayOfWeek }).toZonedDateTime({ timeZone: zone, plainTime: { hour: 9 } }).toInstant().toString({ fractionalSecondDigits: 3 });
}

for (const dialect of DIALECTS) {
  describe(`snooze in the app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let product: { id: string };
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} snooze ${name}`, () => context?.pages() ?? [], body));

    const conversation = async (title: string) =>
      (await app.api('POST', '/api/v1/conversations', { product_id: product.id, title, body: 'Hello, something is wrong.' })).data as { id: string };
    const snoozedUntil = async (id: string): Promise<string | null> => (await app.api('GET', `/api/v1/conversations/${id}`)).data.snoozed_until;
    const list = () => page.getByRole('list', { name: 'Conversations' });
    const rows = async () => (await list().locator('.row-title').allTextContents()).map((title) => title.trim());
    /** What the snooze menu shows while nothing is picked: "Not snoozed" or until when. */
    const shownSnooze = () => page.getByRole('combobox', { name: 'Snooze', exact: true }).evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text ?? '');
    const view = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name });
    /** Opens the conversation and presses Z, away from any field. */
    const pressZ = async (id: string, title: string) => {
      await page.goto(`/app/inbox/${id}`);
      await expect(page.getByRole('heading', { name: title }));
      await settled(page);
      await page.getByRole('heading', { name: title }).click();
      await page.keyboard.press('z');
    };

    before(async () => {
      browser = await launchBrowser();
      app = await startAppServer(dialect);
      context = await browser.newContext({ baseURL: app.baseUrl, viewport: VIEWPORTS.desktop, bypassCSP: true, reducedMotion: 'reduce', timezoneId: BROWSER_ZONE });
      page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await acceptInvitation(page, app.ownerInvitationUrl, 'Grace Hopper', 'grace@example.com');
      product = (await app.api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
    });
    after(() => closeAppPage({ browser, app }));

    step('Z snoozes until tomorrow 9:00 in the member\'s time zone; the open views leave it out, the Snoozed view lists it with when it wakes', async () => {
      assert.equal((await app.api('PATCH', '/api/v1/me', { time_zone: MEMBER_ZONE })).data.member.time_zone, MEMBER_ZONE);
      const sleepy = await conversation('Snooze me: invoice question');
      await conversation('Stays open: login loops');
      const expected = [tomorrowNineIn(MEMBER_ZONE)];
      await pressZ(sleepy.id, 'Snooze me: invoice question');
      await eventually(async () => (await snoozedUntil(sleepy.id)) !== null, 'snoozed by Z');
      // Around midnight in Auckland "tomorrow" may have moved on between the two readings.
      expected.push(tomorrowNineIn(MEMBER_ZONE));
      assert.ok(expected.includes((await snoozedUntil(sleepy.id))!), `${await snoozedUntil(sleepy.id)} is one of ${expected.join(', ')}`);
      assert.notEqual(tomorrowNineIn(BROWSER_ZONE), expected[0], 'the browser\'s zone would give another instant');
      await eventually(async () => /^Until .*09:00$/.test(await shownSnooze()), 'the menu says until when');

      await eventually(async () => !(await rows()).includes('Snooze me: invoice question'), 'gone from the open view (live)');
      assert.ok((await rows()).includes('Stays open: login loops'));
      await view('Snoozed').click();
      await eventually(async () => JSON.stringify(await rows()) === JSON.stringify(['Snooze me: invoice question']), 'only the snoozed one');
      await expect(list().locator('li', { hasText: 'Snooze me: invoice question' }).getByText(/^wakes .*09:00$/));
      await assertAccessible(page, 'the Snoozed view and a snoozed conversation');
    });

    step('the snooze menu: next week, then wake now, which brings it back to the open views', async () => {
      const id = (await app.api('GET', '/api/v1/conversations?snoozed=true')).data[0].id as string;
      await page.goto(`/app/inbox/${id}?view=snoozed`);
      await expect(page.getByRole('heading', { name: 'Snooze me: invoice question' }));
      const before = await snoozedUntil(id);
      const expected = [nextMondayNineIn(MEMBER_ZONE)];
      await page.getByRole('combobox', { name: 'Snooze', exact: true }).selectOption({ label: 'Next week (Monday 9:00)' });
      await eventually(async () => (await snoozedUntil(id)) !== before, 'snoozed to next week');
      expected.push(nextMondayNineIn(MEMBER_ZONE));
      assert.ok(expected.includes((await snoozedUntil(id))!), `${await snoozedUntil(id)} is one of ${expected.join(', ')}`);

      await page.getByRole('combobox', { name: 'Snooze', exact: true }).selectOption({ label: 'Wake now' });
      await eventually(async () => (await snoozedUntil(id)) === null, 'woken');
      await eventually(async () => (await shownSnooze()) === 'Not snoozed', 'the menu says so');
      await expect(page.getByText('No conversation matches these filters.'));
      await view('All').click();
      await eventually(async () => (await rows()).includes('Snooze me: invoice question'), 'back in the open view');
    });

    step('without a time zone of their own, tomorrow 9:00 is on the browser\'s wall clock', async () => {
      await app.api('PATCH', '/api/v1/me', { time_zone: null });
      const other = await conversation('Snooze me too: refunds');
      const expected = [tomorrowNineIn(BROWSER_ZONE)];
      await pressZ(other.id, 'Snooze me too: refunds');
      await eventually(async () => (await snoozedUntil(other.id)) !== null, 'snoozed by Z');
      expected.push(tomorrowNineIn(BROWSER_ZONE));
      assert.ok(expected.includes((await snoozedUntil(other.id))!), `${await snoozedUntil(other.id)} is one of ${expected.join(', ')}`);
    });
  });
}
