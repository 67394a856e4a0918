import { Type } from '@sinclair/typebox';
import { requireSettingsRole } from '../../domain/accounts/roles.js';
import type { SsoService } from '../../domain/sso/sso.service.js';
import { publicOrigin } from '../origin.js';
import type { TypedApp } from '../route.js';
import { DataOf, errorResponses, writeErrors } from '../schemas/common.js';
import { PutSsoBody, SsoSettings } from '../schemas/sso.js';

const TAGS = ['Single sign-on'];
const SETTINGS = ' Needs an owner or admin, or a key without a member (403 otherwise).';

/**
 * [ext] The workspace's single sign-on settings (docs/sso.md). Its own plugin: the settings role
 * is checked right after authentication, before validation (403 before 400), as for members.
 */
export async function ssoRoutes(app: TypedApp, { sso, publicUrl }: { sso: SsoService; publicUrl: string | null }): Promise<void> {
  app.addHook('onRequest', async (request) => requireSettingsRole(request.actor, 'single sign-on settings'));

  app.get('/sso', {
    schema: {
      operationId: 'getSso', tags: TAGS, summary: '[ext] Get the single sign-on settings',
      description: `The OpenID Connect provider people sign in with, and the redirect URI to register there; none set up: 404.${SETTINGS}`,
      response: { 200: DataOf(SsoSettings, 'The settings (never the client secret)'), ...errorResponses(403, 404) },
    },
    handler: async (request) => ({ data: await sso.get(request.actor, publicOrigin(request, publicUrl)) }),
  });

  app.put('/sso', {
    schema: {
      operationId: 'putSso', tags: TAGS, summary: '[ext] Set up single sign-on',
      description:
        'Sets the workspace\'s OpenID Connect provider. The issuer\'s discovery document is read first (10 s at most): when it ' +
        'cannot be read, lacks the endpoints a sign-in needs or names another issuer, 400 on `issuer` and nothing changes. ' +
        `\`client_secret\` is write-only: required the first time, kept when left out later.${SETTINGS}`,
      body: PutSsoBody,
      response: { 200: DataOf(SsoSettings, 'The settings as stored (never the client secret)'), ...writeErrors() },
    },
    handler: async (request) => ({ data: await sso.put(request.actor, request.body, publicOrigin(request, publicUrl)) }),
  });

  app.delete('/sso', {
    schema: {
      operationId: 'deleteSso', tags: TAGS, summary: '[ext] Turn single sign-on off',
      description: `Removes the settings and the sign-ins under way; everyone signs in with a password again. None set up: 404.${SETTINGS}`,
      response: { 204: Type.Null({ description: 'Removed' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await sso.remove(request.actor);
      reply.code(204);
      return null;
    },
  });
}
