// The public widget surface under /widget/v1/{widget_key} (docs/widget.md and docs/events.md), as one
// encapsulated plugin: no API key plays a part here, the widget key names the product. Its hooks
// run in this order: the guard (key 404, disabled 403, origin 403, CORS), the per-address limits
// (429), then the visitor session on the routes that ask for one (401).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { notFoundHandler } from './plugins/error-handler.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { discoveryDocuments } from './plugins/openapi.js';
import { publicOrigin } from './origin.js';
import type { TypedApp } from './route.js';
import { registerWidgetGuard } from './widget/guard.js';
import { widgetDocumentErrors } from './widget/schemas.js';
import { registerWidgetRateLimit } from './widget/rate-limit.js';
import { answerRoutes } from './widget/routes/answers.js';
import { widgetArticleRoutes } from './widget/routes/articles.js';
import { changelogRoutes } from './widget/routes/changelog.js';
import { conversationEventRoutes } from './widget/routes/conversation-events.js';
import { visitorConversationRoutes } from './widget/routes/conversations.js';
import { formRoutes } from './widget/routes/forms.js';
import { ideaRoutes } from './widget/routes/ideas.js';
import { intakeRoutes } from './widget/routes/intake.js';
import { registerVisitorAuth } from './widget/visitor-auth.js';
import { screenshotRoutes } from './widget/routes/screenshots.js';

export const WIDGET_PREFIX = '/widget/v1';

export interface WidgetV1Options {
  services: Services;
  /** LOOPDESK_WIDGET_RATE_LIMIT: scales the per-address limits; 0 turns them off. */
  rateLimitScale: number;
  publicUrl: string | null;
}

export async function widgetV1(app: FastifyInstance, { services, rateLimitScale, publicUrl }: WidgetV1Options) {
  const widget = app as TypedApp;
  widget.setNotFoundHandler(notFoundHandler);
  registerWidgetGuard(widget, { widgets: services.widget, publicUrl });
  registerWidgetRateLimit(widget, { scale: rateLimitScale, rateLimits: services.rateLimits });
  registerVisitorAuth(widget, services.widgetSessions);
  // The visitor's writes, where retries happen most. Writes without a session (starting one, a
  // form) have no credential to keep keys apart, and a stored session start would hold its token.
  registerIdempotency(widget, {
    idempotency: services.idempotency,
    credentialName: 'visitor session',
    honouredBy: (route) => route.config?.visitor === 'required',
    ownerOf: ({ visitor }) => (visitor ? { workspaceId: visitor.workspaceId, credential: { kind: 'widget_session', id: visitor.sessionId } } : null),
  });

  const documents = discoveryDocuments(app, publicUrl, 'widget');
  widget.get('/openapi.json', {
    schema: {
      operationId: 'getWidgetOpenApiDocument',
      tags: ['Discovery'],
      summary: 'The OpenAPI 3.1 description of the widget API',
      description: 'Generated from the widget routes\' schemas, as /api/v1/openapi.json is for the API.',
      security: [],
      response: { 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document' }), ...widgetDocumentErrors() },
    },
    handler: async (request, reply) => reply.type('application/json; charset=utf-8').send(documents.json(publicOrigin(request, null) || '/')),
  });
  intakeRoutes(widget, { widgets: services.widget, proofOfWork: services.proofOfWork, sessions: services.widgetSessions });
  visitorConversationRoutes(widget, services.visitorConversations);
  conversationEventRoutes(widget, services.visitorConversations, services.live);
  ideaRoutes(widget, services.ideas);
  formRoutes(widget, services.forms);
  // Its own plugin: the image body parsers apply to its route alone.
  await widget.register(async (scoped) => screenshotRoutes(scoped as TypedApp, services));
  widgetArticleRoutes(widget, { articles: services.widgetArticles, publicUrl });
  changelogRoutes(widget, { changelog: services.changelog, clock: services.clock, publicUrl });
  answerRoutes(widget, services.answers, publicUrl);
}
