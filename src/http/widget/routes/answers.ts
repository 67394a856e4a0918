// A visitor's question answered from the help center (docs/help-center.md, "Answers").
import type { AnswerService } from '../../../domain/help-center/answer.service.js';
import { articleLinkFor } from '../../help/article-link.js';
import type { TypedApp } from '../../route.js';
import { Answers, AnswersQuery } from '../../schemas/help-center.js';
import { SESSION, WidgetKeyParams, widgetErrors } from '../schemas.js';

export function answerRoutes(app: TypedApp, answers: AnswerService, publicUrl: string | null): void {
  app.get('/:widget_key/answers', {
    schema: {
      operationId: 'getWidgetAnswers', tags: ['Help center'], summary: '[ext] Answer a question from the help center',
      description:
        'The published articles whose passages answer `q`, best first (at most 5, one per translation group, none below the calibrated ' +
        'threshold): by meaning across languages when the duplicate detector has an embedding model, by words otherwise. With a chat model, ' +
        '`answer` is written from those passages only and cites them; without passages there is no answer. A session, when sent, counts the ' +
        'search and the answer shown for the self-service report. 404 when the product\'s help center is off.',
      security: [{}, ...SESSION],
      params: WidgetKeyParams,
      querystring: AnswersQuery,
      response: { 200: Answers, ...widgetErrors(401) },
    },
    config: { visitor: 'optional' },
    handler: async (request) => answers.answer(request.widgetProduct, request.visitor, request.query.q, articleLinkFor(request, publicUrl)),
  });
}
