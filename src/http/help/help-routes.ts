// The public help center (docs/help-center.md, "The public pages"), outside /api/v1 and the widget
// API: no credentials, published articles only, server-rendered HTML without script.
//
// Caching: each page is rendered once per version of its product's help center and kept in a
// small in-memory LRU; the version (the product's updated_at and help_version, which every write
// of its articles and collections moves in its transaction) is read with the product on every
// request, so a publish, an edit or an unpublish shows on the next request in every process.
// Browsers and shared caches get `Cache-Control: public, no-cache` with an ETag: they keep the
// page but ask each time, and a current copy costs a 304 (one indexed read of the product).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LruMap } from '../../dedup/lru.js';
import type { HelpCenter, HelpPages } from '../../domain/help-center/help-pages.service.js';
import { acceptedLocales, canonicalLocale, DEFAULT_LOCALE } from '../../domain/help-center/locales.js';
import { AppError } from '../../errors.js';
import { publicOrigin } from '../origin.js';
import { SEARCH_QUERY_MAX } from '../../domain/search/search.shapes.js';
import {
  HelpLinks, renderArticle, renderCollection, renderHome, renderNotFound, renderSearch, renderSitemap, type RenderContext,
} from './help-render.js';
import { pagePolicy, themeFor } from './help-theme.js';

export const HELP_PREFIX = '/help';

/** Pages kept rendered, across products; a page of a version no longer current is never served again. */
const CACHED_PAGES = 2000;

const HTML = 'text/html; charset=utf-8';
const XML = 'application/xml; charset=utf-8';
const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' };
/** The 404 page without a product's theme: nothing at all is allowed. */
const BARE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Rendered {
  status: 200 | 302 | 400 | 404;
  type: string;
  body: string;
  etag: string;
  location?: string;
  /** Whether the page depends on Accept-Language. */
  negotiated: boolean;
}

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

type Query = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** What the reader asks for, best first: `?locale=` (when a language tag), then Accept-Language. */
function wantedLocales(request: FastifyRequest): { wanted: string[]; negotiated: boolean } {
  const explicit = canonicalLocale(text((request.query as Query).locale) ?? '');
  const accepted = acceptedLocales(request.headers['accept-language']);
  return { wanted: explicit ? [explicit, ...accepted] : accepted, negotiated: explicit === null };
}

export async function helpCenterPages(app: FastifyInstance, { pages, publicUrl }: { pages: HelpPages; publicUrl: string | null }) {
  const cache = new LruMap<string, Rendered>(CACHED_PAGES);

  const contextOf = (request: FastifyRequest, center: HelpCenter): RenderContext => ({
    center,
    theme: themeFor(center.color),
    links: new HelpLinks(`${publicOrigin(request, publicUrl)}${HELP_PREFIX}/${encodeURIComponent(center.product.help_slug)}`),
  });

  function send(request: FastifyRequest, reply: FastifyReply, rendered: Rendered, policy: string): FastifyReply {
    reply.headers({
      ...COMMON_HEADERS, 'Content-Security-Policy': policy, 'Cache-Control': 'public, no-cache', ETag: rendered.etag,
      ...(rendered.negotiated ? { Vary: 'Accept-Language' } : {}),
    });
    if (rendered.location) return reply.redirect(rendered.location, rendered.status as 302);
    const noneMatch = request.headers['if-none-match'];
    if (rendered.status === 200 && noneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === rendered.etag)) return reply.code(304).send();
    return reply.code(rendered.status).type(rendered.type).send(rendered.body);
  }

  const rendered = (status: Rendered['status'], type: string, body: string, negotiated: boolean, location?: string): Rendered =>
    ({ status, type, body, etag: etagOf(body), negotiated, ...(location ? { location } : {}) });

  /**
   * Serves one page of the help center at the request's help slug: from the cache when this
   * version of it was rendered, else built. A page that is not found is a themed 404 (not cached:
   * unknown slugs are unbounded).
   */
  async function serve(request: FastifyRequest, reply: FastifyReply, pageKey: string, build: (context: RenderContext) => Promise<Rendered>) {
    let center: HelpCenter;
    try {
      center = await pages.center((request.params as { help_slug: string }).help_slug);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      return reply.code(404).type(HTML).headers({ ...COMMON_HEADERS, 'Content-Security-Policy': BARE_POLICY, 'Cache-Control': 'no-cache' })
        .send(renderNotFound(null, 'There is no help center at this address.'));
    }
    const context = contextOf(request, center);
    const policy = pagePolicy(context.theme);
    const key = `${center.product.id} ${center.version} ${context.links.base} ${pageKey}`;
    const cached = cache.get(key);
    if (cached) return send(request, reply, cached, policy);
    try {
      const page = await build(context);
      cache.set(key, page);
      return send(request, reply, page, policy);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      return send(request, reply, rendered(404, HTML, renderNotFound(context, `This ${error.message.replace(/ not found$/, '')} does not exist, or is not published.`), false), policy);
    }
  }

  const hidden = { schema: { hide: true } };

  app.get('/:help_slug', hidden, async (request, reply) => {
    const { wanted, negotiated } = wantedLocales(request);
    return serve(request, reply, `home ${wanted.join(',')}`, async (context) =>
      rendered(200, HTML, renderHome(context, await pages.home(context.center, wanted)), negotiated));
  });

  app.get('/:help_slug/:collection_slug', hidden, async (request, reply) => {
    const { collection_slug: slug } = request.params as { collection_slug: string };
    const { wanted, negotiated } = wantedLocales(request);
    return serve(request, reply, `collection ${slug} ${wanted.join(',')}`, async (context) =>
      rendered(200, HTML, renderCollection(context, await pages.collection(context.center, slug, wanted)), negotiated));
  });

  app.get('/:help_slug/articles/:article_slug', hidden, async (request, reply) => {
    const { article_slug: slug } = request.params as { article_slug: string };
    const { wanted, negotiated } = wantedLocales(request);
    return serve(request, reply, `article ${slug} ${wanted.join(',')}`, async (context) => {
      const view = await pages.article(context.center, slug, wanted);
      if (view.kind === 'elsewhere') return rendered(302, HTML, '', negotiated, context.links.article(view.article));
      return rendered(200, HTML, renderArticle(context, view), negotiated);
    });
  });

  app.get('/:help_slug/search', hidden, async (request, reply) => {
    const q = (text((request.query as Query).q) ?? '').trim();
    const locale = canonicalLocale(text((request.query as Query).locale) ?? '') ?? acceptedLocales(request.headers['accept-language'])[0] ?? DEFAULT_LOCALE;
    return serve(request, reply, `search ${locale} ${q}`, async (context) => {
      if ([...q].length > SEARCH_QUERY_MAX) {
        const refusal = `A search is at most ${SEARCH_QUERY_MAX} characters.`;
        return rendered(400, HTML, renderSearch(context, { q: q.slice(0, SEARCH_QUERY_MAX), locale, results: [], refusal }), true);
      }
      return rendered(200, HTML, renderSearch(context, { q, locale, results: q ? await pages.search(context.center, q) : null }), true);
    });
  });

  app.get('/:help_slug/sitemap.xml', hidden, async (request, reply) =>
    serve(request, reply, 'sitemap', async (context) =>
      rendered(200, XML, renderSitemap(context.links, await pages.sitemap(context.center), pages.groupOf), false)));

  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type(HTML).headers({ ...COMMON_HEADERS, 'Content-Security-Policy': BARE_POLICY, 'Cache-Control': 'no-cache' })
      .send(renderNotFound(null, 'There is no page at this address.')));
}
