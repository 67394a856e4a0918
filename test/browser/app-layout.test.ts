// The inbox's layout, measured in a real browser (docs/app.md "The inbox's layout"): at 1280×800
// the thread takes at least 60 % of the height with its newest message in view, the list shows at
// least seven conversations, the details panel sits beside the thread (folded away at will, the
// choice kept) and below it under 1024 px, no control overlaps another, a phone gets the list,
// then the conversation and back without anything wider than the screen, and search takes typing
// at once. It also takes the screenshots docs/app.md shows: into docs/images/ with
// LOOPDESK_UPDATE_SCREENSHOTS=1 (`npm run screenshots`), else into a temporary folder, so a page
// that cannot be drawn fails the test and a plain `npm test` leaves the checkout as it was.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { PASSWORD, settled, signIn, startAppServer, type AppServer } from '../helpers/app-server.js';
import { VIEWPORTS, appContext, assertAccessible, launchBrowser, withScreenshots, type ViewportName } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';
import { seedInbox, type SeededInbox } from '../helpers/inbox-seed.js';

const OWNER = { name: 'Grace Hopper', email: 'grace@example.com' };
const UPDATE_SCREENSHOTS = process.env.LOOPDESK_UPDATE_SCREENSHOTS === '1';
const DOCS_IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url));

type Box = { x: number; y: number; width: number; height: number };
const box = async (locator: Locator): Promise<Box> => {
  const found = await locator.boundingBox();
  assert.ok(found, `${locator} has no box (not shown)`);
  return found;
};
const overlap = (a: Box, b: Box) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
/** Whether `inner` lies within `outer` (a pixel of rounding allowed). */
const inside = (inner: Box, outer: Box) =>
  inner.y >= outer.y - 1 && inner.y + inner.height <= outer.y + outer.height + 1 && inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1;

/** Fails when two of the controls (buttons, selects, fields, links) in `group` overlap, one runs past its edge, or a row of them is not aligned. */
async function assertToolbar(group: Locator, what: string): Promise<void> {
  const controls = group.locator('button:visible, select:visible, input:visible, a:visible');
  const boxes: Box[] = [];
  for (const control of await controls.all()) boxes.push(await box(control));
  assert.ok(boxes.length > 0, `${what}: no controls`);
  // None runs past the group's edges (cut off by the column or panel it sits in).
  const edges = await box(group);
  for (const a of boxes) {
    assert.ok(a.x >= edges.x - 1 && a.x + a.width <= edges.x + edges.width + 1, `${what}: a control runs past the group's edge: ${JSON.stringify(a)} in ${JSON.stringify(edges)}`);
  }
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) assert.ok(!overlap(a, b), `${what}: controls overlap: ${JSON.stringify(a)} and ${JSON.stringify(b)}`);
  }
  // Controls side by side (their boxes cross the same line) are centred on one line: none floats.
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const sameLine = a.y < b.y + b.height && b.y < a.y + a.height;
      if (sameLine) assert.ok(Math.abs(a.y + a.height / 2 - (b.y + b.height / 2)) <= 2, `${what}: controls on one line are not aligned: ${JSON.stringify(a)} and ${JSON.stringify(b)}`);
    }
  }
}

const thread = (page: Page) => page.getByRole('list', { name: 'Messages' });
const details = (page: Page) => page.getByRole('region', { name: 'Conversation details' });

/** Whether the thread's newest message is inside the thread's visible area. */
async function newestInView(page: Page): Promise<boolean> {
  const area = await box(thread(page));
  const newest = await box(thread(page).locator(':scope > li').last());
  return inside(newest, area);
}

for (const dialect of DIALECTS) {
  describe(`the inbox's layout [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let seeded: SeededInbox;
    const contexts: BrowserContext[] = [];
    const pages = () => contexts.flatMap((context) => context.pages());
    // Screenshots go to the docs from the first database's run when asked, else to a temporary folder.
    const toDocs = UPDATE_SCREENSHOTS && dialect === DIALECTS[0];
    const shots = toDocs ? DOCS_IMAGES : mkdtempSync(join(tmpdir(), 'loopdesk-screenshots-'));
    const step = (name: string, body: () => Promise<void>) => it(name, () => withScreenshots(`${dialect} layout ${name}`, pages, body));

    /** A browser profile signed in as the owner, at `viewport`, showing the seeded data at the seed's fixed clock. */
    async function owner(viewport: ViewportName): Promise<Page> {
      const context = await appContext(browser, app.baseUrl, viewport, { timezoneId: 'UTC', locale: 'en-US' });
      contexts.push(context);
      await seeded.showAtFixedTime(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await signIn(page, OWNER.email);
      return page;
    }

    /** Takes a screenshot once the screen has loaded and the live stream is open (nothing half drawn). */
    async function screenshot(page: Page, name: string): Promise<void> {
      await settled(page);
      const path = join(shots, `${name}.png`);
      await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
      assert.ok(statSync(path).size > 5_000, `${name}.png is nearly empty`);
    }

    let desktop: Page;
    before(async () => {
      mkdirSync(shots, { recursive: true });
      browser = await launchBrowser();
      app = await startAppServer(dialect, { LOOPDESK_SUMMARY_DEBOUNCE_MS: '0' });
      const joined = await fetch(`${app.baseUrl}/auth/invitations/${app.ownerInvitationUrl.split('/').pop()}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...OWNER, password: PASSWORD }),
      });
      assert.equal(joined.status, 200, await joined.text());
      seeded = await seedInbox(app);
      desktop = await owner('desktop');
    });
    after(async () => {
      await browser?.close();
      app?.server.kill('SIGTERM');
      await app?.server.process.exited;
      if (!toDocs) rmSync(shots, { recursive: true, force: true });
    });

    step('lists at least seven conversations at 1280×800, the filters folded into one menu', async () => {
      await desktop.goto('/app/inbox');
      const list = desktop.getByRole('list', { name: 'Conversations' });
      await expect(list.getByText(seeded.longThread.title));
      await expect(desktop.getByText('Live', { exact: true }));
      const area = await box(list);
      let visible = 0;
      for (const row of await list.locator(':scope > li').all()) if (inside(await box(row), area) && (await box(row)).y + (await box(row)).height <= VIEWPORTS.desktop.height) visible++;
      assert.ok(visible >= 7, `${visible} conversations fully visible, not 7`);
      await assertToolbar(desktop.locator('.list-head'), 'the list\'s head');
      await assertToolbar(desktop.getByRole('navigation', { name: 'Views' }), 'the views');
      await screenshot(desktop, 'inbox-desktop');

      // The filters: one button, a panel of selects under it, closed by Escape.
      const filters = desktop.getByRole('button', { name: /^Filters/ });
      await filters.click();
      const panel = desktop.getByRole('group', { name: 'Filters' });
      await panel.getByLabel('Priority').selectOption('urgent');
      await eventually(async () => (await list.locator(':scope > li').count()) === 1, 'only the urgent conversation');
      assert.match(desktop.url(), /priority=urgent/);
      await expect(desktop.getByRole('button', { name: /^Filters\W*1 set$/ }));
      await assertToolbar(panel, 'the filters');
      await assertAccessible(desktop, 'the inbox with its filters open');
      await desktop.keyboard.press('Escape');
      await expectGone(panel);
      assert.equal(await filters.evaluate((element) => element === document.activeElement), true, 'the focus back on the Filters button');
      await filters.click();
      await panel.getByRole('button', { name: 'Reset filters' }).click();
      await eventually(async () => (await list.locator(':scope > li').count()) > 7, 'every open conversation again');
      await desktop.mouse.click(5, VIEWPORTS.desktop.height - 5);
      await expectGone(panel);
    });

    step('gives the thread at least 60 % of the height at 1280×800, its newest message in view when it opens', async () => {
      await desktop.goto(`/app/inbox/${seeded.longThread.id}`);
      await expect(thread(desktop).getByText(seeded.longThread.newest));
      const area = await box(thread(desktop));
      assert.ok(area.height >= 0.6 * VIEWPORTS.desktop.height, `the thread is ${area.height} px high, under 60 % of ${VIEWPORTS.desktop.height}`);
      // The thread is longer than its box, so being in view is something the page did.
      assert.ok(await thread(desktop).evaluate((element) => element.scrollHeight > element.clientHeight + 100), 'the seeded thread overflows');
      await eventually(() => newestInView(desktop), 'the newest message in view');
      await expect(details(desktop).getByText('Automatic summary'));
      // The triage panel filling in beside it leaves the newest message where it was.
      assert.equal(await newestInView(desktop), true);
      await screenshot(desktop, 'conversation-desktop');
      await assertAccessible(desktop, 'a conversation with its details panel');
    });

    step('keeps the newest message in view when one arrives while the reader is at the end, and leaves a reader who scrolled up where they are', async () => {
      const arrived = 'Update: it synced after I reopened the app, but the two notes from this morning are still missing.';
      await seeded.contactWrites(arrived);
      await expect(thread(desktop).getByText(arrived));
      await eventually(() => newestInView(desktop), 'the new message in view');

      // Scrolled to the top, as a reader does: the scroll event comes with the next frame.
      await thread(desktop).evaluate((element) => new Promise((resolve) => {
        element.addEventListener('scroll', resolve, { once: true });
        element.scrollTop = 0;
      }));
      const later = 'Also: my colleague sees the same on Android.';
      await seeded.contactWrites(later);
      await expect(thread(desktop).getByText(later));
      assert.equal(await thread(desktop).evaluate((element) => element.scrollTop), 0, 'a reader who scrolled up stays where they are');
      assert.equal(await newestInView(desktop), false);

      // The reply box grows with what is typed, and the newest message stays in view above it.
      await thread(desktop).evaluate((element) => { element.scrollTop = element.scrollHeight; });
      const replyBefore = await box(desktop.getByRole('textbox', { name: 'Reply' }));
      await desktop.getByRole('textbox', { name: 'Reply' }).fill('Thanks Maya.\n\nWe found it: notes made offline were queued behind a failed upload.\nA fix ships today.\nCould you check the notes once it is out?');
      await eventually(async () => (await box(desktop.getByRole('textbox', { name: 'Reply' }))).height > replyBefore.height + 20, 'the reply box grown');
      await eventually(() => newestInView(desktop), 'the newest message in view above the grown reply box');
      assert.ok((await box(thread(desktop))).height >= 0.45 * VIEWPORTS.desktop.height, 'the thread keeps most of its room');
      await desktop.getByRole('button', { name: 'Send' }).click();
      await expect(thread(desktop).getByText('A fix ships today.', { exact: false }));
      await eventually(() => newestInView(desktop), 'the reply just sent in view');
    });

    step('puts status, assignee, tags, contact and triage in a details panel right of the thread; folding it widens the thread, and the choice is kept', async () => {
      await desktop.goto(`/app/inbox/${seeded.longThread.id}`);
      const panel = details(desktop);
      await expect(panel.getByLabel('Status'));
      for (const part of [panel.getByLabel('Priority'), panel.getByLabel('Assignee'), panel.getByRole('group', { name: 'Conversation tags' }),
        panel.locator('details.contact-panel'), panel.getByRole('region', { name: 'Summary and triage' }), panel.getByRole('button', { name: 'Create issue' })]) {
        await expect(part);
      }
      const threadBox = await box(thread(desktop));
      const panelBox = await box(panel);
      assert.ok(panelBox.x >= threadBox.x + threadBox.width - 1, `the panel (x ${panelBox.x}) is right of the thread (ends at ${threadBox.x + threadBox.width})`);
      assert.ok(panelBox.y < threadBox.y + threadBox.height && threadBox.y < panelBox.y + panelBox.height, 'the panel is beside the thread');
      await assertToolbar(panel.getByRole('group', { name: 'Actions' }), 'the actions');
      await assertToolbar(panel.locator('.details-properties'), 'status, priority and assignee');
      await assertToolbar(desktop.locator('.conversation-title-row'), 'the conversation\'s head');
      await assertToolbar(desktop.locator('.reply-actions'), 'the reply box\'s buttons');

      const toggle = desktop.getByRole('button', { name: 'Details' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      await toggle.click();
      await expectGone(panel);
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      const wider = await box(thread(desktop));
      assert.ok(wider.width >= threadBox.width + panelBox.width - 2, `the thread widened from ${threadBox.width} to ${wider.width}`);
      await eventually(() => newestInView(desktop), 'the newest message still in view');
      // Kept in this browser: still folded after a reload and on another conversation.
      await desktop.reload();
      await expect(thread(desktop).getByText(seeded.longThread.newest));
      assert.equal(await details(desktop).count(), 0);
      assert.equal(await desktop.getByRole('button', { name: 'Details' }).getAttribute('aria-expanded'), 'false');
      await desktop.getByRole('button', { name: 'Details' }).click();
      await expect(details(desktop).getByLabel('Status'));
    });

    step('puts the details panel below the thread under 1024 px', async () => {
      await desktop.setViewportSize({ width: 900, height: 800 });
      try {
        await desktop.goto(`/app/inbox/${seeded.longThread.id}`);
        await expect(thread(desktop).getByText(seeded.longThread.newest));
        await eventually(() => newestInView(desktop), 'the newest message in view');
        const threadBox = await box(thread(desktop));
        assert.ok(threadBox.height >= 0.5 * 800, `the thread is ${threadBox.height} px high`);
        // Below the reply box, reached by scrolling the pane or with "Go to details".
        await desktop.getByRole('button', { name: 'Go to details' }).click();
        await expect(details(desktop).getByLabel('Status'));
        const panelBox = await box(details(desktop));
        const afterJump = await box(thread(desktop));
        assert.ok(panelBox.y >= afterJump.y + afterJump.height - 1, `the panel (y ${panelBox.y}) is below the thread (ends at ${afterJump.y + afterJump.height})`);
        assert.ok(Math.abs(panelBox.x - afterJump.x) <= 1, 'the panel lines up with the thread');
        assert.equal(await desktop.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'nothing wider than the window');
        await assertToolbar(details(desktop).getByRole('group', { name: 'Actions' }), 'the actions under 1024 px');
      } finally {
        await desktop.setViewportSize(VIEWPORTS.desktop);
      }
    });

    step('focuses the search field when search opens with / or with a click', async () => {
      await desktop.goto('/app/inbox');
      await settled(desktop);
      const focused = () => desktop.getByRole('dialog', { name: 'Search' }).getByRole('combobox').evaluate((element) => element === document.activeElement);
      await desktop.keyboard.press('/');
      await expect(desktop.getByRole('dialog', { name: 'Search' }));
      assert.equal(await focused(), true, 'the field focused after /');
      await desktop.keyboard.type('sync');
      await expect(desktop.getByRole('dialog', { name: 'Search' }).getByRole('option', { name: new RegExp(seeded.longThread.title) }));
      await screenshot(desktop, 'search-desktop');
      await desktop.keyboard.press('Escape');
      await expectGone(desktop.getByRole('dialog', { name: 'Search' }));
      await desktop.getByRole('button', { name: 'Search' }).click();
      await expect(desktop.getByRole('dialog', { name: 'Search' }));
      assert.equal(await focused(), true, 'the field focused after a click');
      await desktop.keyboard.press('Escape');
    });

    step('shows the Triage view at 1280×800', async () => {
      await desktop.goto('/app/triage');
      await expect(desktop.getByRole('list', { name: 'Open suggestions' }));
      await screenshot(desktop, 'triage-desktop');
    });

    step('works on a phone: the list, then the conversation and back, nothing wider than the screen', async () => {
      const phone = await owner('phone');
      const noOverflow = () => phone.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
      await phone.goto('/app/inbox');
      const row = phone.getByRole('link', { name: new RegExp(seeded.longThread.title) });
      await expect(row);
      assert.equal(await noOverflow(), true, 'the list fits the screen');
      await screenshot(phone, 'inbox-phone');

      await row.click();
      await expect(thread(phone).getByText('Also: my colleague sees the same on Android.'));
      await eventually(async () => newestInView(phone), 'the newest message in view on the phone');
      const threadBox = await box(thread(phone));
      assert.ok(threadBox.height >= 0.4 * VIEWPORTS.phone.height, `the thread is ${threadBox.height} px high on a phone`);
      await expect(phone.getByRole('textbox', { name: 'Reply' }));
      assert.equal(await noOverflow(), true, 'the conversation fits the screen');
      await screenshot(phone, 'conversation-phone');
      await phone.getByRole('button', { name: 'Go to details' }).click();
      await expect(details(phone).getByLabel('Status'));
      assert.equal(await noOverflow(), true, 'the details fit the screen');
      await assertToolbar(details(phone).getByRole('group', { name: 'Actions' }), 'the actions on a phone');
      await assertAccessible(phone, 'a conversation on a phone');

      await phone.getByRole('link', { name: 'All conversations' }).click();
      await expect(phone.getByRole('list', { name: 'Conversations' }));

      await phone.getByRole('button', { name: 'Search' }).click();
      assert.equal(await phone.getByRole('dialog', { name: 'Search' }).getByRole('combobox').evaluate((element) => element === document.activeElement), true, 'the field focused on a phone');
      await phone.keyboard.type('export');
      await expect(phone.getByRole('dialog', { name: 'Search' }).getByRole('option').first());
      assert.equal(await noOverflow(), true, 'search fits the screen');
      await screenshot(phone, 'search-phone');
      await phone.keyboard.press('Escape');

      await phone.goto('/app/triage');
      await expect(phone.getByRole('list', { name: 'Open suggestions' }));
      assert.equal(await noOverflow(), true, 'the Triage view fits the screen');
      await screenshot(phone, 'triage-phone');
    });
  });
}
