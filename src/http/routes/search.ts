import type { SearchService } from '../../domain/search/search.service.js';
import { SEARCH_TYPES } from '../../domain/search/search.shapes.js';
import { checkAll } from '../../errors.js';
import { enumFilter, singleIdFilter } from '../filters.js';
import type { TypedApp } from '../route.js';
import { ListOf, errorResponses, listBody, pageOf } from '../schemas/common.js';
import { SearchQuery, SearchResult } from '../schemas/search.js';

export function searchRoutes(app: TypedApp, search: SearchService): void {
  app.get('/search', {
    schema: {
      operationId: 'search',
      tags: ['Search'],
      summary: 'Search issues, conversations, contacts and articles',
      description:
        '[ext] Full-text search of the workspace: issue titles and descriptions, conversation titles and messages (internal ' +
        'notes included), contact names and emails, help center articles (title and text, drafts included). Every word of q must match, ignoring case and accents; the last word also ' +
        'matches as a prefix. Best match first; an exact shortcode puts its issue first. Each result carries its record under ' +
        'the key its type names (the shapes GET /issues, GET /conversations and GET /articles list).',
      querystring: SearchQuery,
      response: { 200: ListOf(SearchResult, 'A page of results, best first'), ...errorResponses() },
    },
    handler: async (request) => {
      const { q, types, product_id } = request.query;
      const page = pageOf(request.query);
      const [productId, searched] = await checkAll([
        () => singleIdFilter('product_id', product_id),
        () => enumFilter('types', types, SEARCH_TYPES),
      ] as const);
      return listBody(await search.search(request.actor, { q, types: searched, productId }, page), page);
    },
  });
}
