import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { SavedReplyService } from '../../domain/saved-replies/saved-reply.service.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { CreateSavedReplyBody, SavedReply, UpdateSavedReplyBody } from '../schemas/saved-reply.js';

const SavedReplyParams = IdParams('Saved reply id (UUID)');
const TAGS = ['Saved replies'];
const WRITERS = ' Needs an owner or admin key or session, or a key without a member (403 otherwise).';

/** [ext] The team's saved replies: everyone reads them, the settings role writes them (docs/inbox.md). */
export function savedReplyRoutes(app: TypedApp, savedReplies: SavedReplyService): void {
  // Right after authentication, like the settings plugins' hook: an agent gets 403 before any lookup or validation.
  const writer = { onRequest: async (request: FastifyRequest) => savedReplies.authorizeWrite(request.actor) };
  const ensureExists = (request: FastifyRequest) => savedReplies.ensureExists(request.actor, (request.params as { id: string }).id);

  app.get('/saved-replies', {
    schema: {
      operationId: 'listSavedReplies', tags: TAGS, summary: '[ext] List saved replies',
      description: 'The workspace\'s saved replies, oldest first (created_at, then id).',
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(SavedReply, 'A page of saved replies'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await savedReplies.list(request.actor, page), page);
    },
  });

  app.post('/saved-replies', {
    ...writer,
    schema: {
      operationId: 'createSavedReply', tags: TAGS, summary: '[ext] Create a saved reply',
      description: `A ready answer the team posts with POST /conversations/{id}/messages and saved_reply_id.${WRITERS}`,
      body: CreateSavedReplyBody,
      response: { 201: DataOf(SavedReply, 'The created saved reply'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await savedReplies.create(request.actor, request.body) };
    },
  });

  app.get('/saved-replies/:id', {
    schema: {
      operationId: 'getSavedReply', tags: TAGS, summary: '[ext] Get a saved reply',
      description: 'One saved reply, its placeholders as written.',
      params: SavedReplyParams,
      response: { 200: DataOf(SavedReply, 'The saved reply'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await savedReplies.get(request.actor, request.params.id) }),
  });

  app.patch('/saved-replies/:id', {
    ...writer,
    schema: {
      operationId: 'updateSavedReply', tags: TAGS, summary: '[ext] Update a saved reply',
      description: `Changes its title and/or body; updated_at changes only when a value changes.${WRITERS}`,
      params: SavedReplyParams,
      body: UpdateSavedReplyBody,
      response: { 200: DataOf(SavedReply, 'The updated saved reply'), ...writeErrors(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await savedReplies.update(request.actor, request.params.id, request.body) }),
  });

  app.delete('/saved-replies/:id', {
    ...writer,
    schema: {
      operationId: 'deleteSavedReply', tags: TAGS, summary: '[ext] Delete a saved reply',
      description: `Deletes it; messages already posted from it stay as they are.${WRITERS}`,
      params: SavedReplyParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await savedReplies.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });
}
