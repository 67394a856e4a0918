import type { ReleaseService } from '../../domain/releases/release.service.js';
import { singleIdFilter } from '../filters.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import { CreateReleaseBody, Release, ReleaseDetail, ReleaseListQuery, UpdateReleaseBody } from '../schemas/release.js';

const ReleaseParams = IdParams('Release id (UUID)');

export function releaseRoutes(app: TypedApp, releases: ReleaseService): void {
  app.get('/releases', {
    schema: {
      operationId: 'listReleases',
      tags: ['Releases'],
      summary: 'List releases',
      description: 'Releases ordered by created_at descending, optionally of one product.',
      querystring: ReleaseListQuery,
      response: { 200: ListOf(Release, 'A page of releases'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await releases.list(request.actor, { productId: singleIdFilter('product_id', request.query.product_id) }, page), page);
    },
  });

  app.post('/releases', {
    schema: {
      operationId: 'createRelease',
      tags: ['Releases'],
      summary: 'Create a release',
      description:
        'Creates a release of a product and links issue_ids, which all become released in the same transaction. ' +
        'Any id that is not an issue of the product rejects the whole request and changes nothing.',
      body: CreateReleaseBody,
      response: { 201: DataOf(ReleaseDetail, 'The created release with linked_issues_count'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await releases.create(request.actor, request.body) };
    },
  });

  app.get('/releases/:id', {
    schema: {
      operationId: 'getRelease',
      tags: ['Releases'],
      summary: 'Get a release',
      description: 'One release with its issues.',
      params: ReleaseParams,
      response: { 200: DataOf(ReleaseDetail, 'The release'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await releases.get(request.actor, request.params.id) }),
  });

  app.patch('/releases/:id', {
    schema: {
      operationId: 'updateRelease',
      tags: ['Releases'],
      summary: '[ext] Update a release',
      description: 'Changes title, description, version or released_at (a date-time publishes, null returns to draft).',
      params: ReleaseParams,
      body: UpdateReleaseBody,
      response: { 200: DataOf(ReleaseDetail, 'The updated release'), ...writeErrors(404) },
    },
    config: { ensureExists: (request) => releases.find(request.actor, (request.params as { id: string }).id) },
    handler: async (request) => ({ data: await releases.update(request.actor, request.params.id, request.body) }),
  });
}
