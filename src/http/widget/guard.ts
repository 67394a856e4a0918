// The checks every widget request passes before its route (docs/widget.md): the widget key names
// a product (404), whose widget is enabled (403), and a browser's Origin must be the product's
// domain or one of its subdomains, or this server itself, where the widget's frame is served
// (403). Allowed origins get CORS headers, without credentials (sessions travel in
// Authorization, never in cookies); their preflight requests are answered here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WidgetService } from '../../domain/widget/widget.service.js';
import type { WidgetProduct } from '../../domain/widget/widget-settings.js';
import { originMatchesDomain } from '../../lib/host-domain.js';
import { AppError } from '../../errors.js';
import { publicOrigin } from '../origin.js';
import type { TypedApp } from '../route.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The product the path's widget key names, enabled; set on every route under /{widget_key}. */
    widgetProduct: WidgetProduct;
  }
}

const EXPOSED_HEADERS = 'X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Request-Id, Last-Event-ID, Idempotency-Key',
  'Access-Control-Max-Age': '600',
};

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

export function registerWidgetGuard(app: TypedApp, { widgets, publicUrl }: { widgets: WidgetService; publicUrl: string | null }): void {
  app.decorateRequest('widgetProduct', null as unknown as WidgetProduct);

  const originAllowed = (request: FastifyRequest, product: WidgetProduct, origin: string): boolean => {
    if (product.domain === null || originMatchesDomain(origin, product.domain)) return true;
    const ownHost = hostOf(publicOrigin(request, publicUrl));
    return ownHost !== null && hostOf(origin) === ownHost;
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const widgetKey = (request.params as { widget_key?: string }).widget_key;
    // Unknown paths (no widget key routed) go to the not-found handler as they are.
    if (widgetKey === undefined) return;
    const product = await widgets.productFor(widgetKey);
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (!originAllowed(request, product, origin)) {
        throw new AppError('forbidden', `this widget may only be used from pages of ${product.domain}; the request came from ${origin.slice(0, 200)}`);
      }
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    request.widgetProduct = product;
  });

  app.options('/:widget_key/*', {
    schema: { hide: true },
    handler: async (_request, reply) => reply.code(204).headers(PREFLIGHT_HEADERS).send(),
  });
}
