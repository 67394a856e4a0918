// Service levels in the app (docs/app.md, "Service levels"), in a real browser against a real server
// on each database: a calendar and an SLA policy made in Settings (the server's 400s shown on the
// fields they name; a calendar in use not deleted, with the server's message), policies moved and
// turned off; the time left on inbox rows and the "Due first" sort; a breach arriving live, which
// turns its row red, and the SLA in the details panel; axe at 1280×800 and 390×844. One server, one
// browser and one signed-in page per database; the phone's checks use a second page of it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { acceptInvitation, closeAppPage, settled, signIn, startAppServer, type AppServer } from '../helpers/app-server.js';
import { appContext, assertAccessible, launchBrowser, withScreenshots } from '../helpers/browser.js';
import { eventually, expect } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

const EMAIL = 'grace@example.com';

for (const dialect of DIALECTS) {
  describe(`service levels in the app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let product: { id: string };
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} service levels ${name}`, () => context?.pages() ?? [], body));

    const policies = async () => (await app.api('GET', '/api/v1/sla-policies')).data as { id: string; name: string; position: number; active: boolean }[];
    const conversation = async (title: string, extra: Record<string, unknown> = {}) =>
      (await app.api('POST', '/api/v1/conversations', { product_id: product.id, title, body: 'Something is wrong.', ...extra })).data as { id: string };
    const rows = () => page.getByRole('list', { name: 'Conversations' }).locator('li');
    const rowTitles = async () => (await rows().locator('.row-title').allTextContents()).map((title) => title.trim());
    const rowOf = (title: string) => rows().filter({ hasText: title });
    const filter = async (name: string, label: string) => {
      const button = page.getByRole('button', { name: /^Filters/ });
      if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
      await page.getByRole('group', { name: 'Filters' }).getByRole('combobox', { name }).selectOption({ label });
      await page.keyboard.press('Escape');
    };

    before(async () => {
      browser = await launchBrowser();
      app = await startAppServer(dialect);
      context = await appContext(browser, app.baseUrl);
      page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await acceptInvitation(page, app.ownerInvitationUrl, 'Grace Hopper', EMAIL);
      product = (await app.api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
    });
    after(() => closeAppPage({ browser, app }));

    step('creates a calendar in Settings: the server\'s errors on the zone and the day they name, then saved with a holiday', async () => {
      await page.goto('/app/settings/service-levels');
      await settled(page);
      await page.getByRole('button', { name: 'New calendar' }).click();
      const dialog = page.getByRole('dialog', { name: 'New calendar' });
      await dialog.getByLabel('Name').fill('Support hours');
      await dialog.getByLabel('Time zone').fill('Mars/Olympus');
      await dialog.getByLabel('Monday closes').fill('08:00');
      await dialog.getByRole('button', { name: 'Add hours on Saturday' }).click();
      await dialog.getByRole('button', { name: 'Add calendar' }).click();
      await expect(dialog.locator('.field-error').filter({ hasText: /Mars\/Olympus|time zone/i }));
      await expect(dialog.getByRole('group', { name: 'Monday' }).getByText('09:00–08:00 does not start before it ends'));
      await assertAccessible(page, 'the calendar form with the server\'s errors');

      await dialog.getByLabel('Time zone').fill('Europe/Berlin');
      await dialog.getByLabel('Monday closes').fill('17:00');
      await dialog.getByRole('button', { name: 'Remove Saturday 09:00–17:00' }).click();
      await dialog.getByRole('button', { name: 'Add hours on Friday' }).click();
      await dialog.getByLabel('Friday opens (2)').fill('18:00');
      await dialog.getByLabel('Holiday date').fill('2026-12-25');
      await dialog.getByRole('button', { name: 'Add holiday' }).click();
      await dialog.getByRole('button', { name: 'Add calendar' }).click();
      await expect(page.getByRole('cell', { name: 'Support hours' }));
      const [calendar] = (await app.api('GET', '/api/v1/calendars')).data;
      assert.deepEqual(
        { timezone: calendar.timezone, hours: calendar.hours, holidays: calendar.holidays },
        {
          timezone: 'Europe/Berlin', holidays: ['2026-12-25'],
          hours: { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], wed: [['09:00', '17:00']], thu: [['09:00', '17:00']], fri: [['09:00', '17:00'], ['18:00', '24:00']] },
        },
      );
      await expect(page.getByRole('cell', { name: 'Mon–Thu 09:00–17:00 · Fri 09:00–17:00, 18:00–24:00' }));
    });

    step('creates an SLA policy: conditions picked, targets typed as durations, measured in the calendar', async () => {
      await page.getByRole('button', { name: 'New SLA policy' }).click();
      const dialog = page.getByRole('dialog', { name: 'New SLA policy' });
      await dialog.getByLabel('Name').fill('Urgent tickets');
      await dialog.getByRole('group', { name: 'Priorities' }).getByLabel('Urgent').check();
      await dialog.getByRole('group', { name: 'Sources' }).getByLabel('Email').check();
      await dialog.getByLabel('Add a tag').fill('vip');
      await dialog.getByLabel('Add a tag').press('Enter');
      await dialog.getByLabel('First response').fill('1h 30m');
      await dialog.getByLabel('Next response').fill('soon');
      await dialog.getByLabel('Resolution').fill('2d');
      await dialog.getByLabel('Calendar').selectOption({ label: 'Support hours' });
      await dialog.getByRole('button', { name: 'Add SLA policy' }).click();
      await expect(dialog.getByText('Write it as 1h 30m, 2d or 45m'));
      await dialog.getByLabel('Next response').fill('');
      await dialog.getByRole('button', { name: 'Add SLA policy' }).click();
      await expect(page.getByRole('table', { name: 'SLA policies' }).getByText('Urgent tickets'));
      const [policy] = (await app.api('GET', '/api/v1/sla-policies')).data;
      const calendar = (await app.api('GET', '/api/v1/calendars')).data[0];
      assert.deepEqual(
        { conditions: policy.conditions, first: policy.first_response_seconds, next: policy.next_response_seconds, resolution: policy.resolution_seconds, calendar: policy.calendar_id },
        { conditions: { priorities: ['urgent'], sources: ['email'], tags: ['vip'] }, first: 5400, next: null, resolution: 172_800, calendar: calendar.id },
      );
      await expect(page.getByRole('cell', { name: 'First response 1h 30m · Resolution 2d' }));
    });

    step('moves a policy up, turns it off and on; a calendar in use is not deleted and the server says why', async () => {
      await app.api('POST', '/api/v1/sla-policies', { name: 'High priority', conditions: { priorities: ['high'] }, first_response_seconds: 600 });
      await app.api('POST', '/api/v1/sla-policies', { name: 'Everyone else', first_response_seconds: 3600 });
      await page.reload();
      await page.getByRole('button', { name: 'Move High priority up' }).click();
      await eventually(async () => (await policies()).map((p) => p.name).join() === 'High priority,Urgent tickets,Everyone else', 'moved up');
      await eventually(async () => (await page.locator('table[aria-label="SLA policies"] tbody strong').allTextContents()).join() === 'High priority,Urgent tickets,Everyone else', 'shown in the new order');
      await page.getByRole('button', { name: 'Turn off Urgent tickets' }).click();
      await eventually(async () => (await policies()).find((p) => p.name === 'Urgent tickets')!.active === false, 'turned off');
      await page.getByRole('button', { name: 'Turn on Urgent tickets' }).click();
      await eventually(async () => (await policies()).find((p) => p.name === 'Urgent tickets')!.active === true, 'turned on');

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete Support hours' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'calendar "Support hours" is used by the SLA policy "Urgent tickets"' }));
      assert.equal((await app.api('GET', '/api/v1/calendars')).data.length, 1);
      await assertAccessible(page, 'Settings → Service levels');
    });

    step('rows show the time left on the earliest running clock, and "Due first" orders by it', async () => {
      await conversation('Login broken', { priority: 'high' });
      await conversation('Printer question');
      await page.goto('/app/inbox');
      await eventually(async () => (await rowTitles()).join() === 'Printer question,Login broken', 'newest first');
      const shown = async (title: string) => (await rowOf(title).locator('.sla').textContent())!.trim();
      assert.match(await shown('Login broken'), /^SLA (9|10) min$/);
      assert.match(await shown('Printer question'), /^SLA (59 min|1 h)$/);
      await filter('Sort', 'Due first');
      await eventually(async () => (await rowTitles()).join() === 'Login broken,Printer question', 'due first');
      assert.equal(new URL(page.url()).searchParams.get('sort'), 'due');
      await assertAccessible(page, 'the inbox sorted by due time');
    });

    step('a breach arrives live: its row turns red, the SLA filter finds it, the details panel shows the SLA', async () => {
      await app.api('POST', '/api/v1/sla-policies', { name: 'Instant', position: 1, conditions: { tags: ['instant'] }, first_response_seconds: 3, resolution_seconds: 86_400 });
      const { id } = await conversation('Checkout fails');
      await app.api('PATCH', `/api/v1/conversations/${id}`, { tags: ['instant'] });
      const sla = rowOf('Checkout fails').locator('.sla');
      // data-breached comes only from the server's breaches: the list reloaded on the live event.
      await expect(rowOf('Checkout fails').locator('.sla[data-breached="true"]'));
      assert.equal(await sla.evaluate((element) => getComputedStyle(element).color), 'rgb(180, 35, 24)');
      assert.match((await sla.textContent())!, /overdue \d+ min/);

      await filter('SLA', 'SLA breached');
      await eventually(async () => (await rowTitles()).join() === 'Checkout fails', 'only the breached one');
      await rowOf('Checkout fails').getByRole('link').click();
      const details = page.getByRole('region', { name: 'Conversation details' });
      const panel = details.getByRole('group', { name: 'Service level' });
      await expect(panel.getByText('Instant'));
      await expect(panel.getByText(/^overdue \d+ min$/));
      await page.getByRole('textbox', { name: 'Reply' }).fill('Looking into it now.');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(panel.getByText('Missed'));
      await expect(panel.getByText(/^2\d h left$/));
      await assertAccessible(page, 'a conversation with its SLA');
    });

    it('passes axe at 390×844: the service-level settings, the calendar form, the inbox and a conversation', () =>
      withScreenshots(`${dialect} service levels phone`, () => context?.pages() ?? [], async () => {
        const phoneContext = await appContext(browser, app.baseUrl, 'phone');
        try {
          const phone = await phoneContext.newPage();
          phone.setDefaultTimeout(10_000);
          await signIn(phone, EMAIL);
          await phone.goto('/app/settings/service-levels');
          await expect(phone.getByRole('cell', { name: 'Support hours' }));
          await assertAccessible(phone, 'Settings → Service levels on a phone');
          await phone.getByRole('button', { name: 'Edit Support hours' }).click();
          await expect(phone.getByRole('dialog', { name: 'Edit calendar' }));
          await assertAccessible(phone, 'the calendar form on a phone');
          await phone.goto('/app/inbox');
          await expect(phone.getByRole('list', { name: 'Conversations' }).locator('.sla').first());
          await settled(phone);
          await assertAccessible(phone, 'the inbox on a phone');
          await phone.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /Checkout fails/ }).click();
          await expect(phone.getByRole('group', { name: 'Service level' }));
          await assertAccessible(phone, 'a conversation with its SLA on a phone');
        } finally {
          await phoneContext.close();
        }
      }));
  });
}
