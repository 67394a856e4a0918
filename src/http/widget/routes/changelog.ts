// The public changelog (docs/events.md): HTML page and Atom feed of the widget key's product.
import { Type } from '@sinclair/typebox';
import type { Changelog, ChangelogService } from '../../../domain/releases/changelog.service.js';
import type { Clock } from '../../../lib/clock.js';
import { createConditionalSender } from '../../conditional-get.js';
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

/** An HTTP date, as Last-Modified and If-Modified-Since carry it. */
const HttpDate = (description: string) => Type.String({ description, examples: ['Sat, 21 Nov 2026 10:25:00 GMT'] });

const ConditionalHeaders = Type.Object({
  'If-None-Match': Type.Optional(Type.String({ description: 'ETags of copies the client holds: 304 when one is current. Decides alone when present' })),
  'If-Modified-Since': Type.Optional(HttpDate('304 when nothing changed since (ignored when If-None-Match is sent)')),
});

const VALIDATOR_HEADERS = {
  ETag: Type.String({ description: 'Changes whenever the bytes served change' }),
  'Last-Modified': HttpDate('When the server first served these bytes; moves forward whenever the ETag changes'),
};

export function changelogRoutes(app: TypedApp, { changelog, clock, publicUrl }: { changelog: ChangelogService; clock: Clock; publicUrl: string | null }): void {
  const sendConditionally = createConditionalSender(clock);
  for (const { suffix, operationId, summary, type, render, headers } of FORMATS) {
    app.get(`/:widget_key/${suffix}`, {
      schema: {
        operationId,
        tags: ['Changelog'],
        summary,
        description: 'The 50 latest published releases, newest first, with their notes (Markdown, raw HTML off) and shipped issues. ' +
          '403 when changelog_public is false. Conditional GET: ETag and Last-Modified, and 304 with an empty body when If-None-Match ' +
          '(or, without it, If-Modified-Since) shows the client\'s copy is current.',
        security: PUBLIC,
        params: WidgetKeyParams,
        headers: ConditionalHeaders,
        response: {
          200: { description: summary, headers: VALIDATOR_HEADERS, content: { [type.split(';')[0]]: { schema: Type.String() } } },
          304: { description: 'The copy the client holds is current (empty body)', headers: VALIDATOR_HEADERS },
          ...widgetErrors(),
        },
      },
      handler: async (request, reply) => {
        const log = await changelog.forProduct(request.widgetProduct);
        const base = `${publicOrigin(request, publicUrl)}${app.prefix}/${encodeURIComponent(request.params.widget_key)}`;
        reply.headers({ 'Cache-Control': 'public, max-age=300', ...headers });
        const body = render(log, { page: `${base}/changelog`, feed: `${base}/changelog.xml` });
        return sendConditionally(request, reply, { key: `${request.widgetProduct.id} ${suffix}`, type, body });
      },
    });
  }
}
