import type { FastifyRequest } from 'fastify';
import type { ConversationService } from '../../domain/conversations/conversation.service.js';
import { SUGGESTION_KINDS, SUGGESTION_STATUSES } from '../../domain/shared/enums.js';
import type { TriageService } from '../../domain/triage/triage.service.js';
import { checkAll } from '../../errors.js';
import { enumFilter, singleIdFilter } from '../filters.js';
import { mountWithAlias, OPTIONAL_BODY, type TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, PageQuery, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { AcceptSuggestionBody, Suggestion, SuggestionQueueQuery } from '../schemas/suggestion.js';
import { Type } from '@sinclair/typebox';

const TAGS = ['Triage'];
const ConversationParams = IdParams('Conversation id (UUID)');
const SuggestionParams = IdParams('Suggestion id (UUID)');
const NOT_OPEN = 'A suggestion that is not open is a validation_error ("suggestion is already accepted" or "… dismissed").';

export function suggestionRoutes(app: TypedApp, triage: TriageService, conversations: ConversationService): void {
  mountWithAlias(app, '/conversations', '/items', (app, mount) => {
    app.post(`${mount.path}/:id/triage`, {
      schema: mount.schema({
        operationId: 'triageConversation',
        tags: TAGS,
        summary: '[ext] Run triage for a conversation again',
        description:
          'Matches the conversation\'s title and first contact message against its product\'s open issues, as POST ' +
          '/issues/maybe does: at or above the matching threshold a `link` suggestion, otherwise a `create` suggestion ' +
          'with the review band\'s issues as possible_duplicates. Its open suggestions are dismissed first; accepted ones ' +
          'stay. Runs whatever the product\'s triage setting (`off` suggests as `suggest` does; `auto` accepts at once). ' +
          'Answers the conversation\'s suggestions, oldest first (the first 200). A detection failure is a 500 with nothing written.',
        params: ConversationParams,
        response: { 200: ListOf(Suggestion, 'The conversation\'s suggestions, the new one last'), ...writeErrors(404) },
      }),
      handler: async (request) => {
        const { page, limit, offset } = await triage.rerun(request.actor, request.params.id);
        return listBody(page, { limit, offset });
      },
    });

    app.get(`${mount.path}/:id/suggestions`, {
      schema: mount.schema({
        operationId: 'listConversationSuggestions',
        tags: TAGS,
        summary: '[ext] List a conversation\'s suggestions',
        description: 'Every suggestion triage made for the conversation, whatever its status, oldest first.',
        params: ConversationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: ListOf(Suggestion, 'A page of the conversation\'s suggestions'), ...errorResponses(404) },
      }),
      config: { ensureExists: (request: FastifyRequest) => conversations.ensureExists(request.actor, (request.params as { id: string }).id) },
      handler: async (request) => {
        const page = pageOf(request.query);
        return listBody(await triage.listForConversation(request.actor, request.params.id, page), page);
      },
    });
  });

  app.get('/suggestions', {
    schema: {
      operationId: 'listSuggestions',
      tags: TAGS,
      summary: '[ext] The triage queue',
      description:
        'Suggestions across the workspace\'s conversations, oldest first: open ones unless status says otherwise. status ' +
        'and kind take comma-separated values.',
      querystring: SuggestionQueueQuery,
      response: { 200: ListOf(Suggestion, 'A page of suggestions'), ...errorResponses() },
    },
    handler: async (request) => {
      const { query } = request;
      const page = pageOf(query);
      const [productId, statuses, kinds] = await checkAll([
        () => singleIdFilter('product_id', query.product_id),
        () => enumFilter('status', query.status, SUGGESTION_STATUSES),
        () => enumFilter('kind', query.kind, SUGGESTION_KINDS),
      ] as const);
      return listBody(await triage.list(request.actor, { productId, statuses: statuses ?? ['open'], kinds }, page), page);
    },
  });

  const suggestionExists = (request: FastifyRequest) => triage.ensureExists(request.actor, (request.params as { id: string }).id);

  app.post('/suggestions/:id/accept', {
    schema: {
      operationId: 'acceptSuggestion',
      tags: TAGS,
      summary: '[ext] Accept a suggestion',
      description:
        '`link`: links the conversation to the issue, as POST /issues/{id}/conversations does; issue_id names another ' +
        'issue of the product to link to instead. `create`: creates the issue from the draft (is_ai_generated true), with ' +
        'title, description and priority as edited in the body, and links the conversation to it. Either way the ' +
        `conversation becomes a source of the issue (sources_count). ${NOT_OPEN} A field that does not apply to the kind is a validation_error.`,
      params: SuggestionParams,
      body: AcceptSuggestionBody,
      [OPTIONAL_BODY]: true,
      response: { 200: DataOf(Suggestion, 'The accepted suggestion, with its issue'), ...writeErrors(404) },
    },
    config: { ensureExists: suggestionExists },
    handler: async (request) => ({ data: await triage.accept(request.actor, request.params.id, request.body) }),
  });

  app.post('/suggestions/:id/dismiss', {
    schema: {
      operationId: 'dismissSuggestion',
      tags: TAGS,
      summary: '[ext] Dismiss a suggestion',
      description: `Marks the suggestion dismissed; nothing else changes. ${NOT_OPEN}`,
      params: SuggestionParams,
      response: { 200: DataOf(Suggestion, 'The dismissed suggestion'), ...writeErrors(404) },
    },
    handler: async (request) => ({ data: await triage.dismiss(request.actor, request.params.id) }),
  });
}
