// [ext] Signing in with the workspace's OpenID Connect provider (docs/sso.md), beside POST
// /auth/sign-in: no key. The start and the callback are browser navigations, so every outcome is a
// redirect: to the provider, to /app with the session cookie, or back to the sign-in page with
// `?error=<code>` (the reason goes to the server's log, never to the page). A cookie of the start,
// scoped to /auth/sso and gone in ten minutes, ties the callback to the browser that began it.
// Like the app's pages, the two navigations stay out of the OpenAPI document (no client calls
// them; they answer only redirects); GET /auth/sso, which the app calls, is in it.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../errors.js';
import { SSO_SIGN_IN_TTL_MS, SsoRefusal, type SsoSignIn } from '../../domain/sso/sso-sign-in.js';
import { publicOrigin } from '../origin.js';
import { requestOrigin } from '../plugins/auth.js';
import type { TypedApp } from '../route.js';
import { DataOf, errorResponses } from '../schemas/common.js';
import { SsoAvailable } from '../schemas/sso.js';
import { cookieValue, isSecure, setSessionCookie } from '../session-cookie.js';

const TAGS = ['Sessions'];
const PUBLIC: Record<string, string[]>[] = [];
const BROWSER_COOKIE = 'loopdesk_sso';
const BROWSER_COOKIE_PATH = '/auth/sso';
const SIGN_IN_PAGE = '/app/sign-in';
const redirect = (description: string) =>
  Type.Null({ description, headers: { Location: Type.String({ description: 'Where the browser goes next' }) } });

function writeBrowserCookie(reply: FastifyReply, value: string, maxAgeSeconds: number, publicUrl: string | null): void {
  const attributes = [`${BROWSER_COOKIE}=${value}`, `Path=${BROWSER_COOKIE_PATH}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (isSecure(reply.request, publicUrl)) attributes.push('Secure');
  reply.header('Set-Cookie', attributes.join('; '));
}

export function ssoAuthRoutes(app: TypedApp, { ssoSignIn, publicUrl }: { ssoSignIn: SsoSignIn; publicUrl: string | null }): void {
  /** Back to the sign-in page with the refusal's code (and the workspace, so its SSO button shows again). */
  const refused = (request: FastifyRequest, reply: FastifyReply, error: unknown, workspaceId?: string) => {
    if (!(error instanceof SsoRefusal)) throw error;
    request.log.warn({ sso_error: error.code, reason: error.reason }, 'single sign-on refused');
    const query = new URLSearchParams({ error: error.code, ...(workspaceId ? { workspace_id: workspaceId } : {}) });
    return reply.redirect(`${SIGN_IN_PAGE}?${query}`, 302);
  };

  app.get('/sso', {
    schema: {
      operationId: 'getSsoAvailability', tags: TAGS, security: PUBLIC, summary: '[ext] Whether a workspace signs in with SSO',
      description:
        'For the sign-in page: the workspace asked for, or without `workspace_id` the server\'s only workspace, when it has ' +
        'single sign-on; otherwise 404.',
      querystring: Type.Object({ workspace_id: Type.Optional(Type.String({ description: 'The workspace (UUID)' })) }, { additionalProperties: false }),
      response: { 200: DataOf(SsoAvailable, 'The workspace and where its sign-in starts'), ...errorResponses(404) },
    },
    handler: async (request) => {
      const workspaceId = await ssoSignIn.available(request.query.workspace_id);
      if (!workspaceId) throw notFound('single sign-on for this workspace');
      return { data: { workspace_id: workspaceId, start_url: `/auth/sso/start?workspace_id=${workspaceId}` } };
    },
  });

  app.get('/sso/start', {
    schema: {
      operationId: 'startSso', tags: TAGS, security: PUBLIC, hide: true, summary: '[ext] Start signing in with SSO',
      description:
        'Redirects to the provider\'s authorization endpoint (authorization code with PKCE S256, `state` and `nonce`; scopes ' +
        '`openid email profile`), and sets a short-lived cookie that ties the sign-in to this browser. A workspace without ' +
        'single sign-on: redirects to `/app/sign-in?error=sso_not_configured`; a provider that cannot be reached: `sso_unavailable`.',
      querystring: Type.Object({ workspace_id: Type.Optional(Type.String({ description: 'The workspace (UUID)' })) }, { additionalProperties: false }),
      response: { 302: redirect('To the provider, or back to the sign-in page with `error`'), ...errorResponses() },
    },
    handler: async (request, reply) => {
      const { workspace_id: workspaceId } = request.query;
      try {
        const { url, browserToken } = await ssoSignIn.start(workspaceId, publicOrigin(request, publicUrl));
        writeBrowserCookie(reply, browserToken, SSO_SIGN_IN_TTL_MS / 1000, publicUrl);
        return reply.redirect(url, 302);
      } catch (error) {
        return refused(request, reply, error, workspaceId);
      }
    },
  });

  app.get('/sso/callback', {
    schema: {
      operationId: 'finishSso', tags: TAGS, security: PUBLIC, hide: true, summary: '[ext] Where the provider sends people back',
      description:
        'Register `{public base URL}/auth/sso/callback` at the provider. The state must be one this server began, in this ' +
        'browser, within ten minutes, and is taken once; the ID token is checked by openid-client (signature, issuer, audience, ' +
        'expiry, nonce). Its email must be verified and, when the workspace names allowed domains, in one of them. Success: ' +
        'the session cookie of a password sign-in and a redirect to `/app`. Failure: a redirect to `/app/sign-in?error=<code>` ' +
        '(`sso_invalid_state`, `sso_cancelled`, `sso_failed`, `sso_email_unverified`, `sso_domain_not_allowed`, ' +
        '`sso_not_a_member`, `sso_not_configured`), no session.',
      querystring: Type.Object(
        { code: Type.Optional(Type.String()), state: Type.Optional(Type.String()), error: Type.Optional(Type.String()) },
        { additionalProperties: true, description: 'The authorization response, as the provider sends it' },
      ),
      response: { 302: redirect('To `/app` signed in, or back to the sign-in page with `error`'), ...errorResponses() },
    },
    handler: async (request, reply) => {
      writeBrowserCookie(reply, '', 0, publicUrl);
      try {
        const started = await ssoSignIn.finish(request.query as Record<string, string | undefined>, cookieValue(request, BROWSER_COOKIE), requestOrigin(request));
        setSessionCookie(reply, started.token, publicUrl);
        return reply.redirect('/app', 302);
      } catch (error) {
        return refused(request, reply, error);
      }
    },
  });
}
