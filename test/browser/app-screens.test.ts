// Every screen of the team app, at 1280×800 and at 390×844, with something on it (a conversation
// with its summary, a triage draft, a note, tags and an assignee; saved replies; a contact's page;
// the Triage view with a link and a draft): no serious or
// critical axe-core violation anywhere. Also what each role may see: settings are an owner's and
// an admin's, not an agent's; an API key is shown once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { acceptInvitation, settled, startAppServer, type AppServer } from '../helpers/app-server.js';
import { appContext, assertAccessible, launchBrowser, withScreenshots, type ViewportName } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';
import { CSV_ISSUE, CSV_REPEAT } from '../helpers/triage.js';

async function seed(app: AppServer) {
  const product = (await app.api('POST', '/api/v1/products', { name: 'Acme Mobile App' })).data;
  const conversation = (await app.api('POST', '/api/v1/conversations', {
    product_id: product.id, title: 'Export to CSV is empty', contact: { name: 'Ana Lima', email: 'ana@example.com' }, body: 'The file has headers only.',
  })).data;
  await app.api('POST', `/api/v1/conversations/${conversation.id}/messages`, { body: 'Thanks, looking into it.' });
  // The inbox for a team: a note, tags, an assignee, a saved reply, the contact's own page.
  await app.api('POST', `/api/v1/conversations/${conversation.id}/notes`, { body: 'Customer is on the legacy plan.' });
  await app.api('PATCH', `/api/v1/conversations/${conversation.id}`, { tags: ['billing', 'export'], assignee_id: 'me' });
  await app.api('POST', '/api/v1/saved-replies', { title: 'Greeting', body: 'Hi {{contact.first_name}}, thanks for writing.' });
  const issue = (await app.api('POST', '/api/v1/issues', { product_id: product.id, title: 'CSV export writes no rows', status: 'done' })).data;
  await app.api('POST', `/api/v1/issues/${issue.id}/conversations`, { conversation_id: conversation.id });
  await app.api('POST', '/api/v1/issues', { product_id: product.id, title: 'Dark mode', priority: 'high' });
  // Triage: a draft for the first conversation, a link for a repeat of an open issue, both in the queue.
  await app.api('POST', '/api/v1/issues', { product_id: product.id, ...CSV_ISSUE });
  const repeat = (await app.api('POST', '/api/v1/conversations', { product_id: product.id, ...CSV_REPEAT, contact: { name: 'Bo Chen' } })).data;
  for (const { id } of [conversation, repeat]) await app.api('POST', `/api/v1/conversations/${id}/triage`);
  await eventually(async () => (await app.api('GET', `/api/v1/conversations/${conversation.id}`)).data.ai_summary !== null, 'the summary');
  const release = (await app.api('POST', '/api/v1/releases', { product_id: product.id, title: 'October fixes', version: '2.3.0', released_at: null })).data;
  const webhook = (await app.api('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['*'], description: 'CRM sync' })).data;
  return [
    '/app/inbox', `/app/inbox/${conversation.id}`, '/app/triage', '/app/issues', `/app/issues/${issue.shortcode}`,
    '/app/releases', '/app/releases/new', `/app/releases/${release.id}`,
    '/app/settings/products', `/app/settings/products/${product.id}`, '/app/settings/members',
    '/app/settings/api-keys', '/app/settings/webhooks', `/app/settings/webhooks/${webhook.id}`,
    '/app/settings/saved-replies', `/app/contacts/${conversation.contact.id}`,
  ];
}

for (const dialect of DIALECTS) {
  describe(`the team app's screens [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let screens: string[];
    const contexts: BrowserContext[] = [];
    const pages = () => contexts.flatMap((context) => context.pages());

    /** A new browser profile signed in as a new member of `role` (through an invitation). */
    async function person(role: 'admin' | 'agent', name: string, viewport: ViewportName = 'desktop'): Promise<Page> {
      const context = await appContext(browser, app.baseUrl, viewport);
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const invitation = await app.api('POST', '/api/v1/members/invitations', { email: `${name.toLowerCase()}@example.com`, role });
      await acceptInvitation(page, invitation.data.url, name);
      return page;
    }

    before(async () => {
      // One at a time: a server that fails to start must not leave a browser keeping the process alive.
      browser = await launchBrowser();
      app = await startAppServer(dialect, { LOOPDESK_WEBHOOKS_ALLOW_PRIVATE: '1', LOOPDESK_SUMMARY_DEBOUNCE_MS: '0' });
      screens = await seed(app);
    });
    after(async () => {
      await browser?.close();
      app?.server.kill('SIGTERM');
      await app?.server.process.exited;
    });

    for (const viewport of ['desktop', 'phone'] as const) {
      it(`passes axe on every screen at ${viewport} size`, () => withScreenshots(`${dialect} screens ${viewport}`, pages, async () => {
        const page = await person('admin', `Admin${viewport}`, viewport);
        for (const screen of screens) {
          await page.goto(screen);
          await settled(page);
          await assertAccessible(page, `${screen} (${viewport})`);
        }
      }));
    }

    it('shows an API key once, then only its label', () => withScreenshots(`${dialect} api key`, pages, async () => {
      const page = await person('admin', 'Keymaker');
      await page.goto('/app/settings/api-keys');
      await page.getByRole('button', { name: 'New API key' }).click();
      await page.getByLabel('Label').fill('Zapier');
      await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByLabel('API key', { exact: true });
      await expect(shown);
      const key = (await shown.textContent())!.trim();
      assert.match(key, /^ldk_[0-9A-Za-z]{40}$/);
      const me = await fetch(`${app.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(me.status, 200);
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByRole('cell', { name: /Zapier/ }));
      assert.equal(await page.getByText(key).count(), 0);
      await page.reload();
      await settled(page);
      assert.equal(await page.getByText(key).count(), 0);
    }));

    it('rotates a webhook secret: the new one shown once, the old one still signing for a day', () => withScreenshots(`${dialect} webhook secret`, pages, async () => {
      const page = await person('admin', 'Rotator');
      const webhookPath = screens.find((screen) => screen.startsWith('/app/settings/webhooks/'))!;
      const id = webhookPath.split('/').pop()!;
      await page.goto(webhookPath);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const shown = page.getByLabel('New signing secret', { exact: true });
      await expect(shown);
      assert.match((await shown.textContent())!.trim(), /^whsec_[A-Za-z0-9+/]{43}=$/);
      const { previous_secret_expires_at: until } = (await app.api('GET', `/api/v1/webhooks/${id}`)).data;
      assert.ok(Math.abs(Date.parse(until) - Date.now() - 24 * 3600_000) < 60_000, until);
      await expect(page.getByText(/^Also signs until /));
    }));

    it('hides settings from an agent', () => withScreenshots(`${dialect} agent`, pages, async () => {
      const page = await person('agent', 'Agent');
      await expect(page.getByRole('link', { name: 'Issues' }));
      assert.equal(await page.getByRole('link', { name: 'Settings' }).count(), 0);
      await page.goto('/app/settings/webhooks');
      await expect(page.getByText('Settings are for owners and admins'));
      await expectGone(page.getByRole('button', { name: 'Add endpoint' }));
    }));

    it('signs out and back in with email and password', () => withScreenshots(`${dialect} sign in`, pages, async () => {
      const page = await person('agent', 'Returning');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page.getByRole('button', { name: 'Sign in' }));
      await assertAccessible(page, 'the sign-in page');
      await page.getByLabel('Email').fill('returning@example.com');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert'));
      await page.getByLabel('Password').fill('correct horse battery staple');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('link', { name: 'Inbox' }));
    }));
  });
}
