// Which products /widget/demo/{widget_key} may show: any product with LOOPDESK_DEMO=1, else only
// those of the first-start workspace (the instance's first), so a new install can try its widget at
// once while a shared instance does not put a page on its own origin for every tenant.
import type { WorkspaceRepository } from '../../db/repositories/workspace.repository.js';
import { notFound } from '../../errors.js';
import type { WidgetService } from './widget.service.js';
import type { WidgetProduct } from './widget-settings.js';

export interface WidgetDemoDeps {
  widgets: Pick<WidgetService, 'productFor'>;
  workspaces: Pick<WorkspaceRepository, 'first'>;
}

export function createWidgetDemoService({ widgets, workspaces }: WidgetDemoDeps) {
  return {
    /** The product the demo embeds; not_found outside the demo's reach, as for an unknown key. */
    async productFor(widgetKey: string, everyProduct: boolean): Promise<WidgetProduct> {
      const product = await widgets.productFor(widgetKey);
      if (!everyProduct && product.workspace_id !== (await workspaces.first())?.id) throw notFound('demo');
      return product;
    },
  };
}

export type WidgetDemoService = ReturnType<typeof createWidgetDemoService>;
