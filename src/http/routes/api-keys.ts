import { Type } from '@sinclair/typebox';
import type { ApiKeyService } from '../../domain/accounts/api-key.service.js';
import { requireSettingsRole } from '../../domain/accounts/roles.js';
import type { TypedApp } from '../route.js';
import { ApiKey, CreateApiKeyBody, CreatedApiKey } from '../schemas/account.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';

const TAGS = ['API keys'];
const SETTINGS = ' Needs an owner or admin, or a key without a member (403 otherwise).';

/** [ext] API keys as settings; its own plugin, so the settings role is checked first (see memberSettingsRoutes). */
export async function apiKeyRoutes(app: TypedApp, apiKeys: ApiKeyService): Promise<void> {
  app.addHook('onRequest', async (request) => requireSettingsRole(request.actor));

  app.post('/api-keys', {
    schema: {
      operationId: 'createApiKey', tags: TAGS, summary: '[ext] Create an API key',
      description:
        'The answer holds the key, shown only here. The key acts as `member_id` (omitted: the caller\'s own member; null: ' +
        'no member, an integration key). Only an owner (or a key without a member) creates keys of owners or keys ' +
        `without a member.${SETTINGS}`,
      body: CreateApiKeyBody,
      response: { 201: DataOf(CreatedApiKey, 'The key, shown this once'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await apiKeys.create(request.actor, request.body) };
    },
  });

  app.get('/api-keys', {
    schema: {
      operationId: 'listApiKeys', tags: TAGS, summary: '[ext] List API keys',
      description: `The workspace's keys that still work, oldest first; never the keys themselves.${SETTINGS}`,
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(ApiKey, 'A page of API keys'), ...errorResponses(403) },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await apiKeys.list(request.actor, page), page);
    },
  });

  app.delete('/api-keys/:id', {
    schema: {
      operationId: 'revokeApiKey', tags: TAGS, summary: '[ext] Revoke an API key',
      description: `The key stops working at once. Only an owner (or a key without a member) revokes an owner's key or a key without a member.${SETTINGS}`,
      params: IdParams('API key id (UUID)'),
      response: { 204: Type.Null({ description: 'Revoked' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await apiKeys.revoke(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });
}
