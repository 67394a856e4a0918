// Notifications in the app (docs/app.md, docs/inbox.md "Notifications"), in a real browser against
// a real server on each database: the bell's unread count rising live when a teammate assigns a
// conversation, its list (from the keyboard too), a click opening the conversation and marking it
// read, "Mark all read"; `@` completion in the note box worked from the keyboard, the mentioned
// member notified; and desktop notifications, asked for only when the member turns them on, shown
// while the tab is hidden, their click opening the conversation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PASSWORD, closeAppPage, openAppPage, signIn, type AppServer } from '../helpers/app-server.js';
import { appContext, assertAccessible, withScreenshots } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

interface Teammate {
  id: string;
  /** Calls /api/v1 with a key of the teammate's own. */
  api<T = any>(method: string, path: string, body?: unknown): Promise<T>;
}

/**
 * Stands in for the browser's Notification (an init script, so self-contained): records what the app
 * shows and how often it asks for permission, and lets the test hide the tab. The context has granted
 * the permission; until the app asks (in this tab's session), the page sees a browser never asked.
 */
function recordDesktopNotifications() {
  const recorded = window as unknown as { shown: { title: string; body?: string; notification: Notification }[]; permissionRequests: number; hidden: boolean };
  recorded.shown = [];
  recorded.permissionRequests = 0;
  recorded.hidden = false;
  const Native = window.Notification;
  function Recording(title: string, options?: NotificationOptions) {
    const notification = new Native(title, options);
    recorded.shown.push({ title, body: options?.body, notification });
    return notification;
  }
  Object.defineProperty(Recording, 'permission', { get: () => (sessionStorage.getItem('asked') ? Native.permission : 'default') });
  Object.defineProperty(Recording, 'requestPermission', {
    value: () => {
      recorded.permissionRequests++;
      sessionStorage.setItem('asked', 'yes');
      return Native.requestPermission();
    },
  });
  window.Notification = Recording as unknown as typeof Notification;
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (recorded.hidden ? 'hidden' : 'visible') });
}

for (const dialect of DIALECTS) {
  describe(`notifications in the app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let product: { id: string };
    let me: string;
    let linus: Teammate;
    let lise: Teammate;
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} notifications ${name}`, () => context?.pages() ?? [], body));

    const conversation = async (title: string) =>
      (await app.api('POST', '/api/v1/conversations', { product_id: product.id, title, body: 'Hello, something is wrong.', contact: { name: 'Ana Lima', email: 'ana@example.com' } })).data as { id: string };
    const bell = (on = page) => on.getByRole('button', { name: /^Notifications, \d+ unread$/ });
    const bellSays = (count: number, on = page) => expect(on.getByRole('button', { name: `Notifications, ${count} unread` }));
    const panel = (on = page) => on.getByRole('dialog', { name: 'Notifications' });
    const unreadOnServer = async () => (await app.api('GET', '/api/v1/notifications?unread=true')).data as { id: string; conversation: { id: string } }[];

    /** A colleague joined through an invitation, with an API key of their own. */
    async function teammate(name: string, email: string): Promise<Teammate> {
      const invitation = (await app.api('POST', '/api/v1/members/invitations', { email, role: 'agent' })).data;
      const joined = await fetch(`${app.baseUrl}/auth/invitations/${invitation.url.split('/').pop()}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: PASSWORD }),
      });
      const answer = await joined.text();
      assert.equal(joined.status, 200, answer);
      const id = JSON.parse(answer).data.member.id as string;
      const { key } = (await app.api('POST', '/api/v1/api-keys', { label: name, member_id: id })).data;
      return {
        id,
        api: async (method, path, body) => {
          const response = await fetch(`${app.baseUrl}${path}`, {
            method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await response.text();
          assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
          return text ? JSON.parse(text) : undefined;
        },
      };
    }

    before(async () => {
      ({ browser, app, context, page } = await openAppPage(dialect));
      product = (await app.api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
      me = (await app.api('GET', '/api/v1/me')).data.member.id;
      linus = await teammate('Linus Pauling', 'linus@example.com');
      lise = await teammate('Lise Meitner', 'lise@example.com');
    });
    after(() => closeAppPage({ browser, app }));

    step('counts a conversation a teammate assigns to me live; the list shows it; a click opens it, marked read', async () => {
      const invoices = await conversation('Invoices are late');
      const export_ = await conversation('Export does nothing');
      await page.goto('/app/inbox');
      await bellSays(0);
      await linus.api('PATCH', `/api/v1/conversations/${invoices.id}`, { assignee_id: me });
      await bellSays(1);
      await linus.api('PATCH', `/api/v1/conversations/${export_.id}`, { assignee_id: me });
      await bellSays(2);

      await bell().click();
      const entries = panel().getByRole('list', { name: 'Notifications' }).getByRole('link');
      await expect(entries.first());
      assert.deepEqual((await entries.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()), [
        'Unread: Linus Pauling assigned you a conversation Export does nothing just now',
        'Unread: Linus Pauling assigned you a conversation Invoices are late just now',
      ]);
      await assertAccessible(page, 'the notification panel');
      // From the keyboard: the first entry has the focus, the arrows move, Escape closes back to the bell.
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
      await eventually(async () => (await focused()).includes('Export does nothing'), 'the first entry focused');
      await page.keyboard.press('ArrowDown');
      assert.match(await focused(), /Invoices are late/);
      await page.keyboard.press('ArrowDown');
      assert.match(await focused(), /Export does nothing/, 'the arrows wrap around');
      await page.keyboard.press('Escape');
      await expectGone(panel());
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Notifications, 2 unread');

      await page.keyboard.press('Enter');
      await panel().getByRole('link', { name: /Invoices are late/ }).click();
      await page.waitForURL(new RegExp(`/app/inbox/${invoices.id}$`));
      await expect(page.getByRole('heading', { name: 'Invoices are late' }));
      await expectGone(panel());
      await bellSays(1);
      assert.deepEqual((await unreadOnServer()).map((notification) => notification.conversation.id), [export_.id]);
      // Read ones stay listed, no longer marked.
      await bell().click();
      await expect(panel().getByRole('link', { name: /^Linus Pauling assigned you a conversation\s*Invoices are late/ }));
      await expect(panel().getByRole('link', { name: /^Unread: Linus Pauling assigned you a conversation\s*Export does nothing/ }));
    });

    step('marks all read', async () => {
      await panel().getByRole('button', { name: 'Mark all read' }).click();
      await bellSays(0);
      assert.deepEqual(await unreadOnServer(), []);
      await expectGone(panel().getByText(/^Unread:/));
      assert.equal(await panel().getByRole('button', { name: 'Mark all read' }).getAttribute('aria-disabled'), 'true');
      await page.keyboard.press('Escape');
      await expectGone(panel());
    });

    step('completes @ mentions in a note from the keyboard; the mentioned members are notified', async () => {
      const { id } = await conversation('Refund twice');
      await page.goto(`/app/inbox/${id}`);
      const options = page.getByRole('listbox', { name: 'Members to mention' }).getByRole('option');
      // Replies to the customer mention nobody: no completion there.
      const reply = page.getByLabel('Reply', { exact: true });
      await reply.pressSequentially('Hi @Li');
      assert.equal(await options.count(), 0);
      await reply.fill('');

      await page.getByRole('radio', { name: 'Internal note' }).click();
      const box = page.getByLabel('Internal note', { exact: true });
      await box.click();
      await box.pressSequentially('Can you check the charge, @li');
      const names = () => options.locator('.mention-name').allInnerTexts();
      await eventually(async () => JSON.stringify(await names()) === '["Linus Pauling","Lise Meitner"]', 'Linus and Lise offered');
      assert.equal(await options.first().getAttribute('aria-selected'), 'true');
      assert.equal(await box.getAttribute('aria-activedescendant'), await options.first().getAttribute('id'));
      await assertAccessible(page, 'mention completion');
      await page.keyboard.press('ArrowDown');
      assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await expectGone(options);
      assert.equal(await box.inputValue(), 'Can you check the charge, @Linus Pauling ');
      // A later word of the name finds it too; Tab picks.
      await box.pressSequentially('and @meit');
      await expect(options.getByText('Lise Meitner'));
      await page.keyboard.press('Tab');
      assert.equal(await box.inputValue(), 'Can you check the charge, @Linus Pauling and @Lise Meitner ');
      // Escape closes the list and leaves the text as typed.
      await box.pressSequentially('cc @gr');
      await expect(options.getByText('Grace Hopper'));
      await page.keyboard.press('Escape');
      await expectGone(options);
      assert.equal(await box.inputValue(), 'Can you check the charge, @Linus Pauling and @Lise Meitner cc @gr');
      for (const _ of 'cc @gr') await box.press('Backspace');
      await box.pressSequentially('thanks');
      // Who the note notifies, by the server's rules (not the author).
      await expect(page.getByText('Notifies Linus Pauling and Lise Meitner'));
      await page.getByRole('button', { name: 'Add note' }).click();
      await expect(page.getByRole('list', { name: 'Messages' }).getByText('Can you check the charge, @Linus Pauling and @Lise Meitner thanks'));

      for (const mentioned of [linus, lise]) {
        const notifications = (await mentioned.api('GET', '/api/v1/notifications')).data as any[];
        assert.deepEqual(notifications.map((n) => [n.kind, n.conversation.id, n.actor?.id, n.read_at]), [['mention', id, me, null]]);
      }
      assert.deepEqual(await unreadOnServer(), [], 'the author is not told of their own note');
    });

    step('shows desktop notifications once turned on (the browser asked on that click only), while the tab is hidden; a click opens the conversation', async () => {
      const desktop = await appContext(browser, app.baseUrl);
      try {
        await desktop.grantPermissions(['notifications'], { origin: app.baseUrl });
        await desktop.addInitScript(recordDesktopNotifications);
        const other = await desktop.newPage();
        other.setDefaultTimeout(10_000);
        await signIn(other, 'grace@example.com');
        const recorded = () => other.evaluate(() => {
          const { shown, permissionRequests } = window as unknown as { shown: { title: string; body?: string }[]; permissionRequests: number };
          return { shown: shown.map(({ title, body }) => ({ title, body })), permissionRequests };
        });
        const hide = (hidden: boolean) => other.evaluate((value) => { (window as unknown as { hidden: boolean }).hidden = value; }, hidden);

        // Off until turned on: a notification while hidden shows nothing, and nothing was asked.
        await hide(true);
        const first = await conversation('Dark mode forgets itself');
        await linus.api('PATCH', `/api/v1/conversations/${first.id}`, { assignee_id: me });
        await bellSays(1, other);
        assert.deepEqual(await recorded(), { shown: [], permissionRequests: 0 });
        await hide(false);

        await bell(other).click();
        const toggle = panel(other).getByRole('checkbox', { name: 'Desktop notifications' });
        assert.equal(await toggle.isChecked(), false);
        await toggle.check();
        await eventually(async () => (await recorded()).permissionRequests === 1, 'permission asked on the click');
        await expect(panel(other).getByText('Shown while Loopdesk is in a background tab.', { exact: true }));
        await assertAccessible(other, 'the notification panel with desktop notifications on');
        await other.keyboard.press('Escape');

        // Visible: the bell is enough, no desktop notification.
        const second = await conversation('Password reset mail never arrives');
        await linus.api('PATCH', `/api/v1/conversations/${second.id}`, { assignee_id: me });
        await bellSays(2, other);
        assert.deepEqual((await recorded()).shown, []);

        await hide(true);
        const third = await conversation('Charts are blank');
        await linus.api('PATCH', `/api/v1/conversations/${third.id}`, { assignee_id: me });
        await eventually(async () => (await recorded()).shown.length === 1, 'a desktop notification');
        assert.deepEqual((await recorded()).shown, [{ title: 'Linus Pauling assigned you a conversation', body: 'Charts are blank' }]);
        await hide(false);
        await other.evaluate(() => (window as unknown as { shown: { notification: Notification }[] }).shown[0]!.notification.onclick?.(new Event('click')));
        await other.waitForURL(new RegExp(`/app/inbox/${third.id}$`));
        await bellSays(2, other);
        assert.equal((await unreadOnServer()).some((notification) => notification.conversation.id === third.id), false);

        // The choice is remembered: after a reload the switch is still on, and nothing is asked again.
        await other.reload();
        await bell(other).click();
        assert.equal(await panel(other).getByRole('checkbox', { name: 'Desktop notifications' }).isChecked(), true);
        assert.equal((await recorded()).permissionRequests, 0);
      } finally {
        await desktop.close();
      }
    });
  });
}
