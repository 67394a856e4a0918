// The product behind a widget key (docs/widget.md): unknown keys are 404, a disabled widget is 403
// on every widget endpoint; and the configuration the widget starts from.
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import { AppError, notFound } from '../../errors.js';
import { toWidgetProduct, type WidgetProduct } from './widget-settings.js';

export interface WidgetConfigView {
  product: { name: string };
  greeting: string | null;
  color: string | null;
  require_identity: boolean;
  proof_of_work: boolean;
  ideas_public: boolean;
}

/** `wk_` + 24 base62 characters (product.service.ts): anything else names no widget, and is never looked up. */
const WIDGET_KEY = /^wk_[0-9A-Za-z]{24}$/;

export function createWidgetService({ products }: { products: Pick<ProductRepository, 'findByWidgetKey'> }) {
  return {
    /** Not scoped by workspace: the widget key itself names the product (it is unique across workspaces). */
    async productFor(widgetKey: string): Promise<WidgetProduct> {
      const row = WIDGET_KEY.test(widgetKey) ? await products.findByWidgetKey(widgetKey) : undefined;
      if (!row) throw notFound('widget');
      const product = toWidgetProduct(row);
      if (!product.settings.enabled) throw new AppError('forbidden', 'the widget of this product is disabled');
      return product;
    },

    config({ name, settings }: WidgetProduct): WidgetConfigView {
      const { greeting, color, require_identity, proof_of_work, ideas_public } = settings;
      return { product: { name }, greeting, color, require_identity, proof_of_work, ideas_public };
    },
  };
}

export type WidgetService = ReturnType<typeof createWidgetService>;
