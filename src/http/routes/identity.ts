import { Type } from '@sinclair/typebox';
import type { IdentityService } from '../../domain/accounts/identity.service.js';
import type { TypedApp } from '../route.js';
import { DataOf, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { Me, Member, UpdateMeBody } from '../schemas/identity.js';

export function identityRoutes(app: TypedApp, identity: IdentityService): void {
  app.get('/me', {
    schema: {
      operationId: 'getMe',
      tags: ['Identity'],
      summary: 'Identity of the calling API key',
      description: 'Returns the workspace, the key id and the member tied to the key. Use it to discover your own member id.',
      response: { 200: DataOf(Me, 'The key\'s identity'), ...errorResponses() },
    },
    handler: async (request) => ({ data: await identity.me(request.actor) }),
  });

  app.patch('/me', {
    schema: {
      operationId: 'updateMe',
      tags: ['Identity'],
      summary: '[ext] Change your own settings',
      description:
        'The calling member\'s signature (below their mailed replies), time zone and email notifications; fields left out keep ' +
        'their values. Returns the identity as GET /me does. A key without a member (an integration key) has no settings: 400.',
      body: UpdateMeBody,
      response: { 200: DataOf(Me, 'The key\'s identity, with the settings as saved'), ...writeErrors() },
    },
    handler: async (request) => ({ data: await identity.updateMe(request.actor, request.body) }),
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
