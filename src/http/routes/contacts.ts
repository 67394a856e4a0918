import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { ContactService } from '../../domain/contacts/contact.service.js';
import type { TagService } from '../../domain/tags/tag.service.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, Ref, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { ContactDetail, ContactExport, ContactListQuery, ContactProfile, UpdateContactBody } from '../schemas/contact.js';
import { Tag } from '../schemas/tag.js';

const ContactParams = IdParams('Contact id (UUID)');
const TAGS = ['Contacts'];

export function contactRoutes(app: TypedApp, contacts: ContactService, tags: TagService): void {
  const ensureExists = (request: FastifyRequest) => contacts.ensureExists(request.actor, (request.params as { id: string }).id);

  app.get('/contacts', {
    schema: {
      operationId: 'listContacts', tags: TAGS, summary: '[ext] List contacts',
      description: 'The workspace\'s contacts, newest first (created_at, then id, descending). q keeps those whose name or email starts with it, without case.',
      querystring: ContactListQuery,
      response: { 200: ListOf(ContactProfile, 'A page of contacts'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await contacts.list(request.actor, request.query.q, page), page);
    },
  });

  app.get('/contacts/:id', {
    schema: {
      operationId: 'getContact', tags: TAGS, summary: '[ext] Get a contact',
      description: 'One contact with their conversations (summaries, newest first).',
      params: ContactParams,
      response: { 200: DataOf(ContactDetail, 'The contact'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await contacts.get(request.actor, request.params.id) }),
  });

  app.patch('/contacts/:id', {
    schema: {
      operationId: 'updateContact', tags: TAGS, summary: '[ext] Correct a contact',
      description: 'Sets name and/or email. The name is trimmed (blank or null clears it); the email is lowercased and must not be another contact\'s (400).',
      params: ContactParams,
      body: UpdateContactBody,
      response: { 200: DataOf(ContactDetail, 'The updated contact'), ...writeErrors(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await contacts.update(request.actor, request.params.id, request.body) }),
  });

  app.get('/contacts/:id/export', {
    schema: {
      operationId: 'exportContact', tags: TAGS, summary: '[ext] Export everything about a contact',
      description: 'The contact, their conversations with their messages (never internal notes) and ratings, their upvotes and widget sessions, as JSON.',
      params: ContactParams,
      response: { 200: DataOf(ContactExport, 'The export'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await contacts.export(request.actor, request.params.id) }),
  });

  app.delete('/contacts/:id', {
    schema: {
      operationId: 'eraseContact', tags: TAGS, summary: '[ext] Erase a contact',
      description: 'Erases the person in one transaction (docs/privacy.md): the contact, their widget sessions and upvotes go; their ' +
        'conversations stay without contact, summary or title, their messages\' bodies `[erased]`. Needs an owner or admin key, or a key without a member (403 otherwise).',
      params: ContactParams,
      response: { 204: Type.Null({ description: 'Erased' }), ...errorResponses(403, 404) },
    },
    handler: async (request, reply) => {
      await contacts.erase(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });

  app.get('/tags', {
    schema: {
      operationId: 'listTags', tags: ['Tags'], summary: '[ext] List tags',
      description: 'The tags in use in the workspace, in code point order of their lowercase names, each with how many conversations and issues carry it.',
      response: { 200: Type.Object({ data: Type.Array(Ref(Tag)) }, { additionalProperties: false, description: 'The tags' }), ...errorResponses() },
    },
    handler: async (request) => ({ data: await tags.list(request.actor) }),
  });
}
