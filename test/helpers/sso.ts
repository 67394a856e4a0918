// Single sign-on in tests (docs/sso.md): a workspace set up with the in-process provider, and a
// browser's round trip start → provider → callback.
import assert from 'node:assert/strict';
import type { ApiResponse, Client, TestContext, WorkspaceFixture } from './harness.js';
import { throughProvider, type TestAccount, type TestProvider } from './oidc-provider.js';

/** Where app.inject's requests (Host `localhost:80`) are sent back. */
export const TEST_REDIRECT_URIS = ['http://localhost/auth/sso/callback'];

/** PUT /api/v1/sso for the workspace with the provider's client; fails unless 200. */
export async function setUpSso(workspace: WorkspaceFixture, provider: TestProvider, settings: Record<string, unknown> = {}): Promise<ApiResponse> {
  const res = await workspace.api.request('PUT', '/api/v1/sso', {
    body: { issuer: provider.issuer, client_id: provider.client.client_id, client_secret: provider.client.client_secret, ...settings },
  });
  assert.equal(res.status, 200, res.text);
  return res;
}

/** The cookie the start sets to tie the sign-in to the browser. */
export function browserCookieOf(res: ApiResponse): string {
  const header = [res.headers['set-cookie']].flat().find((value) => String(value).startsWith('loopdesk_sso='));
  assert.ok(header, `no loopdesk_sso cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return String(header).split(';')[0];
}

export interface Begun {
  /** The callback URL (path and query) the provider sent the browser to. */
  callback: string;
  /** The browser's cookie of the start. */
  cookie: string;
}

/** Starts a sign-in and goes through the provider as `sub`, up to (not including) the callback. */
export async function beginSsoSignIn(context: TestContext, provider: TestProvider, workspaceId: string, sub: string, account: TestAccount): Promise<Begun> {
  const start = await context.client(null).get(`/auth/sso/start?workspace_id=${workspaceId}`);
  assert.equal(start.status, 302, start.text);
  provider.signInAs(sub, account);
  const callback = await throughProvider(provider, String(start.headers.location));
  return { callback: `${callback.pathname}${callback.search}`, cookie: browserCookieOf(start) };
}

/** The callback as the browser that began the sign-in (or `client`) requests it. */
export const finishSsoSignIn = (context: TestContext, begun: Begun, client: Client = context.client(null, { cookie: begun.cookie })) =>
  client.get(begun.callback);

/** Where a refused sign-in sends the browser: the error code of the sign-in page's URL. */
export function refusalOf(res: ApiResponse): string | null {
  assert.equal(res.status, 302, res.text);
  const location = new URL(String(res.headers.location), 'http://localhost');
  assert.equal(location.pathname, '/app/sign-in', `redirected to ${location.href}`);
  return location.searchParams.get('error');
}
