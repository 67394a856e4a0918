// The team app in a real browser (docs/accounts.md), against a real server on each database: a
// person signs in, sees a customer's message arrive, replies, turns it into an issue (still linked
// on a later visit), moves the issue to Done from the keyboard, ships it in a release; every
// screen passes axe-core.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page, Response, Route } from 'playwright-core';
import { acceptInvitation, closeAppPage, openAppPage, openRacePage, type AppServer } from '../helpers/app-server.js';
import { assertAccessible, withScreenshots } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

/**
 * A route for GETs answered as the server had them when asked, but only once released: a load on
 * its way while something changes. The first `holding` are held; those after them pass at once.
 */
function heldGets(holding = Infinity) {
  let release = () => {};
  const released = new Promise<void>((resolve) => { release = resolve; });
  const held = {
    asked: 0,
    release: () => release(),
    async route(route: Route) {
      if (route.request().method() !== 'GET') return route.continue();
      held.asked += 1;
      if (held.asked > holding) return route.continue();
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    },
  };
  return held;
}

for (const dialect of DIALECTS) {
  describe(`the team app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let productId: string;
    let conversationId: string;
    let shortcode: string;
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} ${name}`, () => context?.pages() ?? [], body));

    before(async () => {
      // Not signed in: the first step signs in through the page the first start's link opens.
      ({ browser, app, context, page } = await openAppPage(dialect, { signedIn: false }));
      productId = (await app.api('POST', '/api/v1/products', { name: 'Acme Mobile App' })).data.id;
    });
    after(() => closeAppPage({ browser, app }));

    step('signed out, /app asks who is signed in once (one 401), and shows the sign-in form', async () => {
      const unauthorized: string[] = [];
      const count = (response: Response) => {
        if (response.status() === 401) unauthorized.push(response.url());
      };
      page.on('response', count);
      try {
        await page.goto('/app');
        await expect(page.getByRole('button', { name: 'Sign in' }));
        await page.waitForLoadState('networkidle');
        assert.deepEqual(unauthorized.map((url) => new URL(url).pathname), ['/api/v1/me']);
      } finally {
        page.off('response', count);
      }
    });

    step('signs in the owner through the link the first start printed', async () => {
      await page.goto(app.ownerInvitationUrl);
      await expect(page.getByRole('heading', { name: 'Join Default' }));
      await assertAccessible(page, 'the invitation page');
      await acceptInvitation(page, app.ownerInvitationUrl, 'Grace Hopper', 'grace@example.com');
      const member = (await app.api('GET', '/api/v1/me')).data.member;
      assert.equal(member.display_name, 'Grace Hopper');
      await assertAccessible(page, 'the inbox');
    });

    step('shows a customer\'s new conversation in the inbox without a reload', async () => {
      await expect(page.getByText('All caught up'));
      const imported = await app.api('POST', '/api/v1/conversations', {
        product_id: productId, title: 'Checkout button does nothing',
        contact: { name: 'Ana Lima', email: 'ana@example.com' }, body: 'I tap Pay and nothing happens on my Pixel 8.',
      });
      conversationId = imported.data.id;
      await page.getByRole('link', { name: /Checkout button does nothing/ }).click();
      await expect(page.getByText('I tap Pay and nothing happens on my Pixel 8.'));
      // What happened: it was imported, never "Ticket via chat".
      await expect(page.locator('.conversation-meta').getByText(/· Imported ·/));
      assert.doesNotMatch(await page.locator('.conversation-meta').innerText(), /via/);
      await assertAccessible(page, 'a conversation');
    });

    step('replies to the customer', async () => {
      await page.getByRole('textbox', { name: 'Reply' }).fill('Thanks Ana, we are on it.');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByRole('list', { name: 'Messages' }).getByText('Thanks Ana, we are on it.'));
      await eventually(async () => {
        const { data } = await app.api('GET', `/api/v1/conversations/${conversationId}`);
        return data.messages.some((m: { sender_type: string; body: string }) => m.sender_type === 'agent' && m.body === 'Thanks Ana, we are on it.');
      }, 'the reply on the server');
    });

    step('turns the conversation into an issue through the deduplicating create', async () => {
      await page.getByRole('button', { name: 'Create issue' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create issue' });
      await expect(dialog);
      await assertAccessible(page, 'the create-issue dialog');
      await dialog.getByRole('button', { name: 'Create issue' }).click();
      const created = page.getByRole('dialog', { name: 'Issue created' });
      await expect(created);
      shortcode = (await created.locator('strong').first().textContent())!;
      assert.match(shortcode, /^AMA-\d+$/);
      await created.getByRole('button', { name: 'Done' }).click();
      const { data } = await app.api('GET', `/api/v1/issues/${shortcode}`);
      assert.deepEqual(data.linked_conversations.map((c: { id: string }) => c.id), [conversationId]);
    });

    step('links a second report of the same problem to the existing issue', async () => {
      const second = await app.api('POST', '/api/v1/conversations', {
        product_id: productId, title: 'Checkout button does nothing', contact: { name: 'Bo Chen', email: 'bo@example.com' }, body: 'I tap Pay and nothing happens on my Pixel 8.',
      });
      await page.getByRole('link', { name: /Bo Chen/ }).click();
      await expect(page.getByRole('heading', { name: 'Checkout button does nothing' }));
      await expect(page.getByText('Bo Chen').nth(1));
      await page.getByRole('button', { name: 'Create issue' }).click();
      await page.getByRole('dialog', { name: 'Create issue' }).getByRole('button', { name: 'Create issue' }).click();
      const matched = page.getByRole('dialog', { name: 'Matched an existing issue' });
      await expect(matched);
      assert.equal(await matched.locator('strong').first().textContent(), shortcode);
      await matched.getByRole('button', { name: 'Done' }).click();
      const { data } = await app.api('GET', `/api/v1/issues/${shortcode}`);
      assert.deepEqual(data.linked_conversations.map((c: { id: string }) => c.id).sort(), [conversationId, second.data.id].sort());
    });

    step('shows a conversation\'s linked issues on a later visit', async () => {
      await page.goto(`/app/inbox/${conversationId}`);
      const linked = page.locator('.linked-issues');
      await expect(linked.getByRole('link', { name: shortcode }));
      await expect(linked.getByText('Pending', { exact: true }));
    });

    step('a message that arrives while the conversation loads shows once it has loaded', async () => {
      // Another conversation first: the list beside it stays, and with it the app's live stream.
      await page.getByRole('link', { name: /Bo Chen/ }).click();
      await expect(page.getByText('Bo Chen').nth(1));
      // The conversation's first answer is read by the server now, before the message, and held until the message's event came.
      const loads = heldGets(1);
      await page.route(`**/api/v1/conversations/${conversationId}`, loads.route);
      try {
        await page.getByRole('link', { name: /Ana Lima/ }).click();
        await eventually(async () => loads.asked === 1, 'the conversation loading');
        await app.api('POST', `/api/v1/conversations/${conversationId}/messages`, { body: 'Written while it loaded.' });
        // The event asks for the conversation again; only then does the older answer arrive.
        await eventually(async () => loads.asked === 2, 'the conversation asked again');
        loads.release();
        await expect(page.getByRole('list', { name: 'Messages' }).getByText('Written while it loaded.'));
      } finally {
        loads.release();
        await page.unroute(`**/api/v1/conversations/${conversationId}`, loads.route);
      }
    });

    step('shows an issue linked, changed and unlinked elsewhere without a reload', async () => {
      const linked = page.locator('.linked-issues');
      const other = (await app.api('POST', '/api/v1/issues', { product_id: productId, title: 'Payments stall on Android' })).data;
      await app.api('POST', `/api/v1/issues/${other.id}/conversations`, { conversation_id: conversationId });
      await expect(linked.getByRole('link', { name: other.shortcode }));
      await app.api('PATCH', `/api/v1/issues/${other.id}`, { status: 'icebox' });
      await expect(linked.getByText('Icebox', { exact: true }));
      await app.api('DELETE', `/api/v1/issues/${other.id}/conversations/${conversationId}`);
      await expectGone(linked.getByRole('link', { name: other.shortcode }));
      await expect(linked.getByRole('link', { name: shortcode }));
    });

    step('moves the issue to Done on the board with the keyboard', async () => {
      await page.getByRole('link', { name: 'Issues', exact: true }).click();
      const pending = page.getByRole('region', { name: 'Pending' });
      const card = pending.getByRole('link', { name: 'Checkout button does nothing' });
      await expect(card);
      await assertAccessible(page, 'the board');
      // The first move's request is held back: the later ones must not overtake it (they would
      // leave the issue where it only passed through).
      let held = false;
      let heldAnswered = false;
      const holdFirstPatch = async (route: Route) => {
        if (route.request().method() !== 'PATCH' || held) return route.continue();
        held = true;
        await new Promise((resolve) => setTimeout(resolve, 500));
        await route.continue();
        await route.request().response();
        heldAnswered = true;
      };
      await page.route('**/api/v1/issues/*', holdFirstPatch);
      await card.focus();
      for (const column of ['In progress', 'Icebox', 'Done']) {
        await page.keyboard.press('Alt+ArrowRight');
        const moved = page.getByRole('region', { name: column }).getByRole('link', { name: 'Checkout button does nothing' });
        await expect(moved);
        await eventually(() => moved.evaluate((element) => element === document.activeElement), `the focus on the card in ${column}`);
      }
      await eventually(async () => heldAnswered && (await app.api('GET', `/api/v1/issues/${shortcode}`)).data.status === 'done', 'the issue done on the server');
      await page.unroute('**/api/v1/issues/*', holdFirstPatch);
    });

    step('a board load asked before a move does not put the card back where it was', async () => {
      const card = (column: string) => page.getByRole('region', { name: column }).getByRole('link', { name: 'Checkout button does nothing' });
      // The columns' next loads are answered as the server had them, but only once the card has moved.
      const loads = heldGets();
      await page.route('**/api/v1/issues?*', loads.route);
      const other = (await app.api('GET', `/api/v1/issues?product_id=${productId}&limit=100`)).data.find((issue: { shortcode: string }) => issue.shortcode !== shortcode);
      await app.api('PATCH', `/api/v1/issues/${other.id}`, { priority: 'high' }); // its issue.updated reloads the board
      await eventually(async () => loads.asked > 0, 'the board loading again');
      await card('Done').focus();
      await page.keyboard.press('Alt+ArrowLeft');
      await expect(card('Icebox'));
      await eventually(async () => (await app.api('GET', `/api/v1/issues/${shortcode}`)).data.status === 'icebox', 'the move on the server');
      loads.release();
      // The held answers (the card in Done) are dropped and the board loaded again: the card stays.
      await eventually(async () => (await card('Icebox').count()) === 1 && (await card('Done').count()) === 0, 'the card kept in Icebox');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await card('Done').count(), 0, 'the card never went back');
      await page.unroute('**/api/v1/issues?*', loads.route);
      await card('Icebox').focus();
      await page.keyboard.press('Alt+ArrowRight');
      await eventually(async () => (await app.api('GET', `/api/v1/issues/${shortcode}`)).data.status === 'done', 'the issue done again');
    });

    step('a board reload set off by a live event before the product changed shows the product chosen now', async () => {
      const other = (await app.api('POST', '/api/v1/products', { name: 'Acme Web' })).data.id as string;
      await app.api('POST', '/api/v1/issues', { product_id: other, title: 'Web only issue' });
      const race = await openRacePage(context);
      try {
        await race.page.goto(`/app/issues?product=${productId}&closed=1`);
        await expect(race.page.getByRole('link', { name: 'Checkout button does nothing' }));
        await eventually(race.liveConnected, 'the live stream connected');
        await race.pauseClock();
        const loads: string[] = [];
        race.page.on('request', (request) => { if (/\/api\/v1\/issues\?/.test(request.url())) loads.push(request.url()); });
        const before = await race.liveEvents();
        await app.api('PATCH', `/api/v1/issues/${shortcode}`, { priority: 'low' });
        await eventually(async () => (await race.liveEvents()) > before, 'the event in the page');
        await race.page.getByLabel('Product').selectOption({ label: 'Acme Web' });
        await race.page.clock.runFor(1000);
        await race.page.clock.resume();
        await expect(race.page.getByRole('link', { name: 'Web only issue' }));
        await eventually(async () => loads.length > 0, 'the columns loaded');
        assert.deepEqual(loads.filter((url) => !url.includes(`product_id=${other}`)), [], 'every load after the switch is for the product chosen');
        assert.equal(await race.page.getByRole('link', { name: 'Checkout button does nothing' }).count(), 0);
      } finally {
        await race.page.close();
      }
    });

    step('creates a release as a draft and publishes it', async () => {
      await page.getByRole('link', { name: 'Releases' }).click();
      await expect(page.getByText('No releases yet'));
      await page.getByRole('button', { name: 'New release' }).click();
      await page.getByLabel('Title').fill('November fixes');
      await page.getByLabel('Version').fill('2.4.0');
      await expect(page.getByRole('checkbox', { name: new RegExp(`${shortcode}`) }));
      await assertAccessible(page, 'the new-release form');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(page.getByRole('heading', { name: 'November fixes' }));
      await expect(page.getByText('Draft', { exact: true }));
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByText('Published', { exact: true }));
      await assertAccessible(page, 'a release');
      const changelog = page.getByRole('link', { name: /Public changelog/ });
      assert.match((await changelog.getAttribute('href'))!, /^\/widget\/v1\/wk_\w+\/changelog$/);
      const releases = await app.api('GET', '/api/v1/releases');
      assert.equal(releases.data.length, 1);
      assert.notEqual(releases.data[0].released_at, null);
      assert.equal((await app.api('GET', `/api/v1/issues/${shortcode}`)).data.status, 'released');
    });
  });
}
