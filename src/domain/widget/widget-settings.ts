// What the platform reads of a product's widget_config (docs/widget.md), with its defaults; any
// other key is kept as it is and ignored here. A value of the wrong type counts as absent.
import type { ProductRow } from '../../db/repositories/product.repository.js';

export interface WidgetSettings {
  enabled: boolean;
  require_identity: boolean;
  proof_of_work: boolean;
  ideas_public: boolean;
  changelog_public: boolean;
  greeting: string | null;
  /** A CSS hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa), or null. */
  color: string | null;
}

/** The product as the widget API sees it: found by its widget key, with its settings read. */
export interface WidgetProduct {
  id: string;
  workspace_id: string;
  name: string;
  widget_key: string;
  domain: string | null;
  settings: WidgetSettings;
  updated_at: string;
}

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

export function widgetSettings(configText: string | null): WidgetSettings {
  const config = configText === null ? {} : (JSON.parse(configText) as Record<string, unknown>);
  const flag = (name: string, fallback: boolean) => (typeof config[name] === 'boolean' ? (config[name] as boolean) : fallback);
  const color = config.color;
  return {
    enabled: flag('enabled', true),
    require_identity: flag('require_identity', false),
    proof_of_work: flag('proof_of_work', true),
    ideas_public: flag('ideas_public', true),
    changelog_public: flag('changelog_public', true),
    greeting: typeof config.greeting === 'string' ? config.greeting : null,
    color: typeof color === 'string' && HEX_COLOR.test(color) ? color : null,
  };
}

export const toWidgetProduct = (row: ProductRow): WidgetProduct => ({
  id: row.id,
  workspace_id: row.workspace_id,
  name: row.name,
  widget_key: row.widget_key,
  domain: row.domain,
  settings: widgetSettings(row.widget_config),
  updated_at: row.updated_at,
});
