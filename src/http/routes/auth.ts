import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/accounts/actor.js';
import type { StartedSession } from '../../domain/accounts/session.service.js';
import { AppError } from '../../errors.js';
import type { AuthRoutesOptions } from '../auth-routes.js';
import { requestOrigin } from '../plugins/auth.js';
import type { TypedApp } from '../route.js';
import { AcceptInvitationBody, ChangePasswordBody, InvitationPreview, SignedIn, SignInBody, TokenParams } from '../schemas/account.js';
import { DataOf, ErrorBody, Ref, errorResponses, writeErrors } from '../schemas/common.js';
import { SESSION_COOKIE, clearSessionCookie, refuseForeignOrigin, requireOwnOrigin, sessionToken, setSessionCookie } from '../session-cookie.js';

const TAGS = ['Sessions'];
const PUBLIC: Record<string, string[]>[] = [];
const WITH_SESSION = [{ sessionCookie: [] }];
/** Sign-out: with the session it ends, or without one (nothing to end is not an error). */
const SESSION_IF_ANY: Record<string, string[]>[] = [{ sessionCookie: [] }, {}];
const COOKIE_NOTE = `Sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax, Path=/, 30 days after the last use).`;

const lockedResponse = Ref(ErrorBody, {
  description: 'Too many failed sign-ins for this email: 10 within 15 minutes lock it for 15 minutes (`forbidden`); retry after `Retry-After` seconds',
  headers: { 'Retry-After': Type.Integer({ minimum: 1, description: 'Seconds until the email is unlocked' }) },
});

/** The errors of an /auth route: no rate limit applies here (the lockout has its own 429). */
function authErrors(responses: Record<string, unknown>) {
  const { 429: _rateLimited, ...rest } = responses;
  return rest;
}

/** The started session: its cookie, and `{ data: { workspace_id, member } }`. */
function signedIn(reply: FastifyReply, started: StartedSession, publicUrl: string | null) {
  setSessionCookie(reply, started.token, publicUrl);
  return { data: { workspace_id: started.workspace_id, member: started.member } };
}

export function authRoutes(app: TypedApp, { sessions, invitations, publicUrl }: AuthRoutesOptions): void {
  // The session a request acts on, resolved before validation (401 and 403 come before 400).
  const sessionOf = new WeakMap<FastifyRequest, Actor>();
  /** 401 without a valid session, 403 (CSRF) unless the request comes from this server's pages. */
  const requireSession = async (request: FastifyRequest) => {
    const token = sessionToken(request);
    const found = token === null ? null : await sessions.authenticate(token);
    if (!found) throw new AppError('unauthorized', 'not signed in: sign in first');
    requireOwnOrigin(request, publicUrl);
    sessionOf.set(request, found.actor);
  };

  app.post('/sign-in', {
    schema: {
      operationId: 'signIn', tags: TAGS, security: PUBLIC, summary: '[ext] Sign in with email and password',
      description:
        `Starts a session in the asked workspace, or in the account's oldest membership. ${COOKIE_NOTE} A wrong email and a ` +
        'wrong password get the same 401. 10 failures for an email within 15 minutes lock it for 15 minutes (429). ' +
        'An Origin header, when sent, must be this server\'s (403).',
      body: SignInBody,
      response: { 200: DataOf(SignedIn, 'Signed in'), ...authErrors(writeErrors()), 429: lockedResponse },
    },
    onRequest: async (request) => refuseForeignOrigin(request, publicUrl),
    handler: async (request, reply) => signedIn(reply, await sessions.signIn(request.body, requestOrigin(request)), publicUrl),
  });

  app.post('/sign-out', {
    schema: {
      operationId: 'signOut', tags: TAGS, security: SESSION_IF_ANY, summary: '[ext] Sign out',
      description:
        'Ends the session of the cookie (it stops working at once everywhere) and clears the cookie. Without a session ' +
        'there is nothing to end: 204 all the same. With a cookie, the Origin header must be this server\'s (403).',
      response: { 204: Type.Null({ description: 'Signed out' }), ...authErrors(writeErrors()) },
    },
    onRequest: async (request) => {
      if (sessionToken(request) !== null) requireOwnOrigin(request, publicUrl);
    },
    handler: async (request, reply) => {
      const token = sessionToken(request);
      if (token !== null) await sessions.signOut(token);
      clearSessionCookie(reply, publicUrl);
      reply.code(204);
      return null;
    },
  });

  app.get('/invitations/:token', {
    schema: {
      operationId: 'getInvitation', tags: TAGS, security: PUBLIC, summary: '[ext] What an invitation is for',
      description: 'The email, workspace and role of an invitation that can still be taken; used, expired or unknown: 404.',
      params: TokenParams,
      response: { 200: DataOf(InvitationPreview, 'The invitation'), ...authErrors(errorResponses(404)) },
    },
    handler: async (request) => ({ data: await invitations.describe(request.params.token) }),
  });

  app.post('/invitations/:token', {
    schema: {
      operationId: 'acceptInvitation', tags: TAGS, security: PUBLIC, summary: '[ext] Take an invitation',
      description:
        `Joins the workspace with this name and password and signs in; the link then stops working. ${COOKIE_NOTE} ` +
        'When the email already has an account (in another workspace), `password` must be that account\'s password (400 ' +
        'otherwise). The first start\'s owner link names no email: `email` is then required. Used, expired or unknown: 404.',
      params: TokenParams,
      body: AcceptInvitationBody,
      response: { 200: DataOf(SignedIn, 'Joined and signed in'), ...authErrors(writeErrors(404)), 429: lockedResponse },
    },
    onRequest: async (request) => refuseForeignOrigin(request, publicUrl),
    config: { ensureExists: (request) => invitations.describe((request.params as { token: string }).token) },
    handler: async (request, reply) => signedIn(reply, await invitations.accept(request.params.token, request.body, requestOrigin(request)), publicUrl),
  });

  app.post('/password', {
    schema: {
      operationId: 'changePassword', tags: TAGS, security: WITH_SESSION, summary: '[ext] Change your password',
      description:
        'Needs the session cookie and an Origin of this server (403). A wrong current password is a 400 on ' +
        '`current_password` and counts toward the sign-in lockout (429). Every other session of the person, in every ' +
        'workspace, ends; this one stays. API keys are not affected.',
      body: ChangePasswordBody,
      response: { 204: Type.Null({ description: 'Changed' }), ...authErrors(writeErrors()), 429: lockedResponse },
    },
    onRequest: requireSession,
    handler: async (request, reply) => {
      await sessions.changePassword({ ...sessionOf.get(request)!, origin: requestOrigin(request) }, request.body);
      reply.code(204);
      return null;
    },
  });
}
