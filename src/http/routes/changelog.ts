import { Type } from '@sinclair/typebox';
import type { ChangelogService } from '../../domain/changelog.service.js';
import { publicOrigin } from '../origin.js';
import type { TypedApp } from '../route.js';
import { renderChangelogFeed, renderChangelogPage, type ChangelogLinks } from '../widget/changelog-render.js';

const WidgetKeyParams = Type.Object({ widget_key: Type.String() });

// Not in /api/v1's OpenAPI document: the widget surface gets its own description with the widget API.
export function changelogRoutes(app: TypedApp, changelog: ChangelogService, publicUrl: string | null): void {
  const linksFor = (origin: string, widgetKey: string): ChangelogLinks => {
    const base = `${origin}${app.prefix}/${encodeURIComponent(widgetKey)}`;
    return { page: `${base}/changelog`, feed: `${base}/changelog.xml` };
  };

  app.get('/:widget_key/changelog', {
    schema: { hide: true, params: WidgetKeyParams },
    handler: async (request, reply) => {
      const log = await changelog.forWidgetKey(request.params.widget_key);
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'public, max-age=300')
        // A page of text and styles: nothing may run, load or frame it from elsewhere.
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'")
        .send(renderChangelogPage(log, linksFor(publicOrigin(request, publicUrl), request.params.widget_key)));
    },
  });

  app.get('/:widget_key/changelog.xml', {
    schema: { hide: true, params: WidgetKeyParams },
    handler: async (request, reply) => {
      const log = await changelog.forWidgetKey(request.params.widget_key);
      return reply
        .type('application/atom+xml; charset=utf-8')
        .header('Cache-Control', 'public, max-age=300')
        .send(renderChangelogFeed(log, linksFor(publicOrigin(request, publicUrl), request.params.widget_key)));
    },
  });
}
