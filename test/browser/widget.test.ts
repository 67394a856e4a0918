// The widget in a real browser (docs/widget.md, "The embeddable widget"): host pages on other
// origins than the server's embed it with the snippet; the team answers through /api/v1.
// SQLite only: what the browser does is the same on either database, and the live channel's
// PostgreSQL path (LISTEN/NOTIFY) has its own tests on both.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { assertAccessible, launchBrowser, serveHostPage, withPage, type HostPage } from '../helpers/browser.js';
import { createProduct } from '../helpers/factories.js';
import { createTestContext, type TestContext } from '../helpers/harness.js';

/** Polls `check` until it holds (or fails after `ms`). */
async function eventually(what: string, check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const isFocused = (locator: Locator) => locator.evaluate((element) => (element.getRootNode() as Document | ShadowRoot).activeElement === element);
/**
 * Focused, in a document that has the focus: the frame runs in its own renderer process (another
 * origin), and the browser routes keystrokes to it only once it knows the frame is focused.
 */
/**
 * Presses a probe key until it lands in `locator`, then clears it. The cross-origin frame runs in its
 * own renderer, which knows it has the focus a moment before the browser routes keys to it; keys sent
 * in between go to the host page and are lost (never delivered late), so a key that arrived proves
 * the route.
 */
async function waitForKeystrokes(page: Page, locator: Locator): Promise<void> {
  await eventually('keystrokes going to the Message box', async () => {
    await page.keyboard.press('x');
    return (await locator.inputValue()).length > 0;
  });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  assert.equal(await locator.inputValue(), '');
}

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

  /** A product embeddable from `localhost` pages, without proof of work unless asked for. */
  const product = (overrides: Record<string, unknown> = {}) =>
    createProduct(ctx.a.api, { domain: 'localhost', widget_config: { proof_of_work: false }, ...overrides });

  async function hostPage(hostname: string, body: string): Promise<HostPage> {
    const page = await serveHostPage(hostname, body);
    hostPages.push(page);
    return page;
  }

  const snippet = (widgetKey: string, extra = '') => `<script src="${base}/widget.js" data-widget-key="${widgetKey}"${extra} async></script>`;

  /** Opens the host page and the widget by its button; returns the frame. */
  async function openWidget(page: Page, url: string): Promise<FrameLocator> {
    await page.goto(url);
    await page.getByRole('button', { name: 'Open support' }).click();
    const frame = page.frameLocator('iframe[title="Support"]');
    await frame.getByRole('textbox', { name: 'Message' }).waitFor();
    return frame;
  }

  async function conversationsOf(productId: string, type = 'chat') {
    return (await ctx.a.api.get(`/api/v1/conversations?product_id=${productId}&type=${type}`)).body.data as any[];
  }

  it('chats: a message goes to the team, its reply through /api/v1 appears live, the resolved conversation is rated', async (t) => {
    const { id, widget_key } = await product();
    const host = await hostPage('localhost', snippet(widget_key));
    await withPage(t, browser, async (page) => {
      const frame = await openWidget(page, host.url);
      const message = frame.getByRole('textbox', { name: 'Message' });
      await eventually('focus in the Message box', () => isFocused(message));
      await message.fill('My export never finishes');
      await frame.getByRole('button', { name: 'Send' }).click();
      await eventually('the conversation', async () => (await conversationsOf(id)).length === 1);
      const [conversation] = await conversationsOf(id);
      assert.equal(conversation.source, 'chat');

      const sentAt = Date.now();
      await ctx.a.api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'Which browser are you on?' });
      await frame.getByRole('list', { name: 'Conversation' }).getByText('Which browser are you on?').waitFor({ timeout: 2000 });
      assert.ok(Date.now() - sentAt < 2000, 'within 2 seconds');
      await eventually('the reply read out', async () => (await frame.locator('[aria-live="polite"]').textContent())?.includes('Which browser are you on?') ?? false);

      await ctx.a.api.patch(`/api/v1/conversations/${conversation.id}`, { status: 'resolved' });
      await frame.getByRole('button', { name: 'Rate 4 out of 5' }).click();
      await eventually('the rating in /api/v1', async () => (await ctx.a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data.rating === 4);
      assert.equal(await frame.getByRole('button', { name: 'Rate 4 out of 5' }).getAttribute('aria-pressed'), 'true');
    });
  });

  it('signs the host page\'s user in with data-identity-token, handed to the frame by postMessage', async (t) => {
    const { id, widget_key } = await product();
    const secret = (await ctx.a.api.post(`/api/v1/products/${id}/identity-secret`)).body.data.identity_secret;
    const token = await new SignJWT({ email: 'ana@acme.test', name: 'Ana' })
      .setProtectedHeader({ alg: 'HS256' }).setSubject('user-42').setAudience(widget_key).setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    const host = await hostPage('localhost', snippet(widget_key, ` data-identity-token="${token}"`));
    await withPage(t, browser, async (page) => {
      const frame = await openWidget(page, host.url);
      await frame.getByRole('textbox', { name: 'Message' }).fill('Signed in and stuck');
      await frame.getByRole('button', { name: 'Send' }).click();
      await eventually('the conversation', async () => (await conversationsOf(id)).length === 1);
      const [conversation] = await conversationsOf(id);
      assert.equal(conversation.contact.email, 'ana@acme.test');
      assert.equal(conversation.contact.verified, true);
    });
  });

  it('is usable by keyboard alone: Tab to the launcher, Enter opens, Escape closes and gives focus back', async (t) => {
    const { id, widget_key } = await product();
    const host = await hostPage('localhost', `<a href="#top">A link of the host page</a>${snippet(widget_key)}`);
    await withPage(t, browser, async (page) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(host.url);
      const launcher = page.getByRole('button', { name: 'Open support' });
      await launcher.waitFor();
      for (let i = 0; i < 5 && !(await isFocused(launcher)); i++) await page.keyboard.press('Tab');
      assert.ok(await isFocused(launcher), 'Tab reaches the launcher');
      await page.keyboard.press('Enter');
      assert.equal(await launcher.getAttribute('aria-expanded'), 'true');
      const animation = await page.locator('[data-loopdesk-widget]').evaluate((host) => getComputedStyle(host.shadowRoot!.querySelector('.panel')!).animationName);
      assert.equal(animation, 'none', 'no opening animation under prefers-reduced-motion');
      const frame = page.frameLocator('iframe[title="Support"]');
      const message = frame.getByRole('textbox', { name: 'Message' });
      await waitForKeystrokes(page, message);
      await page.keyboard.type('Typed without a mouse');
      assert.equal(await message.inputValue(), 'Typed without a mouse');
      await page.keyboard.press('Enter');
      await eventually('the message sent', async () => (await conversationsOf(id)).length === 1);
      await page.keyboard.press('Escape');
      await eventually('focus back on the launcher', () => isFocused(launcher));
      assert.equal(await launcher.getAttribute('aria-expanded'), 'false');
      assert.ok(await page.locator('iframe[title="Support"]').isHidden());
    });
  });

  it('has no accessibility violations that axe finds, in either view', async (t) => {
    const { id, widget_key } = await product();
    await ctx.a.api.post('/api/v1/conversations', { product_id: id, type: 'idea', title: 'Dark mode' });
    const host = await hostPage('localhost', snippet(widget_key));
    await withPage(t, browser, async (page) => {
      await openWidget(page, host.url);
      const frame = page.frames().find((candidate) => candidate.url().includes('/widget/frame/'))!;
      await assertAccessible(frame, 'the chat view');
      await page.frameLocator('iframe[title="Support"]').getByRole('tab', { name: 'Ideas' }).click();
      await page.frameLocator('iframe[title="Support"]').getByRole('button', { name: 'Upvote Dark mode' }).waitFor();
      await assertAccessible(frame, 'the ideas view');
      await assertAccessible(page, 'the host page with the widget open');
    });
  });

  it('lists ideas with an upvote button each, and takes a new idea', async (t) => {
    const { id, widget_key } = await product();
    const idea = (await ctx.a.api.post('/api/v1/conversations', { product_id: id, type: 'idea', title: 'Export to CSV' })).body.data;
    const host = await hostPage('localhost', snippet(widget_key));
    await withPage(t, browser, async (page) => {
      const frame = await openWidget(page, host.url);
      await frame.getByRole('tab', { name: 'Ideas' }).click();
      const upvote = frame.getByRole('button', { name: 'Upvote Export to CSV' });
      await upvote.click();
      await eventually('the upvote in /api/v1', async () => (await ctx.a.api.get(`/api/v1/conversations/${idea.id}`)).body.data.upvotes === 1);
      assert.equal(await upvote.getAttribute('aria-pressed'), 'true');

      await frame.getByRole('button', { name: 'Suggest an idea' }).click();
      await frame.getByRole('textbox', { name: 'Title' }).fill('Keyboard shortcuts');
      await frame.getByRole('textbox', { name: 'Details' }).fill('j and k to move between issues');
      await frame.getByRole('button', { name: 'Submit idea' }).click();
      await frame.getByRole('button', { name: 'Upvote Keyboard shortcuts' }).waitFor();
      const ideas = await conversationsOf(id, 'idea');
      assert.deepEqual(ideas.map((item) => item.title).sort(), ['Export to CSV', 'Keyboard shortcuts']);
    });
  });

  it('keeps a message typed offline and sends it once when the connection is back', async (t) => {
    const { id, widget_key } = await product();
    const host = await hostPage('localhost', snippet(widget_key));
    await withPage(t, browser, async (page, context) => {
      const frame = await openWidget(page, host.url);
      await context.setOffline(true);
      await frame.getByRole('textbox', { name: 'Message' }).fill('Sent from a tunnel');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.getByText('You are offline').waitFor();
      await frame.getByText('Waiting for the connection').waitFor();
      await context.setOffline(false);
      await eventually('the message delivered', async () => (await conversationsOf(id)).length === 1, 15_000);
      await frame.getByText('Waiting for the connection').waitFor({ state: 'detached' });
      const [conversation] = await conversationsOf(id);
      const detail = (await ctx.a.api.get(`/api/v1/conversations/${conversation.id}`)).body.data;
      assert.deepEqual(detail.messages.map((message: any) => message.body), ['Sent from a tunnel']);
    });
  });

  it('never posts a message twice when the answer to it is lost', async (t) => {
    const { id, widget_key } = await product();
    const host = await hostPage('localhost', snippet(widget_key));
    await withPage(t, browser, async (page, context) => {
      const frame = await openWidget(page, host.url);
      let lost = 0;
      // The first POST reaches the server, which writes it; its answer never reaches the widget.
      await context.route('**/widget/v1/*/conversations', async (route) => {
        if (route.request().method() !== 'POST' || lost > 0) return route.continue();
        lost++;
        await route.fetch();
        await route.abort('connectionreset');
      });
      await frame.getByRole('textbox', { name: 'Message' }).fill('Only once, please');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.getByText('Only once, please').waitFor();
      await eventually('the retry answered', async () => (await frame.getByText('Sending…').count()) === 0, 15_000);
      assert.equal(lost, 1);
      const conversations = await conversationsOf(id);
      assert.equal(conversations.length, 1, 'one conversation');
      const detail = (await ctx.a.api.get(`/api/v1/conversations/${conversations[0].id}`)).body.data;
      assert.equal(detail.messages.length, 1, 'one message');
    });
  });

  it('solves the proof of work in a worker, without holding up the page', async (t) => {
    const { id, widget_key } = await product({ widget_config: { proof_of_work: true } });
    const host = await hostPage('localhost', snippet(widget_key));
    await withPage(t, browser, async (page) => {
      // Every dedicated worker the page (its frames included) starts, from the first.
      const workers: string[] = [];
      page.on('worker', (worker) => workers.push(worker.url()));
      const frame = await openWidget(page, host.url);
      const widget = page.frames().find((candidate) => candidate.url().includes('/widget/frame/'))!;
      // The longest the frame's main thread was busy while the session was being made.
      const lag = widget.evaluate(() => new Promise<number>((resolve) => {
        let longest = 0;
        let last = performance.now();
        const timer = setInterval(() => {
          const now = performance.now();
          longest = Math.max(longest, now - last);
          last = now;
        }, 10);
        setTimeout(() => (clearInterval(timer), resolve(longest)), 1500);
      }));
      // The solving happens in a dedicated worker (deterministic); and the frame stays responsive
      // meanwhile (generous: a shared CI machine delays timers by itself; a solve on the main thread
      // blocks for about a second).
      await frame.getByRole('textbox', { name: 'Message' }).fill('Proven human');
      await frame.getByRole('button', { name: 'Send' }).click();
      assert.ok((await lag) < 500, `the frame's main thread was blocked for ${await lag} ms`);
      await eventually('the conversation', async () => (await conversationsOf(id)).length === 1, 20_000);
      assert.ok(workers.some((url) => url.includes('pow.worker')), `the proof of work ran in its worker (workers: ${workers.join(', ') || 'none'})`);
    });
  });

  it('shows no launcher on a page outside product.domain, and refuses to be framed there', async (t) => {
    const { widget_key } = await product();
    const frame = `<iframe title="direct" src="${base}/widget/frame/${widget_key}"></iframe>`;
    // Another origin: the same loopback listener under the server's own host name, another port.
    const refused = await hostPage('127.0.0.1', snippet(widget_key) + frame);
    const allowed = await hostPage('localhost', frame);
    await withPage(t, browser, async (page) => {
      await page.goto(allowed.url);
      await page.frameLocator('iframe').locator('#app').waitFor({ state: 'attached' });
    });
    await withPage(t, browser, async (page) => {
      const violations: string[] = [];
      page.on('console', (message) => void (message.text().includes('frame-ancestors') && violations.push(message.text())));
      await page.goto(refused.url);
      await page.waitForTimeout(700);
      assert.equal(await page.frameLocator('iframe[title="direct"]').locator('#app').count(), 0, 'the frame did not load');
      assert.equal(violations.length, 1, 'Chromium reports the frame-ancestors violation');
      assert.equal(await page.getByRole('button', { name: 'Open support' }).count(), 0, 'no launcher');
    });
  });
});

describe('the widget\'s event stream in a browser', () => {
  let ctx: TestContext & { close(): Promise<void> };
  let browser: Browser;
  let host: HostPage;

  before(async () => {
    // Every stream ends after a second: the widget reconnects all the time.
    ctx = await createTestContext('sqlite', { streams: { maxStreamMs: 1000 } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await ctx?.close();
  });

  it('reconnects with Last-Event-ID and shows every reply once', async (t) => {
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const { id, widget_key } = await createProduct(ctx.a.api, { domain: 'localhost', widget_config: { proof_of_work: false } });
    host = await serveHostPage('localhost', `<script src="${base}/widget.js" data-widget-key="${widget_key}" async></script>`);
    await withPage(t, browser, async (page) => {
      const resumedFrom: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/events')) resumedFrom.push(request.headers()['last-event-id'] ?? '');
      });
      await page.goto(host.url);
      await page.getByRole('button', { name: 'Open support' }).click();
      const frame = page.frameLocator('iframe[title="Support"]');
      await frame.getByRole('textbox', { name: 'Message' }).fill('Anyone there?');
      await frame.getByRole('button', { name: 'Send' }).click();
      let conversationId = '';
      await eventually('the conversation', async () => {
        conversationId = (await ctx.a.api.get(`/api/v1/conversations?product_id=${id}`)).body.data[0]?.id ?? '';
        return conversationId !== '';
      });
      const replies = ['First reply', 'Second reply', 'Third reply'];
      for (const body of replies) {
        await ctx.a.api.post(`/api/v1/conversations/${conversationId}/messages`, { body });
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
      const list = frame.getByRole('list', { name: 'Conversation' });
      for (const body of replies) await list.getByText(body).waitFor();
      await eventually('two reconnections', async () => resumedFrom.length >= 3, 10_000);
      for (const body of replies) assert.equal(await list.getByText(body).count(), 1, `${body} once`);
      assert.ok(resumedFrom.slice(1).every((lastEventId) => lastEventId !== ''), 'every reconnection sends Last-Event-ID');
    });
  });
});
