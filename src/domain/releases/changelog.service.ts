// A product's public changelog (docs/events.md): its published releases, the latest first, with
// the titles of the issues each shipped. Addressed by the product's widget key, without an API key.
import type { ReleaseRepository } from '../../db/repositories/release.repository.js';
import { AppError } from '../../errors.js';
import type { WidgetProduct } from '../widget/widget-settings.js';

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
  releases: Pick<ReleaseRepository, 'listPublished' | 'issueTitlesOf'>;
}

export function createChangelogService({ releases }: ChangelogServiceDeps) {
  return {
    /** The widget's product, already found and checked (enabled) by the widget API. */
    async forProduct(product: WidgetProduct): Promise<Changelog> {
      if (!product.settings.changelog_public) throw new AppError('forbidden', 'the changelog of this product is not public');
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
