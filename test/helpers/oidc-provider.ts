// A real OpenID provider in the test process: node-oidc-provider (OpenID certified) on a loopback
// port, http (Loopdesk allows http issuers on loopback only). People sign in without a form: the
// test says who is next (`signInAs`), and the provider's login interaction takes that account.
// `tamperIdToken` lets a test rewrite the ID token the token endpoint answers with, re-signed with
// the provider's own key (a valid signature on claims the relying party must still refuse).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  /** Microsoft Entra's "email domain owner verified". */
  xms_edov?: boolean;
  name?: string;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
}

export interface TestProvider {
  issuer: string;
  client: TestClient;
  /** Another client registered at the same provider. */
  otherClient: TestClient;
  /** The account the next login interaction signs in as (its `sub`). */
  signInAs(sub: string, account: TestAccount): void;
  /**
   * Rewrites the claims of the ID tokens the token endpoint gives out until called with null, signed
   * with the provider's key, or with `forged` another key under the same key id (a bad signature).
   */
  tamperIdToken(change: ((claims: Record<string, unknown>) => Record<string, unknown>) | null, options?: { forged?: boolean }): void;
  close(): Promise<void>;
}

const SCOPES = ['openid', 'email', 'profile'];

export async function startOidcProvider({ redirectUris }: { redirectUris: string[] }): Promise<TestProvider> {
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server = createServer((request, response) => handler(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, TestAccount>();
  let next: string | null = null;
  const forgery = (await generateKeyPair('RS256')).privateKey;
  let tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | null = null;
  let forged = false;
  const client: TestClient = { client_id: 'loopdesk', client_secret: 'loopdesk-secret-0123456789' };
  const otherClient: TestClient = { client_id: 'other-app', client_secret: 'other-secret-0123456789' };

  const provider = new Provider(issuer, {
    clients: [client, otherClient].map((c) => ({
      ...c, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
    // The ID token carries the scopes' claims, as Keycloak, Google, Entra and Okta send them.
    conformIdTokenClaims: false,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // First-party: consent is granted without asking.
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope(SCOPES.join(' '));
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
  });
  provider.use(async (ctx, nextMiddleware) => {
    await nextMiddleware();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && tamper && body?.id_token) {
      const claims = tamper(decodeJwt(body.id_token));
      const idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' }).sign(forged ? forgery : privateKey);
      ctx.body = { ...body, id_token: idToken };
    }
  });

  const providerHandler = provider.callback();
  handler = (request, response) => {
    if (!request.url?.startsWith('/interaction/')) return void providerHandler(request, response);
    void (async () => {
      await provider.interactionDetails(request, response);
      if (next === null) throw new Error('the test named nobody to sign in as (signInAs)');
      const accountId = next;
      next = null;
      await provider.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
    })().catch((error: Error) => {
      response.statusCode = 500;
      response.end(error.message);
    });
  };

  return {
    issuer, client, otherClient,
    signInAs(sub, account) {
      accounts.set(sub, account);
      next = sub;
    },
    tamperIdToken(change, options = {}) {
      tamper = change;
      forged = options.forged ?? false;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A browser's way through the provider: follows redirects from `url` (with the provider's cookies)
 * until one leaves the provider, and returns that URL (the callback with its code and state).
 */
export async function throughProvider(provider: Pick<TestProvider, 'issuer'>, url: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let at = new URL(url);
  for (let hop = 0; hop < 10; hop++) {
    if (at.origin !== new URL(provider.issuer).origin) return at;
    const response = await fetch(at, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const separator = pair.indexOf('=');
      cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider answered ${response.status} at ${at.pathname}: ${(await response.text()).slice(0, 300)}`);
    at = new URL(location, at);
  }
  throw new Error('the provider redirected more than 10 times');
}
