// The help center in the widget (docs/help-center.md, "In the widget"): the product's published
// articles, one article (a session's first read counts as a view), and "Was this helpful?".
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { requireLocale } from '../../../domain/help-center/locales.js';
import type { ArticleUrl, WidgetArticles } from '../../../domain/help-center/widget-articles.service.js';
import { HELP_PREFIX } from '../../help/help-routes.js';
import { HelpLinks } from '../../help/help-render.js';
import { publicOrigin } from '../../origin.js';
import type { TypedApp } from '../../route.js';
import { DataOf, ListOf, listBody, pageOf } from '../../schemas/common.js';
import { ArticleFeedback, ArticleFeedbackBody, WidgetArticle, WidgetArticleSummary, WidgetArticlesQuery } from '../article-schemas.js';
import { PUBLIC, SESSION, WidgetKeyParams, widgetErrors, widgetWriteErrors } from '../schemas.js';
import { visitorOf } from '../visitor-auth.js';

const TAGS = ['Help center'];
const ArticleParams = Type.Object(
  { ...WidgetKeyParams.properties, id: Type.String({ description: 'Article id (UUID)' }) },
  { additionalProperties: false },
);
const NOT_FOUND = 'A draft, another product\'s article or a help center that is off (help_center false) is a 404.';

export function widgetArticleRoutes(app: TypedApp, { articles, publicUrl }: { articles: WidgetArticles; publicUrl: string | null }): void {
  const urlsFor = (request: FastifyRequest): ArticleUrl => {
    const origin = publicOrigin(request, publicUrl);
    return (helpSlug, article) => new HelpLinks(`${origin}${HELP_PREFIX}/${encodeURIComponent(helpSlug)}`).article(article);
  };

  app.get('/:widget_key/articles', {
    schema: {
      operationId: 'listWidgetArticles', tags: TAGS, summary: 'Find help center articles',
      description: 'Published articles of the product, each translation group once. With q: those whose title and text hold its words, ' +
        'best first (as the public search finds them). Without: the suggestions, in the locale that best fits `locale`, most read first. ' +
        'No session needed; a help center that is off is a 404.',
      security: PUBLIC,
      params: WidgetKeyParams,
      querystring: WidgetArticlesQuery,
      response: { 200: ListOf(WidgetArticleSummary, 'A page of articles'), ...widgetErrors() },
    },
    handler: async (request) => {
      const { q, locale } = request.query;
      const page = pageOf(request.query);
      const wanted = locale === undefined ? undefined : requireLocale(locale);
      return listBody(await articles.list(request.widgetProduct, { q, locale: wanted }, page, urlsFor(request)), page);
    },
  });

  app.get('/:widget_key/articles/:id', {
    schema: {
      operationId: 'getWidgetArticle', tags: TAGS, summary: 'Read a help center article',
      description: 'The published article with its body rendered as its public page shows it. With a session, its first read by the ' +
        `session counts as a view (once per session, however often it is opened) and \`helpful\` is the session's vote. ${NOT_FOUND}`,
      security: [{}, ...SESSION],
      params: ArticleParams,
      response: { 200: DataOf(WidgetArticle, 'The article'), ...widgetErrors(401) },
    },
    config: { visitor: 'optional' },
    handler: async (request) => ({ data: await articles.open(request.widgetProduct, request.visitor, request.params.id, urlsFor(request)) }),
  });

  app.post('/:widget_key/articles/:id/feedback', {
    schema: {
      operationId: 'sendWidgetArticleFeedback', tags: TAGS, summary: 'Answer "Was this helpful?"',
      description: 'One vote per session: a second vote changes the first (the article\'s helpful and not_helpful follow), the same ' +
        `vote again changes nothing. ${NOT_FOUND}`,
      security: SESSION,
      params: ArticleParams,
      body: ArticleFeedbackBody,
      response: { 200: DataOf(ArticleFeedback, 'The session\'s vote'), ...widgetWriteErrors(401) },
    },
    config: {
      visitor: 'required',
      ensureExists: (request: FastifyRequest) => articles.ensurePublished(request.widgetProduct, (request.params as { id: string }).id),
    },
    handler: async (request) => ({ data: await articles.feedback(request.widgetProduct, visitorOf(request), request.params.id, request.body.helpful) }),
  });
}
