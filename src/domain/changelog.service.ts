// A product's public changelog (platform.md §3): its published releases, the latest first, with
// the titles of the issues each shipped. Addressed by the product's widget key, without an API key.
import type { ProductRepository } from '../db/repositories/product.repository.js';
import type { ReleaseRepository } from '../db/repositories/release.repository.js';
import { AppError, notFound } from '../errors.js';

/** How many releases the page and the feed show. */
export const CHANGELOG_RELEASES = 50;

export interface ChangelogEntry {
  id: string;
  title: string;
  version: string | null;
  description: string | null;
  released_at: string;
  updated_at: string;
  issue_titles: string[];
}

export interface Changelog {
  product: { id: string; name: string; updated_at: string };
  releases: ChangelogEntry[];
}

export interface ChangelogServiceDeps {
  products: Pick<ProductRepository, 'findByWidgetKey'>;
  releases: Pick<ReleaseRepository, 'listPublished' | 'issueTitlesOf'>;
}

/** widget_config flags, with platform.md's defaults: the widget is enabled and the changelog public. */
const flag = (config: Record<string, unknown> | null, name: string, fallback: boolean): boolean =>
  typeof config?.[name] === 'boolean' ? (config[name] as boolean) : fallback;

export function createChangelogService({ products, releases }: ChangelogServiceDeps) {
  return {
    async forWidgetKey(widgetKey: string): Promise<Changelog> {
      const product = await products.findByWidgetKey(widgetKey);
      if (!product) throw notFound('widget');
      const config = product.widget_config === null ? null : (JSON.parse(product.widget_config) as Record<string, unknown>);
      if (!flag(config, 'enabled', true)) throw new AppError('forbidden', 'the widget of this product is disabled');
      if (!flag(config, 'changelog_public', true)) throw new AppError('forbidden', 'the changelog of this product is not public');
      const published = await releases.listPublished(product.workspace_id, product.id, CHANGELOG_RELEASES);
      const titles = await releases.issueTitlesOf(product.workspace_id, published.map((release) => release.id));
      return {
        product: { id: product.id, name: product.name, updated_at: product.updated_at },
        releases: published.map((release) => ({
          id: release.id,
          title: release.title,
          version: release.version,
          description: release.description,
          released_at: release.released_at!,
          updated_at: release.updated_at,
          issue_titles: titles.filter((row) => row.release_id === release.id).map((row) => row.title),
        })),
      };
    },
  };
}

export type ChangelogService = ReturnType<typeof createChangelogService>;
