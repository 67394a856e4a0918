import { Type } from '@sinclair/typebox';
import type { IdentityService } from '../../domain/accounts/identity.service.js';
import type { TypedApp } from '../route.js';
import { DataOf, ListOf, PageQuery, errorResponses, listBody, pageOf } from '../schemas/common.js';
import { Me, Member } from '../schemas/identity.js';

export function identityRoutes(app: TypedApp, identity: IdentityService): void {
  app.get('/me', {
    schema: {
      operationId: 'getMe',
      tags: ['Identity'],
      summary: 'Identity of the calling API key',
      description: 'Returns the workspace, the key id and the member tied to the key. Use it to discover your own member id.',
      response: { 200: DataOf(Me, 'The key\'s identity'), ...errorResponses() },
    },
    handler: async (request) => ({ data: identity.me(request.actor) }),
  });

  app.get('/members', {
    schema: {
      operationId: 'listMembers',
      tags: ['Identity'],
      summary: 'List the workspace\'s members',
      description: 'Members ordered by created_at ascending. A member\'s id is what an issue\'s assignee_id takes.',
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(Member, 'A page of members'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await identity.listMembers(request.actor, page), page);
    },
  });
}
