// The team app's sign-in surface under /auth (docs/accounts.md), outside /api/v1 and its key
// authentication, as one encapsulated plugin with its own not-found handler. Same envelope and
// X-Request-Id as everywhere; described in the same OpenAPI document (tag Sessions), since the
// app's typed client calls these too.
import type { FastifyInstance } from 'fastify';
import type { InvitationService } from '../domain/accounts/invitation.service.js';
import type { SessionService } from '../domain/accounts/session.service.js';
import type { SsoSignIn } from '../domain/sso/sso-sign-in.js';
import { notFoundHandler } from './plugins/error-handler.js';
import type { TypedApp } from './route.js';
import { authRoutes } from './routes/auth.js';
import { ssoAuthRoutes } from './routes/sso-auth.js';

export const AUTH_PREFIX = '/auth';

export interface AuthRoutesOptions {
  sessions: SessionService;
  invitations: InvitationService;
  ssoSignIn: SsoSignIn;
  publicUrl: string | null;
}

export async function authPlugin(app: FastifyInstance, options: AuthRoutesOptions) {
  const auth = app as TypedApp;
  auth.setNotFoundHandler(notFoundHandler);
  authRoutes(auth, options);
  ssoAuthRoutes(auth, options);
}
