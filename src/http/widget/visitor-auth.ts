// Visitor sessions on the routes that ask for them (`config.visitor`): `required` answers 401
// without a valid `Authorization: Bearer wst_…` of this product; `optional` reads one when it is
// sent (a bad one is still a 401, so a client learns its session ended).
import type { FastifyRequest } from 'fastify';
import type { Visitor, WidgetSessionService } from '../../domain/widget/widget-session.service.js';
import { AppError } from '../../errors.js';
import { bearerToken } from '../plugins/auth.js';
import type { TypedApp } from '../route.js';

declare module 'fastify' {
  interface FastifyRequest {
    visitor: Visitor | null;
  }
  interface FastifyContextConfig {
    visitor?: 'required' | 'optional';
  }
}

const noSession = () => new AppError('unauthorized', 'a widget session is required: start one with POST /sessions and send Authorization: Bearer wst_…');

export function registerVisitorAuth(app: TypedApp, sessions: Pick<WidgetSessionService, 'authenticate'>): void {
  app.decorateRequest('visitor', null);
  app.decorateRequest('stillAuthenticated', null);
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config.visitor;
    if (!mode || !request.widgetProduct) return;
    const header = request.headers.authorization;
    const token = header === undefined ? null : bearerToken(header);
    if (token === null) {
      if (mode === 'required') throw noSession();
      return;
    }
    const visitor = await sessions.authenticate(request.widgetProduct, token);
    if (!visitor) throw new AppError('unauthorized', 'invalid or expired widget session: start a new one with POST /sessions');
    request.visitor = visitor;
    const product = request.widgetProduct;
    request.stillAuthenticated = async () => (await sessions.authenticate(product, token)) !== null;
  });
}

/** The request's visitor; 401 when there is none (a route whose session is optional, but needed now). */
export function visitorOf(request: FastifyRequest): Visitor {
  if (!request.visitor) throw noSession();
  return request.visitor;
}
