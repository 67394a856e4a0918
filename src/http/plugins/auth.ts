// API-key authentication for every request of the scope it is registered in (/api/v1), its
// unknown paths included (so they are 401 before 404), then the read-only rule (403) — the
// order decisions.md sets.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/actor.js';
import type { IdentityService } from '../../domain/identity.service.js';
import { AppError } from '../../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The token of an `Authorization: Bearer <token>` header (scheme word case-insensitive), or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1] : null;
}

export function registerAuth(app: FastifyInstance, identity: Pick<IdentityService, 'authenticate'>): void {
  app.decorateRequest('actor', null as unknown as Actor);

  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new AppError('unauthorized', 'missing API key: send Authorization: Bearer <key>');
    const actor = await identity.authenticate(token);
    if (!actor) throw new AppError('unauthorized', 'invalid or revoked API key');
    if (actor.readOnly && !READ_METHODS.has(request.method)) {
      throw new AppError('forbidden', 'this API key is read-only: only GET requests are allowed');
    }
    request.actor = actor;
  });
}
