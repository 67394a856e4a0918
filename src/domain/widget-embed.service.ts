// What the embed pages need of a product, found by its widget key: its name, its domain (who may
// frame the widget), whether its widget is on, and whether /widget/demo may show it.
import type { ProductRepository } from '../db/repositories/product.repository.js';
import type { WorkspaceRepository } from '../db/repositories/workspace.repository.js';
import { AppError, notFound } from '../errors.js';

export interface EmbedTarget {
  name: string;
  widgetKey: string;
  domain: string | null;
}

export interface WidgetEmbedDeps {
  products: Pick<ProductRepository, 'findByWidgetKey'>;
  workspaces: Pick<WorkspaceRepository, 'first'>;
}

const widgetEnabled = (configText: string | null): boolean => {
  const config = configText === null ? null : (JSON.parse(configText) as Record<string, unknown> | null);
  return config?.enabled !== false;
};

export function createWidgetEmbedService({ products, workspaces }: WidgetEmbedDeps) {
  async function target(widgetKey: string) {
    const product = await products.findByWidgetKey(widgetKey);
    if (!product) throw notFound('widget');
    return product;
  }

  return {
    /** The product whose widget the frame shows; not_found for an unknown key, forbidden when its widget is off. */
    async frameOf(widgetKey: string): Promise<EmbedTarget> {
      const product = await target(widgetKey);
      if (!widgetEnabled(product.widget_config)) throw new AppError('forbidden', 'the widget of this product is disabled');
      return { name: product.name, widgetKey: product.widget_key, domain: product.domain };
    },

    /**
     * The product the demo page embeds: any product with LOOPDESK_DEMO=1, else only those of the
     * first-start workspace (the instance's first), so a new install can try its widget at once
     * while a shared instance does not put a page on its own origin for every tenant.
     */
    async demoOf(widgetKey: string, everyProduct: boolean): Promise<EmbedTarget> {
      const product = await target(widgetKey);
      if (!everyProduct && product.workspace_id !== (await workspaces.first())?.id) throw notFound('demo');
      return { name: product.name, widgetKey: product.widget_key, domain: product.domain };
    },
  };
}

export type WidgetEmbedService = ReturnType<typeof createWidgetEmbedService>;
