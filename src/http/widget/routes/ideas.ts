// The product's ideas: listed for anyone when ideas_public (else for sessions), upvoted once per contact.
import type { FastifyRequest } from 'fastify';
import type { IdeaService } from '../../../domain/widget/idea.service.js';
import type { TypedApp } from '../../route.js';
import { DataOf, ListOf, listBody, pageOf } from '../../schemas/common.js';
import { Idea, IdeasQuery, SESSION, UpvoteResult, WidgetItemParams, WidgetKeyParams, widgetErrors, widgetWriteErrors } from '../schemas.js';
import { visitorOf } from '../visitor-auth.js';

const TAGS = ['Ideas'];

export function ideaRoutes(app: TypedApp, ideas: IdeaService): void {
  app.get('/:widget_key/ideas', {
    schema: {
      operationId: 'listWidgetIdeas', tags: TAGS, summary: 'List the product\'s ideas',
      description:
        'Ideas (conversations of type idea) that are not dismissed: sort=top (default) puts the most upvoted first, sort=new the newest. ' +
        'Open to anyone when ideas_public is on (the default), else to sessions; `upvoted` says whether the session\'s contact upvoted each.',
      security: [{}, ...SESSION],
      params: WidgetKeyParams,
      querystring: IdeasQuery,
      response: { 200: ListOf(Idea, 'A page of ideas'), ...widgetErrors(401) },
    },
    config: { visitor: 'optional' },
    handler: async (request) => {
      const product = request.widgetProduct;
      const visitor = product.settings.ideas_public ? request.visitor : visitorOf(request);
      const page = pageOf(request.query);
      return listBody(await ideas.list(product, visitor, request.query.sort ?? 'top', page), page);
    },
  });

  const ensureExists = (request: FastifyRequest) => ideas.ensureExists(visitorOf(request), (request.params as { id: string }).id);
  const upvoteSchema = (operationId: string, summary: string, description: string) => ({
    operationId, tags: TAGS, summary, description,
    security: SESSION,
    params: WidgetItemParams,
    // No body is expected, but one sent is parsed (and refused when it is not JSON).
    response: { 200: DataOf(UpvoteResult, 'The idea\'s upvotes now'), ...widgetWriteErrors(401) },
  });

  app.post('/:widget_key/ideas/:id/upvote', {
    schema: upvoteSchema('upvoteWidgetIdea', 'Upvote an idea', 'One upvote per contact: upvoting again changes nothing. The team sees the count as the conversation\'s upvotes.'),
    config: { visitor: 'required', ensureExists },
    handler: async (request) => ({ data: await ideas.upvote(visitorOf(request), request.params.id) }),
  });

  app.delete('/:widget_key/ideas/:id/upvote', {
    schema: upvoteSchema('removeWidgetIdeaUpvote', 'Take an upvote back', 'Removes the contact\'s upvote; without one, changes nothing.'),
    config: { visitor: 'required', ensureExists },
    handler: async (request) => ({ data: await ideas.removeUpvote(visitorOf(request), request.params.id) }),
  });
}
