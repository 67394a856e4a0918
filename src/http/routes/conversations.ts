import type { FastifyRequest } from 'fastify';
import type { ConversationService, MessageInput } from '../../domain/conversations/conversation.service.js';
import { CONVERSATION_STATUSES, CONVERSATION_TYPES, PRIORITIES } from '../../domain/shared/enums.js';
import { checkAll } from '../../errors.js';
import { enumFilter, idFilter, singleIdFilter, tagFilter } from '../filters.js';
import { mountWithAlias, type TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import {
  CONVERSATION_ID_FILTER_MAX, Conversation, ConversationDetail, CreateConversationBody, ListConversationsQuery, Message, PostMessageBody, PostNoteBody,
  UpdateConversationBody,
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
          'Conversations of the workspace, newest first (created_at, then id, descending), or [ext] with sort=waiting the longest ' +
          'waiting first, or [ext] with sort=due the earliest running SLA due time first; [ext] sla=breached|running filters by SLA. type, status, priority, [ext] id and [ext] assignee_id take comma-separated values; an unknown value or a ' +
          'malformed id is a validation_error naming it. [ext] snoozed=true lists only snoozed conversations, snoozed=false only the others. ' +
          'pagination.total counts every match.',
        querystring: ListConversationsQuery,
        response: { 200: ListOf(Conversation, 'A page of conversations, each with its contact'), ...errorResponses() },
      }),
      handler: async (request) => {
        const { product_id, type, status, priority, id, tag, assignee_id, snoozed, sla, sort = 'newest' } = request.query;
        const page = pageOf(request.query);
        const [productId, types, statuses, priorities, listed, assignees] = await checkAll([
          () => singleIdFilter('product_id', product_id),
          () => enumFilter('type', type, CONVERSATION_TYPES),
          () => enumFilter('status', status, CONVERSATION_STATUSES),
          () => enumFilter('priority', priority, PRIORITIES),
          () => idFilter('id', id, [], CONVERSATION_ID_FILTER_MAX),
          () => idFilter('assignee_id', assignee_id, ['none', 'me'] as const),
        ] as const);
        const filters = {
          productId, types, statuses, priorities, ids: listed.ids.length ? listed.ids : undefined,
          assigneeIds: assignees.ids, assignedToMe: assignees.given.has('me'), unassigned: assignees.given.has('none'), tagKeys: tagFilter(tag), snoozed, sla,
        };
        return listBody(await conversations.list(request.actor, filters, sort, page), page);
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
          'Sets status, priority, [ext] assignee_id (a member id, `me` or null), [ext] tags (the whole list) and/or [ext] snoozed_until (a future ' +
          'instant, or null to wake it). Any status may be set from any status; resolving or dismissing a snoozed conversation ends its snooze. ' +
          'updated_at changes only when a value changes.',
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
          'no member). body is stored as sent and must not be blank. [ext] Instead of body, saved_reply_id posts a saved reply ' +
          'with its placeholders filled ({{agent.name}} is empty for a key without a member); exactly one of the two. ' +
          'The conversation\'s updated_at changes, and [ext] its waiting_since is cleared: the contact has an answer.',
        params: ConversationParams,
        body: PostMessageBody,
        response: { 201: DataOf(Message, 'The created message'), ...writeErrors(404) },
      }),
      config: { ensureExists },
      handler: async (request, reply) => {
        reply.code(201);
        // The schema's oneOf lets exactly one of body and saved_reply_id through.
        return { data: await conversations.postMessage(request.actor, request.params.id, request.body as MessageInput) };
      },
    });

    app.post(`${mount.path}/:id/notes`, {
      schema: mount.schema({
        operationId: 'addConversationNote',
        tags: TAGS,
        summary: '[ext] Add an internal note',
        description:
          '[ext] Adds a note for the team, sent like a message (sender_type agent) with internal true. The team sees it in the ' +
          'conversation, its event stream and webhooks (message.created); the contact never does: not in the widget, its stream ' +
          'or any email. A note answers nobody: waiting_since stays as it is. The conversation\'s updated_at changes.',
        params: ConversationParams,
        body: PostNoteBody,
        response: { 201: DataOf(Message, 'The created note'), ...writeErrors(404) },
      }),
      config: { ensureExists },
      handler: async (request, reply) => {
        reply.code(201);
        return { data: await conversations.addNote(request.actor, request.params.id, request.body.body) };
      },
    });
  });
}
