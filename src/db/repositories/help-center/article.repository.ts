// Help center articles (migration 0035). Lists are newest first; the public pages read a product's
// published articles, and a translation group is an original and the articles whose translation_of names it.
import { countRows, NEWEST_FIRST, readPage } from '../paging.js';
import type { Executor, Page, PageOf } from '../executor.js';
import type { ArticleTable } from '../../schema.js';

const ARTICLE_COLUMNS = [
  'id', 'workspace_id', 'product_id', 'collection_id', 'title', 'slug', 'body', 'body_text', 'locale', 'translation_of',
  'status', 'tags', 'views', 'helpful', 'not_helpful', 'created_at', 'updated_at', 'published_at',
] as const;

/** What the public pages list of an article: everything but its Markdown. */
const LISTED_COLUMNS = ARTICLE_COLUMNS.filter((column) => column !== 'body');

/** What the reports read of an article: who it is, and its tallies. */
const FIGURE_COLUMNS = ['id', 'product_id', 'title', 'locale', 'status', 'views', 'helpful', 'not_helpful'] as const;

export type ArticleRow = ArticleTable;
export type ArticleFiguresRow = Pick<ArticleTable, (typeof FIGURE_COLUMNS)[number]>;
export type ListedArticleRow = Omit<ArticleTable, 'body'>;
export type ArticleChanges = Partial<Pick<ArticleTable,
  'collection_id' | 'title' | 'slug' | 'body' | 'body_text' | 'locale' | 'translation_of' | 'status' | 'tags' | 'updated_at' | 'published_at'>>;

/** The counters the widget's visitors move (article-tallies.ts), never the article's other writes. */
export type Tally = 'views' | 'helpful' | 'not_helpful';

export interface ArticleFilters {
  productId?: string;
  collectionId?: string;
  status?: readonly string[];
  locale?: string;
}

export function articleRepository(db: Executor) {
  const articles = (tx: Executor) => tx.selectFrom('articles');

  const filtered = (tx: Executor, workspaceId: string, filters: ArticleFilters) => {
    let query = articles(tx).where('workspace_id', '=', workspaceId);
    if (filters.productId) query = query.where('product_id', '=', filters.productId);
    if (filters.collectionId) query = query.where('collection_id', '=', filters.collectionId);
    if (filters.status) query = query.where('status', 'in', filters.status);
    if (filters.locale) query = query.where('locale', '=', filters.locale);
    return query;
  };

  return {
    async insert(row: ArticleRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('articles').values(row).execute();
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<ArticleRow | undefined> {
      return articles(tx).select(ARTICLE_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    async list(workspaceId: string, filters: ArticleFilters, page: Page, tx: Executor = db): Promise<PageOf<ArticleRow>> {
      const matching = filtered(tx, workspaceId, filters);
      return readPage(NEWEST_FIRST, page, () => countRows(matching), (read) => read.sliced(matching.select(ARTICLE_COLUMNS)).execute());
    },

    /** The articles among `ids` that pass the filters (a full-text search's hits), in no order. */
    async findMatching(workspaceId: string, ids: readonly string[], filters: ArticleFilters, tx: Executor = db): Promise<ArticleRow[]> {
      if (ids.length === 0) return [];
      return filtered(tx, workspaceId, filters).select(ARTICLE_COLUMNS).where('id', 'in', ids).execute();
    },

    /** The product's article slugs in one locale that start with `stem` (slugs hold no LIKE wildcards). */
    async slugsStartingWith(productId: string, locale: string, stem: string, tx: Executor = db): Promise<string[]> {
      const rows = await articles(tx).select('slug').where('product_id', '=', productId).where('locale', '=', locale)
        .where('slug', 'like', `${stem}%`).execute();
      return rows.map((row) => row.slug);
    },

    /** The article of the product holding the slug in the locale, if any. */
    async findBySlug(productId: string, locale: string, slug: string, tx: Executor = db): Promise<{ id: string } | undefined> {
      return articles(tx).select('id').where('product_id', '=', productId).where('locale', '=', locale).where('slug', '=', slug).executeTakeFirst();
    },

    /** The translation group of `originalId`: the original and its translations, as ids and locales. */
    async group(originalId: string, tx: Executor = db): Promise<{ id: string; locale: string; translation_of: string | null }[]> {
      return articles(tx).select(['id', 'locale', 'translation_of'])
        .where((eb) => eb.or([eb('id', '=', originalId), eb('translation_of', '=', originalId)])).execute();
    },

    async hasTranslations(id: string, tx: Executor = db): Promise<boolean> {
      return (await articles(tx).select('id').where('translation_of', '=', id).limit(1).executeTakeFirst()) !== undefined;
    },

    /** A product's published articles without their Markdown (its public pages). */
    async publishedOf(productId: string, tx: Executor = db): Promise<ListedArticleRow[]> {
      return articles(tx).select(LISTED_COLUMNS).where('product_id', '=', productId).where('status', '=', 'published')
        .orderBy('created_at').orderBy('id').execute();
    },

    /** The reports' per-article figures: the most viewed articles first (then the most recent), with their tallies. */
    async mostViewed(workspaceId: string, productId: string | undefined, limit: number, tx: Executor = db): Promise<ArticleFiguresRow[]> {
      return filtered(tx, workspaceId, { productId }).select(FIGURE_COLUMNS)
        .orderBy('views', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    async update(workspaceId: string, id: string, changes: ArticleChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('articles').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Adds to the article's views and votes, relative to what is committed (concurrent additions all count). */
    async addToTallies(workspaceId: string, id: string, deltas: Partial<Record<Tally, number>>, tx: Executor = db): Promise<void> {
      const changes = Object.entries(deltas).filter(([, delta]) => delta !== 0);
      if (changes.length === 0) return;
      await tx.updateTable('articles')
        .set((eb) => Object.fromEntries(changes.map(([column, delta]) => [column, eb(column as Tally, '+', delta)])))
        .where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('articles').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}

export type ArticleRepository = ReturnType<typeof articleRepository>;
