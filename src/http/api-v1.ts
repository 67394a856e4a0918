// Everything under /api/v1 as one encapsulated plugin: its hooks (authentication, rate limit,
// idempotency) and its not-found handler apply to its routes and nothing else, so an unknown
// /api/v1 path is still authenticated first (401 before 404).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { registerAuth } from './plugins/auth.js';
import { notFoundHandler } from './plugins/error-handler.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { discoveryDocuments } from './plugins/openapi.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import type { TypedApp } from './route.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { auditLogRoutes } from './routes/audit-log.js';
import { automationRuleRoutes } from './routes/automation-rules.js';
import { calendarRoutes } from './routes/calendars.js';
import { reportRoutes } from './routes/reports.js';
import { contactRoutes } from './routes/contacts.js';
import { conversationRoutes } from './routes/conversations.js';
import { discoveryRoutes } from './routes/discovery.js';
import { emailRoutes } from './routes/email.js';
import { eventRoutes } from './routes/events.js';
import { articleRoutes, collectionRoutes } from './routes/help-center.js';
import { suggestedArticleRoutes } from './routes/suggested-articles.js';
import { identityRoutes } from './routes/identity.js';
import { issueRoutes } from './routes/issues.js';
import { macroRoutes } from './routes/macros.js';
import { memberSettingsRoutes } from './routes/members.js';
import { notificationRoutes } from './routes/notifications.js';
import { PRESENCE_PER_MINUTE, presenceRoutes } from './routes/presence.js';
import { productRoutes } from './routes/products.js';
import { releaseRoutes } from './routes/releases.js';
import { searchRoutes } from './routes/search.js';
import { slaPolicyRoutes } from './routes/sla-policies.js';
import { ssoRoutes } from './routes/sso.js';
import { savedReplyRoutes } from './routes/saved-replies.js';
import { suggestionRoutes } from './routes/suggestions.js';
import { triageCalibrationRoutes } from './routes/triage-calibration.js';
import { webhookRoutes } from './routes/webhooks.js';

export const API_PREFIX = '/api/v1';

export interface ApiV1Options {
  services: Services;
  /** Requests per minute per API key (token bucket); 0: no rate limiting. */
  rateLimitPerMinute: number;
  /** The base URL the OpenAPI document's `servers` names; null: the origin each request reached. */
  publicUrl: string | null;
}

export async function apiV1(app: FastifyInstance, { services, rateLimitPerMinute, publicUrl }: ApiV1Options) {
  const api = app as TypedApp;
  registerAuth(api, { identity: services.identity, sessions: services.sessions, publicUrl });
  // Both need the authenticated key, so they come after auth and before the routes.
  registerRateLimit(api, { perMinute: rateLimitPerMinute, rateLimits: services.rateLimits });
  registerIdempotency(api, {
    idempotency: services.idempotency,
    credentialName: 'API key or session',
    ownerOf: ({ actor }) => ({ workspaceId: actor.workspaceId, credential: { kind: actor.apiKeyId === null ? 'session' : 'api_key', id: actor.credentialId } }),
  });
  api.setNotFoundHandler(notFoundHandler);

  discoveryRoutes(api, discoveryDocuments(app, publicUrl));
  identityRoutes(api, services.identity);
  productRoutes(api, services.products, publicUrl);
  conversationRoutes(api, services.conversations);
  contactRoutes(api, services.contacts, services.tags);
  savedReplyRoutes(api, services.savedReplies);
  automationRuleRoutes(api, services.automationRules);
  macroRoutes(api, services.macros);
  calendarRoutes(api, services.calendars);
  slaPolicyRoutes(api, services.slaPolicies);
  reportRoutes(api, services.reports);
  issueRoutes(api, services.issues, services.issueDedup);
  releaseRoutes(api, services.releases);
  searchRoutes(api, services.search);
  collectionRoutes(api, services.collections);
  articleRoutes(api, services.articles);
  suggestedArticleRoutes(api, services.answers, services.conversations, publicUrl);
  suggestionRoutes(api, services.triage, services.conversations);
  triageCalibrationRoutes(api, services.triage);
  notificationRoutes(api, services.notifications);
  eventRoutes(api, services.live);
  presenceRoutes(api, services.presence, rateLimitPerMinute > 0 ? services.rateLimits.limiter('presence', PRESENCE_PER_MINUTE) : null);
  // Its own plugin: the raw-mail body parser applies to its routes alone.
  await api.register(async (scoped) => emailRoutes(scoped as TypedApp, services));
  // Settings, each its own plugin: their settings-role hooks apply to their routes alone.
  await api.register(async (scoped) => webhookRoutes(scoped as TypedApp, services.webhooks));
  await api.register(async (scoped) => memberSettingsRoutes(scoped as TypedApp, { ...services, publicUrl }));
  await api.register(async (scoped) => apiKeyRoutes(scoped as TypedApp, services.apiKeys));
  await api.register(async (scoped) => auditLogRoutes(scoped as TypedApp, services.auditLogReader));
  await api.register(async (scoped) => ssoRoutes(scoped as TypedApp, { sso: services.sso, publicUrl }));
}
