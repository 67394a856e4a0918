// API-key authentication for everything under /api/v1, before routing (so an unknown path
// without a key is 401), then the read-only rule (403) — the order decisions.md sets.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/actor.js';
import type { IdentityService } from '../../domain/identity.service.js';
import { AppError } from '../../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
}

export const API_PREFIX = '/api/v1';
const READ_METHODS = new Set(['GET', 'HEAD']);

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1] : null;
}

const isApiPath = (url: string) => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);

export function registerAuth(app: FastifyInstance, identity: Pick<IdentityService, 'authenticate'>): void {
  app.decorateRequest('actor', null as unknown as Actor);

  app.addHook('onRequest', async (request) => {
    // The matched route's path, not the raw target: an absolute-form target
    // (`GET http://host/api/v1/me`) is routed by its path and must be authenticated the same way.
    if (!isApiPath(request.routeOptions.url ?? request.url)) return;
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
