// The inbox for a team in the app (docs/app.md, docs/inbox.md), in a real browser against a real
// server on each database: the Mine / Unassigned / All views; assigning (M assigns to me); tags;
// internal notes marked as such; saved replies managed in Settings and picked from the reply box;
// search opened with `/` and worked from the keyboard; the contact panel with its other
// conversations, export and erasure behind a typed confirmation; list rows with the last message
// and how long the customer has waited; and all of it live when someone else acts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeAppPage, openAppPage, openRacePage, settled, type AppServer } from '../helpers/app-server.js';
import { assertAccessible, withScreenshots } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

for (const dialect of DIALECTS) {
  describe(`the inbox for a team in the app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let product: { id: string };
    let me: string;
    let colleague: string;
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} inbox team ${name}`, () => context?.pages() ?? [], body));

    const conversation = async (title: string, contact: { name: string; email: string }, body = 'Hello, something is wrong.') =>
      (await app.api('POST', '/api/v1/conversations', { product_id: product.id, title, body, contact })).data as { id: string; contact: { id: string } };
    const detail = async (id: string) => (await app.api('GET', `/api/v1/conversations/${id}`)).data;
    const list = () => page.getByRole('list', { name: 'Conversations' });
    const rows = async () => (await list().locator('.row-title').allTextContents()).map((title) => title.trim());

    before(async () => {
      ({ browser, app, context, page } = await openAppPage(dialect));
      product = (await app.api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
      const members = (await app.api('GET', '/api/v1/members')).data as { id: string; display_name: string }[];
      me = members.find((member) => member.display_name === 'Grace Hopper')!.id;
      // A colleague, joined through an invitation.
      const invitation = (await app.api('POST', '/api/v1/members/invitations', { email: 'linus@example.com', role: 'agent' })).data;
      const token = invitation.url.split('/').pop();
      const joined = await fetch(`${app.baseUrl}/auth/invitations/${token}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Linus Pauling', password: 'correct horse battery staple' }),
      });
      const answer = await joined.text();
      assert.equal(joined.status, 200, answer);
      colleague = JSON.parse(answer).data.member.id;
    });
    after(() => closeAppPage({ browser, app }));

    step('shows Mine, Unassigned and All, with the last message and the waiting time on each row', async () => {
      const mine = await conversation('Mine: invoices are late', { name: 'Ana Lima', email: 'ana@example.com' });
      const nobodys = await conversation('Nobody’s: login loops', { name: 'Bo Chen', email: 'bo@example.com' }, 'I cannot sign in since this morning, it keeps looping.');
      const theirs = await conversation('Theirs: dark mode', { name: 'Cy Young', email: 'cy@example.com' });
      await app.api('PATCH', `/api/v1/conversations/${mine.id}`, { assignee_id: me });
      await app.api('PATCH', `/api/v1/conversations/${theirs.id}`, { assignee_id: colleague });
      await app.api('POST', `/api/v1/conversations/${theirs.id}/messages`, { body: 'We are on it.' });

      await page.goto('/app/inbox');
      await expect(list().getByText('Theirs: dark mode'));
      const nobodyRow = list().locator('li', { hasText: 'Nobody’s: login loops' });
      await expect(nobodyRow.getByText('I cannot sign in since this morning, it keeps looping.'));
      await expect(nobodyRow.getByText(/^waiting \d+ min$/));
      // Imported through the API: the row says so, never "Ticket".
      await expect(nobodyRow.getByText(/^Imported( · .*)?$/));
      // Answered: no longer waiting, and the excerpt is the team's answer.
      const theirRow = list().locator('li', { hasText: 'Theirs: dark mode' });
      await expect(theirRow.getByText('Team: We are on it.'));
      assert.equal(await theirRow.getByText(/^waiting/).count(), 0);
      await assertAccessible(page, 'the inbox with its views');

      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Mine' }).click();
      await eventually(async () => JSON.stringify(await rows()) === JSON.stringify(['Mine: invoices are late']), 'only mine');
      assert.match(page.url(), /view=mine/);
      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Unassigned' }).click();
      await eventually(async () => (await rows()).includes('Nobody’s: login loops') && !(await rows()).some((title) => title.startsWith('Mine') || title.startsWith('Theirs')), 'only unassigned');
      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'All' }).click();
      await eventually(async () => (await rows()).length >= 3, 'all of them');
      // Live: a conversation someone assigns to me joins Mine without a reload.
      await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Mine' }).click();
      await eventually(async () => (await rows()).length === 1, 'only mine again');
      await app.api('PATCH', `/api/v1/conversations/${nobodys.id}`, { assignee_id: me });
      await eventually(async () => (await rows()).includes('Nobody’s: login loops'), 'assigned elsewhere, shown live');
    });

    step('a reload set off by a live event before the view changed loads the view shown now', async () => {
      // The list reloads 250 ms after a burst of events. Here the event arrives on Unassigned and the
      // view changes to All before that timer fires: the reload must load All, not the view it was
      // set off in (which, being the newest load, would replace All's rows). The page's clock is
      // paused so the order is fixed: the event, the click, then All's load and the timer.
      const { page: other, liveEvents, liveConnected, pauseClock } = await openRacePage(context);
      try {
        const unassigned = await conversation('Live while switching', { name: 'Eve Ng', email: 'eve@example.com' });
        await other.goto('/app/inbox?view=unassigned');
        const otherRows = async () => (await other.getByRole('list', { name: 'Conversations' }).locator('.row-title').allTextContents()).map((title) => title.trim());
        await eventually(async () => (await otherRows()).includes('Live while switching') && !(await otherRows()).some((title) => title.startsWith('Theirs')), 'the Unassigned view');
        await eventually(liveConnected, 'the live stream connected');
        await pauseClock();
        const before = await liveEvents();
        const loads: string[] = [];
        other.on('request', (request) => { if (/\/api\/v1\/conversations\?/.test(request.url())) loads.push(request.url()); });
        await app.api('PATCH', `/api/v1/conversations/${unassigned.id}`, { tags: ['live'] });
        await eventually(async () => (await liveEvents()) > before, 'the event in the page');
        await other.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'All' }).click();
        await other.clock.runFor(1000);
        await other.clock.resume();
        await eventually(async () => loads.length >= 2, 'All loaded and the reload sent');
        assert.deepEqual(loads.filter((url) => url.includes('assignee_id')), [], 'no load after the switch asks for Unassigned');
        await eventually(async () => (await otherRows()).some((title) => title.startsWith('Theirs')), 'All shown');
      } finally {
        await other.close();
      }
    });

    step('assigns with M and from the assignee menu, and tags a conversation', async () => {
      const { id } = await conversation('Export is slow', { name: 'Dee Ray', email: 'dee@example.com' });
      await page.goto(`/app/inbox/${id}`);
      await expect(page.getByRole('button', { name: /Assign to me/ }));
      await page.locator('#main').focus();
      await page.keyboard.press('m');
      await eventually(async () => (await detail(id)).assignee_id === me, 'assigned to me');
      await expectGone(page.getByRole('button', { name: /Assign to me/ }));
      await page.getByLabel('Assignee').selectOption({ label: 'Linus Pauling' });
      await eventually(async () => (await detail(id)).assignee_id === colleague, 'assigned to the colleague');
      await page.getByLabel('Assignee').selectOption({ label: 'Unassigned' });
      await eventually(async () => (await detail(id)).assignee_id === null, 'unassigned');

      const tags = page.getByRole('group', { name: 'Conversation tags' });
      await tags.getByLabel('Add a tag').fill('Billing');
      await tags.getByLabel('Add a tag').press('Enter');
      await tags.getByLabel('Add a tag').fill('urgent-fix');
      await tags.getByLabel('Add a tag').press('Enter');
      await eventually(async () => JSON.stringify((await detail(id)).tags) === '["Billing","urgent-fix"]', 'two tags');
      await tags.getByRole('button', { name: 'Remove tag Billing' }).click();
      await eventually(async () => JSON.stringify((await detail(id)).tags) === '["urgent-fix"]', 'one tag left');
      await assertAccessible(page, 'a conversation with its assignee and tags');
    });

    step('adds an internal note, marked as such, and shows a colleague’s note live', async () => {
      const { id } = await conversation('Refund request', { name: 'Eve Stone', email: 'eve@example.com' });
      await page.goto(`/app/inbox/${id}`);
      await page.getByRole('radio', { name: 'Internal note' }).click();
      await page.getByLabel('Internal note', { exact: true }).fill('Checked Stripe: the charge went through twice.');
      await page.getByRole('button', { name: 'Add note' }).click();
      const thread = page.getByRole('list', { name: 'Messages' });
      const note = thread.locator('li', { hasText: 'Checked Stripe: the charge went through twice.' });
      await expect(note.getByText('Internal note'));
      const messages = (await detail(id)).messages as { body: string; internal: boolean }[];
      assert.deepEqual(messages.map((m) => [m.body, m.internal]), [['Hello, something is wrong.', false], ['Checked Stripe: the charge went through twice.', true]]);
      await assertAccessible(page, 'a conversation with an internal note');

      await app.api('POST', `/api/v1/conversations/${id}/notes`, { body: 'Refund approved by finance.' });
      await expect(thread.locator('li', { hasText: 'Refund approved by finance.' }).getByText('Internal note'));
      // The reply box goes back to replies: a reply is not marked.
      await page.getByRole('radio', { name: 'Reply' }).click();
      await page.getByLabel('Reply', { exact: true }).fill('Your refund is on its way.');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(thread.locator('li', { hasText: 'Your refund is on its way.' }));
      assert.equal(await thread.locator('li', { hasText: 'Your refund is on its way.' }).getByText('Internal note').count(), 0);
    });

    step('manages saved replies in Settings and sends one from the reply box, its placeholders filled', async () => {
      await page.goto('/app/settings/saved-replies');
      await page.getByRole('button', { name: 'New saved reply' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Title').fill('Greeting');
      await dialog.getByLabel('Text').fill('Hi {{contact.first_name}}, {{agent.name}} here from {{product.name}}.');
      await dialog.getByRole('button', { name: 'Add saved reply' }).click();
      await expect(page.getByRole('cell', { name: 'Greeting' }));
      await assertAccessible(page, 'saved replies in settings');
      // An empty title is refused with the server's message under the field.
      await page.getByRole('button', { name: 'New saved reply' }).click();
      await page.getByRole('dialog').getByLabel('Text').fill('No title');
      await page.getByRole('dialog').getByRole('button', { name: 'Add saved reply' }).click();
      await expect(page.getByRole('dialog').locator('.field-error'));
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      const { id } = await conversation('Hello there', { name: 'Fay Wray', email: 'fay@example.com' });
      await page.goto(`/app/inbox/${id}`);
      // The list held back: "greet" and Enter typed before it arrives pick the first match when it does.
      let release = () => {};
      const held = new Promise<void>((resolve) => { release = resolve; });
      await page.route('**/api/v1/saved-replies?*', async (route) => { await held; await route.continue(); });
      await page.getByRole('button', { name: 'Saved replies' }).click();
      const picker = page.getByRole('dialog', { name: 'Saved replies' });
      await picker.getByLabel('Filter saved replies').fill('greet');
      await assertAccessible(page, 'the saved reply picker');
      await picker.getByLabel('Filter saved replies').press('Enter');
      release();
      await expect(page.getByText('Saved reply: Greeting'));
      await page.unroute('**/api/v1/saved-replies?*');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByRole('list', { name: 'Messages' }).getByText('Hi Fay, Grace Hopper here from Acme.'));
    });

    step('searches with / : typing goes to the search field at once; results by type with each conversation\'s contact, status and product; opened from the keyboard', async () => {
      const issue = (await app.api('POST', '/api/v1/issues', { product_id: product.id, title: 'Checkout button does nothing on Safari' })).data;
      await conversation('Cannot pay', { name: 'Gil Moss', email: 'gil@example.com' }, 'The checkout button is dead for me.');
      await page.goto('/app/inbox');
      await settled(page);
      await page.keyboard.press('/');
      const dialog = page.getByRole('dialog', { name: 'Search' });
      // Typed straight away, without clicking into the field: the field has the focus.
      await expect(dialog.getByRole('combobox'));
      await page.keyboard.type('checkout butt');
      assert.equal(await dialog.getByRole('combobox').inputValue(), 'checkout butt');
      await expect(dialog.getByRole('group', { name: 'Issues' }).getByRole('option', { name: /Checkout button does nothing on Safari/ }));
      const found = dialog.getByRole('group', { name: 'Conversations' }).getByRole('option', { name: /Cannot pay/ });
      await expect(found.getByText('Gil Moss · Open · Acme'));
      await assertAccessible(page, 'search results');
      // The issue ranks first: Enter on the first result opens it.
      await dialog.getByRole('combobox').press('Enter');
      await page.waitForURL(new RegExp(`/app/issues/${issue.shortcode}$`));
      await expectGone(page.getByRole('dialog', { name: 'Search' }));
      // The issue opens in a dialog of its own, where single keys are its fields': close it first.
      await expect(page.getByRole('dialog', { name: issue.shortcode }));
      await page.keyboard.press('Escape');
      await page.waitForURL(/\/app\/issues$/);

      // Opened with a click, it takes typing at once too.
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByRole('dialog', { name: 'Search' }).getByRole('combobox'));
      await page.keyboard.type(issue.shortcode);
      await expect(page.getByRole('dialog', { name: 'Search' }).getByRole('option').first().getByText(issue.shortcode));
      await page.keyboard.press('Escape');
      await expectGone(page.getByRole('dialog', { name: 'Search' }));
    });

    step('shows the contact panel with other conversations, exports the contact, and erases them after typing their email', async () => {
      const first = await conversation('First question', { name: 'Hal Berg', email: 'hal@example.com' });
      const second = await conversation('Second question', { name: 'Hal Berg', email: 'hal@example.com' }, 'Another thing, Hal here.');
      await page.goto(`/app/inbox/${second.id}`);
      const panel = page.locator('details.contact-panel');
      await panel.locator('summary').click();
      await expect(panel.getByRole('link', { name: 'First question' }));
      await expect(panel.getByText('hal@example.com'));
      await assertAccessible(page, 'the contact panel');

      const download = page.waitForEvent('download');
      await panel.getByRole('button', { name: 'Export data' }).click();
      const exported = JSON.parse(await (await (await download).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8')));
      assert.equal(exported.data.contact.email, 'hal@example.com');
      assert.equal(exported.data.conversations.length, 2);

      await panel.getByRole('button', { name: 'Erase contact…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Erase this contact' });
      const erase = dialog.getByRole('button', { name: 'Erase contact' });
      assert.equal(await erase.isDisabled(), true);
      await dialog.getByLabel('Type hal@example.com to confirm').fill('hal@example.com');
      await assertAccessible(page, 'the erasure confirmation');
      await erase.click();
      await expect(page.getByText('Anonymous visitor').first());
      const after = await detail(second.id);
      assert.equal(after.contact, null);
      assert.ok(after.messages.every((m: { sender_type: string; body: string }) => m.sender_type !== 'contact' || m.body === '[erased]'));
      assert.equal((await detail(first.id)).contact, null);
    });
  });
}
