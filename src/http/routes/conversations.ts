import type { FastifyRequest } from 'fastify';
import type { ConversationService } from '../../domain/conversations/conversation.service.js';
import { CONVERSATION_STATUSES, CONVERSATION_TYPES, PRIORITIES } from '../../domain/shared/enums.js';
import { checkAll } from '../../errors.js';
import { enumFilter, idFilter, singleIdFilter, tagFilter } from '../filters.js';
import { mountWithAlias, type TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import {
  CONVERSATION_ID_FILTER_MAX, Conversation, ConversationDetail, CreateConversationBody, ListConversationsQuery, Message, PostMessageBody, UpdateConversationBody,
} from '../schemas/conversation.js';

const ConversationParams = IdParams('Conversation id (UUID)');
const TAGS = ['Conversations'];

export function conversationRoutes(app: TypedApp, conversations: ConversationService): void {
  // Routes with an id and a body answer 404 for a missing conversation before reporting a bad body.
  const ensureExists = (request: FastifyRequest) =>
    conversations.ensureExists(request.actor, (request.params as { id: string }).id);

  mountWithAlias(app, '/conversations', '/items', (app, mount) => {
    app.get(mount.path, {
      schema: mount.schema({
        operationId: 'listConversations',
        tags: TAGS,
        summary: 'List conversations',
        description:
          'Conversations of the workspace, newest first (created_at, then id, descending). type, status, priority and [ext] id ' +
          'take comma-separated values; an unknown value or a malformed id is a validation_error naming it. pagination.total counts every match.',
        querystring: ListConversationsQuery,
        response: { 200: ListOf(Conversation, 'A page of conversations, each with its contact'), ...errorResponses() },
      }),
      handler: async (request) => {
        const { product_id, type, status, priority, id, tag } = request.query;
        const page = pageOf(request.query);
        const [productId, types, statuses, priorities, listed] = await checkAll([
          () => singleIdFilter('product_id', product_id),
          () => enumFilter('type', type, CONVERSATION_TYPES),
          () => enumFilter('status', status, CONVERSATION_STATUSES),
          () => enumFilter('priority', priority, PRIORITIES),
          () => idFilter('id', id, [], CONVERSATION_ID_FILTER_MAX),
        ] as const);
        const ids = listed.ids.length ? listed.ids : undefined;
        return listBody(await conversations.list(request.actor, { productId, types, statuses, priorities, ids, tagKeys: tagFilter(tag) }, page), page);
      },
    });

    app.post(mount.path, {
      schema: mount.schema({
        operationId: 'createConversation',
        tags: TAGS,
        summary: 'Import a conversation',
        description:
          '[ext] Creates a conversation from another channel, status open. The contact is matched by email within the ' +
          'workspace (created when new); body, when given, becomes the first message, sent by the contact.',
        body: CreateConversationBody,
        response: { 201: DataOf(ConversationDetail, 'The created conversation with its messages'), ...writeErrors() },
      }),
      handler: async (request, reply) => {
        reply.code(201);
        return { data: await conversations.create(request.actor, request.body) };
      },
    });

    app.get(`${mount.path}/:id`, {
      schema: mount.schema({
        operationId: 'getConversation',
        tags: TAGS,
        summary: 'Get a conversation',
        description: 'One conversation with its contact and its messages, oldest message first.',
        params: ConversationParams,
        response: { 200: DataOf(ConversationDetail, 'The conversation with its messages'), ...errorResponses(404) },
      }),
      handler: async (request) => ({ data: await conversations.get(request.actor, request.params.id) }),
    });

    app.patch(`${mount.path}/:id`, {
      schema: mount.schema({
        operationId: 'updateConversation',
        tags: TAGS,
        summary: 'Update a conversation',
        description:
          'Sets status, priority and/or [ext] tags (the whole list). Any status may be set from any status; updated_at changes only when a value changes.',
        params: ConversationParams,
        body: UpdateConversationBody,
        response: { 200: DataOf(Conversation, 'The updated conversation'), ...writeErrors(404) },
      }),
      config: { ensureExists },
      handler: async (request) => ({ data: await conversations.update(request.actor, request.params.id, request.body) }),
    });

    app.post(`${mount.path}/:id/messages`, {
      schema: mount.schema({
        operationId: 'postConversationMessage',
        tags: TAGS,
        summary: 'Post a message',
        description:
          'Adds an agent message, sent as the member tied to the API key (sender_id is the API key id when the key has ' +
          'no member). body is stored as sent and must not be blank. The conversation\'s updated_at changes.',
        params: ConversationParams,
        body: PostMessageBody,
        response: { 201: DataOf(Message, 'The created message'), ...writeErrors(404) },
      }),
      config: { ensureExists },
      handler: async (request, reply) => {
        reply.code(201);
        return { data: await conversations.postMessage(request.actor, request.params.id, request.body.body) };
      },
    });
  });
}
