// A visitor's conversations: list, start, read, reply and rate (docs/widget.md).
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { VisitorConversationService } from '../../../domain/widget/visitor-conversation.service.js';
import type { TypedApp } from '../../route.js';
import { DataOf, ListOf, PageQuery, listBody, pageOf } from '../../schemas/common.js';
import {
  RatingBody, SESSION, StartConversationBody, VisitorConversation, VisitorConversationSummary, VisitorMessage, VisitorMessageBody,
  WidgetItemParams, WidgetKeyParams, widgetErrors, widgetWriteErrors,
} from '../schemas.js';
import { visitorOf } from '../visitor-auth.js';

const TAGS = ['Visitor conversations'];
const SEES = 'A verified visitor sees every conversation of their contact in this product; an unverified one only those their session started.';

export function visitorConversationRoutes(app: TypedApp, conversations: VisitorConversationService): void {
  // Routes with an id and a body answer 404 for a conversation the visitor cannot see before reporting a bad body.
  const ensureExists = (request: FastifyRequest) => conversations.ensureVisible(visitorOf(request), (request.params as { id: string }).id);

  app.get('/:widget_key/conversations', {
    schema: {
      operationId: 'listVisitorConversations', tags: TAGS, summary: 'List the visitor\'s conversations',
      description: `Newest first. ${SEES}`,
      security: SESSION,
      params: WidgetKeyParams,
      querystring: Type.Object(PageQuery),
      response: { 200: ListOf(VisitorConversationSummary, 'A page of the visitor\'s conversations'), ...widgetErrors(401) },
    },
    config: { visitor: 'required' },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await conversations.list(visitorOf(request), page), page);
    },
  });

  app.post('/:widget_key/conversations', {
    schema: {
      operationId: 'startVisitorConversation', tags: TAGS, summary: 'Start a conversation',
      description: 'A new conversation (source chat, status open) whose first message is body; the title defaults to the body\'s first line, cut to 80 characters.',
      security: SESSION,
      params: WidgetKeyParams,
      body: StartConversationBody,
      response: { 201: DataOf(VisitorConversation, 'The conversation with its first message'), ...widgetWriteErrors(401) },
    },
    config: { visitor: 'required' },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await conversations.start(visitorOf(request), request.body) };
    },
  });

  app.get('/:widget_key/conversations/:id', {
    schema: {
      operationId: 'getVisitorConversation', tags: TAGS, summary: 'Get a conversation with its messages',
      description: `Messages oldest first, the team's replies among them. ${SEES} Any other id is a 404.`,
      security: SESSION,
      params: WidgetItemParams,
      response: { 200: DataOf(VisitorConversation, 'The conversation'), ...widgetErrors(401) },
    },
    config: { visitor: 'required' },
    handler: async (request) => ({ data: await conversations.get(visitorOf(request), request.params.id) }),
  });

  app.post('/:widget_key/conversations/:id/messages', {
    schema: {
      operationId: 'postVisitorMessage', tags: TAGS, summary: 'Reply in a conversation',
      description: 'A message from the visitor (sender_type contact). A resolved conversation opens again.',
      security: SESSION,
      params: WidgetItemParams,
      body: VisitorMessageBody,
      response: { 201: DataOf(VisitorMessage, 'The message'), ...widgetWriteErrors(401) },
    },
    config: { visitor: 'required', ensureExists },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await conversations.postMessage(visitorOf(request), request.params.id, request.body.body) };
    },
  });

  app.put('/:widget_key/conversations/:id/rating', {
    schema: {
      operationId: 'rateVisitorConversation', tags: TAGS, summary: 'Rate a conversation',
      description: 'An integer from 1 to 5; rating again replaces it. The team sees it as the conversation\'s rating.',
      security: SESSION,
      params: WidgetItemParams,
      body: RatingBody,
      response: { 200: DataOf(VisitorConversation, 'The rated conversation'), ...widgetWriteErrors(401) },
    },
    config: { visitor: 'required', ensureExists },
    handler: async (request) => ({ data: await conversations.rate(visitorOf(request), request.params.id, request.body.rating) }),
  });
}
