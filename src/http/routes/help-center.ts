// [ext] The help center's collections and articles (docs/help-center.md): every member reads and
// writes them; read-only keys read.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { ArticleService } from '../../domain/help-center/article.service.js';
import type { CollectionService } from '../../domain/help-center/collection.service.js';
import { ARTICLE_STATUSES } from '../../domain/help-center/help-center.shapes.js';
import { requireLocale } from '../../domain/help-center/locales.js';
import { checkAll } from '../../errors.js';
import { enumFilter, singleIdFilter } from '../filters.js';
import type { TypedApp } from '../route.js';
import { DataOf, IdParams, ListOf, errorResponses, listBody, pageOf, writeErrors } from '../schemas/common.js';
import {
  Article, ArticleListQuery, ArticlePreview, ArticlePreviewBody, Collection, CollectionListQuery, CreateArticleBody, CreateCollectionBody, UpdateArticleBody, UpdateCollectionBody,
} from '../schemas/help-center.js';

const CollectionParams = IdParams('Collection id (UUID)');
const ArticleParams = IdParams('Article id (UUID)');
const Deleted = Type.Null({ description: 'Deleted' });

export function collectionRoutes(app: TypedApp, collections: CollectionService): void {
  const tags = ['Help center'];
  const ensureExists = (request: FastifyRequest) => collections.find(request.actor, (request.params as { id: string }).id);

  app.get('/collections', {
    schema: {
      operationId: 'listCollections', tags, summary: '[ext] List help center collections',
      description: 'Collections ordered by position, then creation; optionally of one product.',
      querystring: CollectionListQuery,
      response: { 200: ListOf(Collection, 'A page of collections'), ...errorResponses() },
    },
    handler: async (request) => {
      const page = pageOf(request.query);
      return listBody(await collections.list(request.actor, { productId: singleIdFilter('product_id', request.query.product_id) }, page), page);
    },
  });

  app.post('/collections', {
    schema: {
      operationId: 'createCollection', tags, summary: '[ext] Create a help center collection',
      description: 'A section of a product\'s help center. The slug is made from the name unless given (unique in the product).',
      body: CreateCollectionBody,
      response: { 201: DataOf(Collection, 'The created collection'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await collections.create(request.actor, request.body) };
    },
  });

  app.get('/collections/:id', {
    schema: {
      operationId: 'getCollection', tags, summary: '[ext] Get a help center collection',
      description: 'One collection.',
      params: CollectionParams,
      response: { 200: DataOf(Collection, 'The collection'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await collections.get(request.actor, request.params.id) }),
  });

  app.patch('/collections/:id', {
    schema: {
      operationId: 'updateCollection', tags, summary: '[ext] Update a help center collection',
      description: 'Changes name, slug, description or position; updated_at changes only when a value changes.',
      params: CollectionParams,
      body: UpdateCollectionBody,
      response: { 200: DataOf(Collection, 'The updated collection'), ...writeErrors(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await collections.update(request.actor, request.params.id, request.body) }),
  });

  app.delete('/collections/:id', {
    schema: {
      operationId: 'deleteCollection', tags, summary: '[ext] Delete a help center collection',
      description: 'Deletes it; its articles stay, in no collection.',
      params: CollectionParams,
      response: { 204: Deleted, ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await collections.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });
}

export function articleRoutes(app: TypedApp, articles: ArticleService): void {
  const tags = ['Help center'];
  const ensureExists = (request: FastifyRequest) => articles.find(request.actor, (request.params as { id: string }).id);

  app.get('/articles', {
    schema: {
      operationId: 'listArticles', tags, summary: '[ext] List help center articles',
      description: 'Articles newest first, drafts included; filters product_id, collection_id, status, locale. With q: the articles ' +
        'whose title and text hold its words (as GET /search finds them, among the 1,000 best matches), best first.',
      querystring: ArticleListQuery,
      response: { 200: ListOf(Article, 'A page of articles'), ...errorResponses() },
    },
    handler: async (request) => {
      const { product_id, collection_id, status, locale, q } = request.query;
      const page = pageOf(request.query);
      const [productId, collectionId, statuses, wantedLocale] = await checkAll([
        () => singleIdFilter('product_id', product_id),
        () => singleIdFilter('collection_id', collection_id),
        () => enumFilter('status', status, ARTICLE_STATUSES),
        () => (locale === undefined ? undefined : requireLocale(locale)),
      ] as const);
      const filters = { productId, collectionId, status: statuses, locale: wantedLocale, q };
      return listBody(await articles.list(request.actor, filters, page), page);
    },
  });

  app.post('/articles', {
    schema: {
      operationId: 'createArticle', tags, summary: '[ext] Create a help center article',
      description: 'A draft unless status is published (article.created, and article.published when published). The slug is made ' +
        'from the title unless given (unique in the product and locale); translation_of makes it a translation of another article.',
      body: CreateArticleBody,
      response: { 201: DataOf(Article, 'The created article'), ...writeErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await articles.create(request.actor, request.body) };
    },
  });

  app.post('/articles/preview', {
    schema: {
      operationId: 'previewArticle', tags, summary: '[ext] Preview an article body',
      description: 'Renders Markdown exactly as a published article\'s page and the widget show it (raw HTML as text, unsafe links ' +
        'and images dropped), and the excerpt it would have. Stores nothing: the editor\'s preview.',
      body: ArticlePreviewBody,
      response: { 200: DataOf(ArticlePreview, 'The rendered body'), ...writeErrors() },
    },
    handler: async (request) => ({ data: articles.preview(request.body.body) }),
  });

  app.get('/articles/:id', {
    schema: {
      operationId: 'getArticle', tags, summary: '[ext] Get a help center article',
      description: 'One article, draft or published.',
      params: ArticleParams,
      response: { 200: DataOf(Article, 'The article'), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await articles.get(request.actor, request.params.id) }),
  });

  app.patch('/articles/:id', {
    schema: {
      operationId: 'updateArticle', tags, summary: '[ext] Update a help center article',
      description: 'Changes any field but product_id; status published publishes it (article.published), draft takes it off the ' +
        'public pages. The slug stays when the title changes. updated_at changes only when a value changes.',
      params: ArticleParams,
      body: UpdateArticleBody,
      response: { 200: DataOf(Article, 'The updated article'), ...writeErrors(404) },
    },
    config: { ensureExists },
    handler: async (request) => ({ data: await articles.update(request.actor, request.params.id, request.body) }),
  });

  app.delete('/articles/:id', {
    schema: {
      operationId: 'deleteArticle', tags, summary: '[ext] Delete a help center article',
      description: 'Deletes it; its translations stay, as originals.',
      params: ArticleParams,
      response: { 204: Deleted, ...writeErrors(404) },
    },
    handler: async (request, reply) => {
      await articles.remove(request.actor, request.params.id);
      reply.code(204);
      return null;
    },
  });
}
