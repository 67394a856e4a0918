// Single sign-on in the team app (docs/sso.md), in a real browser against a real OpenID provider
// (node-oidc-provider in this process): the owner sets it up in Settings → Single sign-on (a bad
// issuer refused under its field, the redirect URI to copy), then a new person signs in with "Sign
// in with SSO" and joins; a refused sign-in's message; no serious axe violation at either size.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { closeAppPage, openAppPage, settled, type AppPage } from '../helpers/app-server.js';
import { appContext, assertAccessible, withScreenshots } from '../helpers/browser.js';
import { expect } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';
import { REFUSED_URL } from '../helpers/ports.js';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider.js';

for (const dialect of DIALECTS) {
  describe(`single sign-on in the app [${dialect}]`, () => {
    let opened: AppPage;
    let provider: TestProvider;
    const contexts: BrowserContext[] = [];
    const pages = () => [opened.page, ...contexts.flatMap((context) => context.pages())];

    async function visitor(viewport: 'desktop' | 'phone' = 'desktop'): Promise<Page> {
      const context = await appContext(opened.browser, opened.app.baseUrl, viewport);
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    }

    before(async () => {
      opened = await openAppPage(dialect);
      provider = await startOidcProvider({ redirectUris: [`${opened.app.baseUrl}/auth/sso/callback`] });
    });
    after(async () => {
      await closeAppPage(opened ?? {});
      await provider?.close();
    });

    it('sets single sign-on up in Settings: the issuer checked on saving, the redirect URI shown', () => withScreenshots(`${dialect} sso settings`, pages, async () => {
      const { page } = opened;
      await page.goto('/app/settings/single-sign-on');
      await settled(page);
      const redirectUri = page.getByLabel('Redirect URI', { exact: true });
      await expect(redirectUri);
      assert.equal((await redirectUri.textContent())!.trim(), `${opened.app.baseUrl}/auth/sso/callback`);
      await assertAccessible(page, 'Settings → Single sign-on, empty');

      await page.getByLabel('Issuer').fill(REFUSED_URL.replace(':0', ':1'));
      await page.getByLabel('Client ID').fill(provider.client.client_id);
      await page.getByLabel('Client secret').fill(provider.client.client_secret);
      await page.getByLabel('Allowed email domains').fill('example.com');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(/discovery document .* could not be used/));
      await assertAccessible(page, 'Settings → Single sign-on, refused');

      await page.getByLabel('Issuer').fill(provider.issuer);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('button', { name: 'Turn off' }));
      const stored = (await opened.app.api('GET', '/api/v1/sso')).data;
      assert.deepEqual([stored.issuer, stored.client_id, stored.allowed_domains, stored.default_role, stored.enforce],
        [provider.issuer, provider.client.client_id, ['example.com'], 'agent', false]);
      await page.reload();
      await settled(page);
      assert.equal(await page.getByLabel('Issuer').inputValue(), provider.issuer);
      assert.equal(await page.getByLabel('Client secret').inputValue(), '', 'the secret is never shown');
      await assertAccessible(page, 'Settings → Single sign-on, saved');
    }));

    for (const viewport of ['desktop', 'phone'] as const) {
      it(`signs a new person in with "Sign in with SSO" at ${viewport} size`, () => withScreenshots(`${dialect} sso sign-in ${viewport}`, pages, async () => {
        const page = await visitor(viewport);
        await page.goto('/app/sign-in');
        const button = page.getByRole('link', { name: 'Sign in with SSO' });
        await expect(button);
        await assertAccessible(page, `the sign-in page with SSO (${viewport})`);
        provider.signInAs(`browser-${viewport}`, { email: `sso-${viewport}@example.com`, email_verified: true, name: `Sso ${viewport}` });
        await button.click();
        await expect(page.getByRole('link', { name: 'Inbox' }));
        const members = (await opened.app.api('GET', '/api/v1/members?limit=200')).data;
        assert.ok(members.some((member: { display_name: string; role: string }) => member.display_name === `Sso ${viewport}` && member.role === 'agent'));
      }));

      it(`explains a refused sign-in on the sign-in page at ${viewport} size`, () => withScreenshots(`${dialect} sso refused ${viewport}`, pages, async () => {
        const page = await visitor(viewport);
        provider.signInAs(`foreign-${viewport}`, { email: `mallory-${viewport}@evil.test`, email_verified: true });
        await page.goto('/app/sign-in');
        await page.getByRole('link', { name: 'Sign in with SSO' }).click();
        await expect(page.getByRole('alert').filter({ hasText: 'domain may not sign in' }));
        assert.match(page.url(), /\/app\/sign-in\?error=sso_domain_not_allowed/);
        await expect(page.getByRole('button', { name: 'Sign in' }));
        await assertAccessible(page, `the sign-in page after a refusal (${viewport})`);
      }));
    }
  });
}
