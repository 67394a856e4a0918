// [ext] The help center's articles that answer a conversation, for the reply box (docs/help-center.md, "Answers").
import type { FastifyRequest } from 'fastify';
import type { AnswerService } from '../../domain/help-center/answer.service.js';
import type { ConversationService } from '../../domain/conversations/conversation.service.js';
import { articleLinkFor } from '../help/article-link.js';
import { mountWithAlias, type TypedApp } from '../route.js';
import { IdParams, errorResponses } from '../schemas/common.js';
import { SuggestedArticles } from '../schemas/help-center.js';

export function suggestedArticleRoutes(app: TypedApp, answers: AnswerService, conversations: ConversationService, publicUrl: string | null): void {
  mountWithAlias(app, '/conversations', '/items', (app, mount) => {
    app.get(`${mount.path}/:id/suggested-articles`, {
      schema: mount.schema({
        operationId: 'listSuggestedArticles',
        tags: ['Help center'],
        summary: '[ext] Articles that answer a conversation',
        description:
          'The published articles of the conversation\'s product whose passages answer its title and its contact\'s latest message, as ' +
          'GET /widget/v1/{widget_key}/answers finds them for a visitor (best first, at most 5, none below the calibrated threshold), ' +
          'with their public URL to insert as a link. Empty when the product\'s help center is off.',
        params: IdParams('Conversation id (UUID)'),
        response: { 200: SuggestedArticles, ...errorResponses(404) },
      }),
      config: { ensureExists: (request: FastifyRequest) => conversations.ensureExists(request.actor, (request.params as { id: string }).id) },
      handler: async (request) => ({ data: await answers.suggestedFor(request.actor, request.params.id, articleLinkFor(request, publicUrl)) }),
    });
  });
}
