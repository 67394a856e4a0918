// The public changelog (platform.md §3): HTML page and Atom feed of the widget key's product.
import { Type } from '@sinclair/typebox';
import type { Changelog, ChangelogService } from '../../../domain/releases/changelog.service.js';
import { publicOrigin } from '../../origin.js';
import type { TypedApp } from '../../route.js';
import { renderChangelogFeed, renderChangelogPage, type ChangelogLinks } from '../changelog-render.js';
import { PUBLIC, WidgetKeyParams, widgetErrors } from '../schemas.js';

// A page of text and styles: nothing may run, load or frame it from elsewhere.
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'";

const FORMATS = [
  {
    suffix: 'changelog', operationId: 'getChangelogPage', summary: 'The changelog as a web page',
    type: 'text/html; charset=utf-8', render: renderChangelogPage, headers: { 'Content-Security-Policy': PAGE_POLICY },
  },
  {
    suffix: 'changelog.xml', operationId: 'getChangelogFeed', summary: 'The changelog as an Atom 1.0 feed',
    type: 'application/atom+xml; charset=utf-8', render: renderChangelogFeed, headers: {},
  },
] satisfies { suffix: string; operationId: string; summary: string; type: string; render: (log: Changelog, links: ChangelogLinks) => string; headers: Record<string, string> }[];

export function changelogRoutes(app: TypedApp, changelog: ChangelogService, publicUrl: string | null): void {
  for (const { suffix, operationId, summary, type, render, headers } of FORMATS) {
    app.get(`/:widget_key/${suffix}`, {
      schema: {
        operationId,
        tags: ['Changelog'],
        summary,
        description: 'The 50 latest published releases, newest first, with their notes (Markdown, raw HTML off) and shipped issues. 403 when changelog_public is false.',
        security: PUBLIC,
        params: WidgetKeyParams,
        response: {
          200: { description: summary, content: { [type.split(';')[0]]: { schema: Type.String() } } },
          ...widgetErrors(),
        },
      },
      handler: async (request, reply) => {
        const log = await changelog.forProduct(request.widgetProduct);
        const base = `${publicOrigin(request, publicUrl)}${app.prefix}/${encodeURIComponent(request.params.widget_key)}`;
        return reply
          .type(type)
          .headers({ 'Cache-Control': 'public, max-age=300', ...headers })
          .send(render(log, { page: `${base}/changelog`, feed: `${base}/changelog.xml` }));
      },
    });
  }
}
