import { Type } from '@sinclair/typebox';
import type { Changelog, ChangelogService } from '../../domain/changelog.service.js';
import { publicOrigin } from '../origin.js';
import type { TypedApp } from '../route.js';
import { renderChangelogFeed, renderChangelogPage, type ChangelogLinks } from '../widget/changelog-render.js';

const WidgetKeyParams = Type.Object({ widget_key: Type.String() });

// A page of text and styles: nothing may run, load or frame it from elsewhere.
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'";

const FORMATS = [
  { suffix: 'changelog', type: 'text/html; charset=utf-8', render: renderChangelogPage, headers: { 'Content-Security-Policy': PAGE_POLICY } },
  { suffix: 'changelog.xml', type: 'application/atom+xml; charset=utf-8', render: renderChangelogFeed, headers: {} },
] satisfies { suffix: string; type: string; render: (log: Changelog, links: ChangelogLinks) => string; headers: Record<string, string> }[];

// Not in /api/v1's OpenAPI document: the widget surface gets its own description with the widget API.
export function changelogRoutes(app: TypedApp, changelog: ChangelogService, publicUrl: string | null): void {
  for (const { suffix, type, render, headers } of FORMATS) {
    app.get(`/:widget_key/${suffix}`, {
      schema: { hide: true, params: WidgetKeyParams },
      handler: async (request, reply) => {
        const { widget_key: widgetKey } = request.params;
        const log = await changelog.forWidgetKey(widgetKey);
        const base = `${publicOrigin(request, publicUrl)}${app.prefix}/${encodeURIComponent(widgetKey)}`;
        return reply
          .type(type)
          .headers({ 'Cache-Control': 'public, max-age=300', ...headers })
          .send(render(log, { page: `${base}/changelog`, feed: `${base}/changelog.xml` }));
      },
    });
  }
}
