// Authentication for every request of the scope it is registered in (/api/v1), its unknown paths
// included (so they are 401 before 404): an API key (`Authorization: Bearer`) or the team app's
// session cookie. When an Authorization header is present it alone decides, so a script's key is
// never overridden by a browser's cookie. Then the CSRF rule for cookies and the read-only rule
// (403) — the order docs/api.md sets.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, RequestOrigin } from '../../domain/accounts/actor.js';
import type { IdentityService } from '../../domain/accounts/identity.service.js';
import type { SessionService } from '../../domain/accounts/session.service.js';
import { AppError } from '../../errors.js';
import { requireOwnOrigin, sessionToken, setSessionCookie } from '../session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
}

/** The request's client address (as the proxy settings resolve it) and User-Agent. */
export const requestOrigin = (request: FastifyRequest): RequestOrigin => ({
  ip: request.ip || null,
  user_agent: request.headers['user-agent'] ?? null,
});

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The token of an `Authorization: Bearer <token>` header (scheme word case-insensitive), or null. */
export function bearerToken(header: string): string | null {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1] : null;
}

export interface AuthDeps {
  identity: Pick<IdentityService, 'authenticate'>;
  sessions: Pick<SessionService, 'authenticate'>;
  publicUrl: string | null;
}

export function registerAuth(app: FastifyInstance, { identity, sessions, publicUrl }: AuthDeps): void {
  app.decorateRequest('actor', null as unknown as Actor);
  app.decorateRequest('stillAuthenticated', null);

  async function byKey(header: string): Promise<Actor> {
    const token = bearerToken(header);
    if (!token) throw new AppError('unauthorized', 'missing API key: send Authorization: Bearer <key>');
    const actor = await identity.authenticate(token);
    if (!actor) throw new AppError('unauthorized', 'invalid or revoked API key');
    return actor;
  }

  /** The session's actor; its cookie is sent again when the session's expiry moved. */
  async function bySession(request: FastifyRequest, reply: FastifyReply, token: string): Promise<Actor> {
    const found = await sessions.authenticate(token);
    if (!found) throw new AppError('unauthorized', 'the session has expired or was ended: sign in again');
    requireOwnOrigin(request, publicUrl);
    if (found.extendedUntil) setSessionCookie(reply, token, publicUrl);
    return found.actor;
  }

  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const cookie = header === undefined ? sessionToken(request) : null;
    if (header === undefined && cookie === null) {
      throw new AppError('unauthorized', 'missing API key: send Authorization: Bearer <key> (or sign in to the app)');
    }
    const actor = cookie === null ? await byKey(header!) : await bySession(request, reply, cookie);
    if (actor.readOnly && !READ_METHODS.has(request.method)) {
      throw new AppError('forbidden', 'this API key is read-only: only GET requests are allowed');
    }
    // Carried with the actor into every write, so the audit log's entries name where they came from.
    request.actor = { ...actor, origin: requestOrigin(request) };
    request.stillAuthenticated = cookie === null
      ? async () => (await identity.authenticate(bearerToken(header!)!)) !== null
      : async () => (await sessions.authenticate(cookie)) !== null;
  });
}
