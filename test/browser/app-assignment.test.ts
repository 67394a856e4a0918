// Assignment in the app (docs/app.md, "Availability and assignment"), in a real browser against a
// real server on each database: the availability switch beside the member's name sets PATCH /me; a
// product's assignment settings (mode, capacity, members; the server's 400 under the field it
// names) hand two new conversations to two members in turn; a macro built with the member picker's
// "Round robin" assigns from the product's list; axe-clean at 1280×800 and 390×844.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { acceptInvitation, closeAppPage, openAppPage, settled, signIn, type AppPage } from '../helpers/app-server.js';
import { appContext, assertAccessible, withScreenshots } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

const ROUND_ROBIN = 'Round robin (the product\'s assignment)';

for (const dialect of DIALECTS) {
  describe(`availability and assignment in the app [${dialect}]`, () => {
    let opened: AppPage;
    let page: Page;
    let product: { id: string };
    let grace: string;
    let ada: string;
    const contexts: BrowserContext[] = [];
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} assignment ${name}`, () => [page, ...contexts.flatMap((context) => context.pages())], body));

    const api = (method: string, path: string, body?: unknown) => opened.app.api(method, path, body);
    const conversation = async (productId: string, title: string) =>
      (await api('POST', '/api/v1/conversations', { product_id: productId, title, type: 'ticket', body: 'Hello, something is wrong.' })).data as { id: string };
    const assigneeOf = async (id: string) => (await api('GET', `/api/v1/conversations/${id}`)).data.assignee_id as string | null;
    const availability = async () => (await api('GET', '/api/v1/me')).data.member.availability as string;

    before(async () => {
      opened = await openAppPage(dialect);
      page = opened.page;
      product = (await api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
      grace = (await api('GET', '/api/v1/me')).data.member.id;
      const context = await appContext(opened.browser, opened.app.baseUrl);
      contexts.push(context);
      const invitation = await api('POST', '/api/v1/members/invitations', { email: 'ada@example.com', role: 'agent' });
      await acceptInvitation(await context.newPage(), invitation.data.url, 'Ada Lovelace');
      ada = (await api('GET', '/api/v1/members')).data.find((member: { display_name: string }) => member.display_name === 'Ada Lovelace').id;
    });
    after(async () => {
      for (const context of contexts) await context.close();
      await closeAppPage(opened);
    });

    step('the switch beside the member\'s name sets and shows their availability', async () => {
      await page.goto('/app/inbox');
      await settled(page);
      const online = page.getByRole('switch', { name: 'Online' });
      assert.equal(await online.getAttribute('aria-checked'), 'true');
      await expect(page.locator('.who').getByText('Online', { exact: true }));
      await online.click();
      await eventually(async () => (await availability()) === 'away', 'GET /me says away');
      // The switch turns when the app has the PATCH's answer, which may come after GET /me's.
      await eventually(async () => (await online.getAttribute('aria-checked')) === 'false', 'the switch shows away');
      await expect(page.locator('.who').getByText('Away', { exact: true }));
      await page.reload();
      await settled(page);
      assert.equal(await page.getByRole('switch', { name: 'Online' }).getAttribute('aria-checked'), 'false');
      await assertAccessible(page, 'the inbox with the availability switch at 1280×800');
      await page.getByRole('switch', { name: 'Online' }).click();
      await eventually(async () => (await availability()) === 'online', 'GET /me says online again');
    });

    step('a product set to round robin over two members hands new conversations to them in turn', async () => {
      await page.goto(`/app/settings/products/${product.id}`);
      await settled(page);
      const section = page.getByRole('region', { name: 'Assignment' });
      await section.getByRole('radio', { name: 'Round robin' }).check();
      await section.getByLabel('Capacity').fill('-1');
      await section.getByRole('group', { name: 'Members' }).getByRole('checkbox', { name: 'Grace Hopper' }).check();
      await section.getByRole('group', { name: 'Members' }).getByRole('checkbox', { name: 'Ada Lovelace' }).check();
      await page.getByRole('button', { name: 'Save product' }).click();
      // The server's 400 names assignment.capacity: its message shows under Capacity.
      await expect(section.locator('.field-error'));
      assert.equal(await section.getByLabel('Capacity').getAttribute('aria-invalid'), 'true');
      await assertAccessible(page, 'the assignment settings with an error at 1280×800');
      assert.equal((await api('GET', `/api/v1/products/${product.id}`)).data.assignment.mode, 'off');

      await section.getByLabel('Capacity').fill('5');
      await page.getByRole('button', { name: 'Save product' }).click();
      await eventually(async () => (await api('GET', `/api/v1/products/${product.id}`)).data.assignment.mode === 'round_robin', 'saved');
      assert.deepEqual((await api('GET', `/api/v1/products/${product.id}`)).data.assignment, { mode: 'round_robin', capacity: 5, member_ids: [grace, ada] });

      const first = await conversation(product.id, 'First in line');
      const second = await conversation(product.id, 'Second in line');
      await eventually(async () => (await assigneeOf(first.id)) !== null && (await assigneeOf(second.id)) !== null, 'both assigned');
      assert.deepEqual([await assigneeOf(first.id), await assigneeOf(second.id)], [grace, ada]);
      // The saved settings come back into the form.
      await page.reload();
      await settled(page);
      assert.equal(await page.getByRole('radio', { name: 'Round robin' }).isChecked(), true);
      assert.equal(await page.getByLabel('Capacity').inputValue(), '5');
    });

    step('a macro whose assign action is "Round robin" assigns from the product\'s list', async () => {
      const quiet = (await api('POST', '/api/v1/products', { name: 'Quiet', triage: 'off' })).data;
      await api('PATCH', `/api/v1/products/${quiet.id}`, { assignment: { mode: 'off', capacity: null, member_ids: [ada] } });
      await page.goto('/app/settings/macros');
      await page.getByRole('button', { name: 'New macro' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Hand on');
      const action = page.getByRole('group', { name: 'Action 1', exact: true });
      await action.getByLabel('Action', { exact: true }).selectOption({ label: 'Assign to' });
      await action.getByLabel('Member', { exact: true }).selectOption({ label: ROUND_ROBIN });
      await page.getByRole('button', { name: 'Create macro' }).click();
      await expect(page.getByRole('table', { name: 'Macros' }).getByRole('link', { name: 'Hand on' }));
      const [macro] = (await api('GET', '/api/v1/macros')).data;
      assert.deepEqual(macro.actions, [{ type: 'assign', member_id: 'round_robin' }]);

      const waiting = await conversation(quiet.id, 'Who takes this?');
      assert.equal(await assigneeOf(waiting.id), null);
      await page.goto(`/app/inbox/${waiting.id}`);
      await expect(page.getByRole('heading', { name: 'Who takes this?' }));
      await settled(page);
      await page.getByRole('button', { name: /^Macros/ }).click();
      await page.getByRole('dialog', { name: 'Run a macro' }).getByRole('button', { name: /Hand on/ }).click();
      await expectGone(page.getByRole('dialog', { name: 'Run a macro' }));
      await eventually(async () => (await assigneeOf(waiting.id)) === ada, 'the macro assigned Ada');

      await page.goto(`/app/settings/macros/${macro.id}`);
      await settled(page);
      const saved = page.getByRole('group', { name: 'Action 1', exact: true }).getByLabel('Member', { exact: true });
      assert.equal(await saved.inputValue(), 'round_robin');
    });

    step('the switch and the assignment settings pass axe at 390×844', async () => {
      const context = await appContext(opened.browser, opened.app.baseUrl, 'phone');
      contexts.push(context);
      const phone = await context.newPage();
      phone.setDefaultTimeout(10_000);
      await signIn(phone, 'grace@example.com');
      await expect(phone.getByRole('switch', { name: 'Online' }));
      await phone.goto(`/app/settings/products/${product.id}`);
      await settled(phone);
      await expect(phone.getByRole('region', { name: 'Assignment' }));
      await assertAccessible(phone, 'the product settings with assignment at 390×844');
    });
  });
}
