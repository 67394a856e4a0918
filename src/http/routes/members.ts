import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { InvitationService } from '../../domain/accounts/invitation.service.js';
import type { MemberService } from '../../domain/accounts/member.service.js';
import { requireSettingsRole } from '../../domain/accounts/roles.js';
import { publicOrigin } from '../origin.js';
import type { TypedApp } from '../route.js';
import { CreateInvitationBody, Invitation, IssuedInvitation, UpdateMemberBody } from '../schemas/account.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { Member } from '../schemas/identity.js';

const TAGS = ['Members'];
const SETTINGS = ' Needs an owner or admin, or a key without a member (403 otherwise).';
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/**
 * [ext] Invitations and members as settings (docs/accounts.md). Register it as its own plugin: its
 * hook checks the settings role right after authentication, for its routes only, so an agent gets
 * 403 before any lookup (404) or validation (400), as a read-only key does.
 */
export async function memberSettingsRoutes(app: TypedApp, { members, invitations, publicUrl }: {
  members: MemberService; invitations: InvitationService; publicUrl: string | null;
}): Promise<void> {
  app.addHook('onRequest', async (request) => requireSettingsRole(request.actor));

  app.post('/members/invitations', {
    schema: {
      operationId: 'createInvitation', tags: TAGS, summary: '[ext] Invite someone',
      description:
        'A one-time link `{base}/app/invite/{token}`, valid 7 days, where the person sets a name and a password and joins ' +
        'with this role; the link is shown only here. A new invitation of the same email replaces the earlier ones. An ' +
        `email that is already a member: 400. Only an owner (or a key without a member) invites an owner.${SETTINGS}`,
      body: CreateInvitationBody,
      response: { 201: DataOf(IssuedInvitation, 'The invitation and its link'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await invitations.create(request.actor, request.body, publicOrigin(request, publicUrl)) };
    },
  });

  app.get('/members/invitations', {
    schema: {
      operationId: 'listInvitations', tags: TAGS, summary: '[ext] List pending invitations',
      description: `Invitations not yet taken and not expired, oldest first (never their links).${SETTINGS}`,
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(Invitation, 'A page of pending invitations'), ...errorResponses(403) },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await invitations.listPending(request.actor, page), page);
    },
  });

  app.delete('/members/invitations/:id', {
    schema: {
      operationId: 'deleteInvitation', tags: TAGS, summary: '[ext] Withdraw an invitation',
      description: `Its link stops working. Only an owner (or a key without a member) withdraws an owner's invitation.${SETTINGS}`,
      params: IdParams('Invitation id (UUID)'),
      response: { 204: Type.Null({ description: 'Withdrawn' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await invitations.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });

  app.patch('/members/:id', {
    schema: {
      operationId: 'updateMember', tags: TAGS, summary: '[ext] Change a member\'s role',
      description:
        'Takes effect at once, for the member\'s sessions and keys. Only an owner (or a key without a member) makes an owner ' +
        `or changes an owner's role; the workspace's last owner stays an owner (400).${SETTINGS}`,
      params: IdParams('Member id (UUID)'),
      body: UpdateMemberBody,
      response: { 200: DataOf(Member, 'The member'), ...writeErrors(404) },
    },
    config: { ensureExists: (request) => members.find(request.actor, idOf(request)) },
    handler: async (request) => ({ data: await members.changeRole(request.actor, request.params.id, request.body.role) }),
  });

  app.delete('/members/:id', {
    schema: {
      operationId: 'deleteMember', tags: TAGS, summary: '[ext] Remove a member',
      description:
        'Their issues become unassigned, their API keys are revoked and their sessions end; their messages stay. Only an ' +
        `owner (or a key without a member) removes an owner; the workspace's last owner cannot be removed (403).${SETTINGS}`,
      params: IdParams('Member id (UUID)'),
      response: { 204: Type.Null({ description: 'Removed' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await members.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });
}
