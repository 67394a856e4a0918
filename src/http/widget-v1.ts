// The public widget surface under /widget/v1/{widget_key} (platform.md §1 and §3), as one
// encapsulated plugin with its own not-found handler: no API key plays a part here, the widget
// key names the product. Today: the public changelog.
import type { FastifyInstance } from 'fastify';
import type { ChangelogService } from '../domain/changelog.service.js';
import { notFoundHandler } from './plugins/error-handler.js';
import type { TypedApp } from './route.js';
import { changelogRoutes } from './routes/changelog.js';

export const WIDGET_PREFIX = '/widget/v1';

export interface WidgetV1Options {
  changelog: ChangelogService;
  publicUrl: string | null;
}

export async function widgetV1(app: FastifyInstance, { changelog, publicUrl }: WidgetV1Options) {
  const widget = app as TypedApp;
  widget.setNotFoundHandler(notFoundHandler);
  changelogRoutes(widget, changelog, publicUrl);
}
