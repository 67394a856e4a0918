// The embeddable widget's pages (docs/widget.md, "The embeddable widget"), outside /widget/v1:
// GET /widget.js (the loader host pages include), /widget/assets/* (the frame's hashed files),
// GET /widget/frame/{widget_key} (the frame, framed as product.domain allows) and the demo pages.
import fastifyStatic from '@fastify/static';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WidgetDemoService } from '../../domain/widget/widget-demo.service.js';
import type { WidgetService } from '../../domain/widget/widget.service.js';
import { AppError } from '../../errors.js';
import { publicOrigin } from '../origin.js';
import type { TypedApp } from '../route.js';
import { DEMO_POLICY, renderDemoIndex, renderDemoPage } from './demo-page.js';
import { framePolicy, parentHostOf, renderFrameNotice, renderFramePage } from './frame-page.js';
import type { WidgetBuild } from './widget-build.js';

export interface WidgetEmbedOptions {
  build: WidgetBuild;
  widgets: Pick<WidgetService, 'productFor'>;
  demo: WidgetDemoService;
  /** LOOPDESK_DEMO=1: /widget/demo/{key} for every product, not only those of the first-start workspace. */
  demoEverywhere: boolean;
  publicUrl: string | null;
}

const HTML = 'text/html; charset=utf-8';
const WidgetKeyParams = Type.Object({ widget_key: Type.String() });
// Pages name no secret, but a page that changes with the product's settings must not be kept stale.
const PAGE_HEADERS = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' };

export async function widgetEmbed(app: FastifyInstance, { build, widgets, demo, demoEverywhere, publicUrl }: WidgetEmbedOptions) {
  const routes = app as TypedApp;

  /** An unknown key or a disabled widget as a page a visitor can read (inside the host page's iframe too). */
  const notice = (reply: FastifyReply, error: unknown, policy: string) => {
    if (!(error instanceof AppError) || (error.code !== 'not_found' && error.code !== 'forbidden')) throw error;
    const message = error.code === 'forbidden' ? 'Support is not available here right now.' : 'This support widget does not exist. Check the data-widget-key of its snippet.';
    return reply.code(error.status).type(HTML).headers({ ...PAGE_HEADERS, 'Content-Security-Policy': policy }).send(renderFrameNotice(build, message));
  };

  routes.get('/widget.js', { schema: { hide: true } }, async (request, reply) => {
    reply.headers({ 'Cache-Control': 'public, max-age=300', ETag: build.loader.etag, 'X-Content-Type-Options': 'nosniff' });
    if (request.headers['if-none-match'] === build.loader.etag) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(build.loader.source);
  });

  // Hashed names: a new build has new names, so these are cached for good.
  await app.register(fastifyStatic, { root: build.assetsDir, prefix: '/widget/assets/', decorateReply: false, index: false, immutable: true, maxAge: '365d' });

  routes.get('/widget/frame/:widget_key', { schema: { hide: true, params: WidgetKeyParams } }, async (request, reply) => {
    let frame;
    try {
      frame = await widgets.productFor(request.params.widget_key);
    } catch (error) {
      // Any page may show why it has no widget: the message names no product.
      return notice(reply, error, framePolicy('*'));
    }
    const parentHost = parentHostOf(frame.domain);
    return reply
      .type(HTML)
      .headers({ ...PAGE_HEADERS, 'Content-Security-Policy': framePolicy(parentHost) })
      .send(renderFramePage(build, { productName: frame.name, widgetKey: frame.widget_key, parentHost }));
  });

  routes.get('/widget/demo', { schema: { hide: true, querystring: Type.Object({ key: Type.Optional(Type.String()) }) } }, async (request, reply) => {
    if (request.query.key) return reply.redirect(`demo/${encodeURIComponent(request.query.key.trim())}`, 303);
    return reply.type(HTML).headers({ ...PAGE_HEADERS, 'Content-Security-Policy': DEMO_POLICY }).send(renderDemoIndex());
  });

  routes.get('/widget/demo/:widget_key', { schema: { hide: true, params: WidgetKeyParams } }, async (request, reply) => {
    let product;
    try {
      product = await demo.productFor(request.params.widget_key, demoEverywhere);
    } catch (error) {
      return notice(reply, error, framePolicy(''));
    }
    return reply
      .type(HTML)
      .headers({ ...PAGE_HEADERS, 'Content-Security-Policy': DEMO_POLICY })
      .send(renderDemoPage(publicOrigin(request, publicUrl), { name: product.name, widgetKey: product.widget_key }));
  });
}
