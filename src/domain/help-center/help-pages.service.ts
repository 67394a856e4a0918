// What the public help center shows (docs/help-center.md, "The public pages"): a product found by
// its help slug, its published articles only, each translation group shown once in the locale
// that best fits the reader (`?locale=`, then Accept-Language), and an article's translations as
// alternates. No credentials: the help slug names the product, as a widget key does.
import type { ArticleRepository, ArticleRow, ListedArticleRow } from '../../db/repositories/help-center/article.repository.js';
import type { CollectionRepository, CollectionRow } from '../../db/repositories/help-center/collection.repository.js';
import type { ProductRepository, ProductRow } from '../../db/repositories/product.repository.js';
import type { SearchRepository } from '../../db/repositories/search.repository.js';
import { notFound } from '../../errors.js';
import { wordsOf } from '../search/search.service.js';
import { bestLocale, DEFAULT_LOCALE } from './locales.js';

/** The product behind a public help center, and what keys its cached pages. */
export interface HelpCenter {
  product: ProductRow;
  /** Changes with every write of the product, its collections or its articles: a page rendered under another version is stale. */
  version: string;
  /** The product's widget colour (widget_config.color), when it is a CSS hex colour. */
  color: string | null;
}

/** An article as the public pages list it: a translation group's member. */
export type PublicArticle = ListedArticleRow;

export interface HelpHome {
  locale: string;
  locales: string[];
  collections: { collection: CollectionRow; articles: PublicArticle[] }[];
  /** Articles in no collection. */
  loose: PublicArticle[];
}

export type ArticlePage =
  | { kind: 'article'; article: ArticleRow; collection: CollectionRow | null; translations: PublicArticle[] }
  /** The reader's best fit is another article of the group (another slug): the page to go to. */
  | { kind: 'elsewhere'; article: PublicArticle };

/** How many results the public search page shows. */
export const PUBLIC_SEARCH_RESULTS = 20;

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

function colourOf(product: ProductRow): string | null {
  if (product.widget_config === null) return null;
  const { color } = JSON.parse(product.widget_config) as { color?: unknown };
  return typeof color === 'string' && HEX_COLOUR.test(color) ? color : null;
}

export const groupOf = (article: { id: string; translation_of: string | null }) => article.translation_of ?? article.id;

/** Each translation group once: its article in `locale`, else its original, else its oldest translation. */
export function oneEach(articles: readonly PublicArticle[], locale: string): PublicArticle[] {
  const groups = new Map<string, PublicArticle[]>();
  for (const article of articles) groups.set(groupOf(article), [...(groups.get(groupOf(article)) ?? []), article]);
  return [...groups.entries()].map(([original, members]) =>
    members.find((member) => member.locale === locale) ?? members.find((member) => member.id === original) ?? members[0]);
}

/** The locale the lists are shown in: the reader's best fit among the articles' locales, else the default, else the most used. */
function pageLocale(articles: readonly PublicArticle[], wanted: readonly string[]): { locale: string; locales: string[] } {
  const counts = new Map<string, number>();
  for (const article of articles) counts.set(article.locale, (counts.get(article.locale) ?? 0) + 1);
  const locales = [...counts.keys()].sort();
  const mostUsed = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  return { locale: bestLocale(wanted, locales) ?? (counts.has(DEFAULT_LOCALE) ? DEFAULT_LOCALE : mostUsed ?? DEFAULT_LOCALE), locales };
}

const byTitle = (a: PublicArticle, b: PublicArticle) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id);

export interface HelpPagesDeps {
  products: Pick<ProductRepository, 'findByHelpSlug'>;
  collections: Pick<CollectionRepository, 'ofProduct'>;
  articles: Pick<ArticleRepository, 'publishedOf' | 'findById'>;
  search: Pick<SearchRepository, 'search'>;
}

export function createHelpPages({ products, collections, articles, search }: HelpPagesDeps) {
  return {
    /** The help center at `helpSlug`; not_found when there is none or it is off. */
    async center(helpSlug: string): Promise<HelpCenter> {
      const product = await products.findByHelpSlug(helpSlug);
      if (!product || product.help_center !== 1) throw notFound('help center');
      return { product, version: `${product.updated_at}/${product.help_version}`, color: colourOf(product) };
    },

    async home(center: HelpCenter, wanted: readonly string[]): Promise<HelpHome> {
      const [all, sections] = await Promise.all([articles.publishedOf(center.product.id), collections.ofProduct(center.product.id)]);
      const { locale, locales } = pageLocale(all, wanted);
      const shown = oneEach(all, locale).sort(byTitle);
      return {
        locale,
        locales,
        collections: sections.map((collection) => ({ collection, articles: shown.filter((article) => article.collection_id === collection.id) })),
        loose: shown.filter((article) => article.collection_id === null),
      };
    },

    /** One collection's articles; not_found for an unknown slug. */
    async collection(center: HelpCenter, slug: string, wanted: readonly string[]): Promise<{ collection: CollectionRow; locale: string; articles: PublicArticle[] }> {
      const collection = (await collections.ofProduct(center.product.id)).find((candidate) => candidate.slug === slug);
      if (!collection) throw notFound('collection');
      const all = await articles.publishedOf(center.product.id);
      const { locale } = pageLocale(all, wanted);
      return { collection, locale, articles: oneEach(all, locale).filter((article) => article.collection_id === collection.id).sort(byTitle) };
    },

    /**
     * The published article at `slug` that best fits the reader: among the articles holding the slug
     * and their translations, the best fit to `wanted`; with none, the original. When that is an
     * article of another slug, the answer says where it is.
     */
    async article(center: HelpCenter, slug: string, wanted: readonly string[]): Promise<ArticlePage> {
      const all = await articles.publishedOf(center.product.id);
      const holders = all.filter((article) => article.slug === slug);
      if (holders.length === 0) throw notFound('article');
      const groups = new Set(holders.map(groupOf));
      const related = all.filter((article) => groups.has(groupOf(article)));
      const fit = bestLocale(wanted, related.map((article) => article.locale));
      const chosen = holders.find((article) => article.locale === fit)
        ?? related.find((article) => article.locale === fit)
        ?? holders.find((article) => article.translation_of === null)
        ?? holders[0];
      if (chosen.slug !== slug) return { kind: 'elsewhere', article: chosen };
      const [article, sections] = await Promise.all([articles.findById(center.product.workspace_id, chosen.id), collections.ofProduct(center.product.id)]);
      if (!article) throw notFound('article');
      const translations = all.filter((other) => groupOf(other) === groupOf(chosen)).sort((a, b) => a.locale.localeCompare(b.locale));
      return { kind: 'article', article, collection: sections.find((section) => section.id === article.collection_id) ?? null, translations };
    },

    /** Published articles whose title and text hold the words of `q`, best first. */
    async search(center: HelpCenter, q: string): Promise<PublicArticle[]> {
      const words = wordsOf(q);
      if (words.length === 0) return [];
      const [{ hits }, all] = await Promise.all([
        search.search({ workspaceId: center.product.workspace_id, words, types: ['article'], productId: center.product.id, limit: 200, offset: 0 }),
        articles.publishedOf(center.product.id),
      ]);
      const published = new Map(all.map((article) => [article.id, article]));
      return hits.flatMap((hit) => published.get(hit.id) ?? []).slice(0, PUBLIC_SEARCH_RESULTS);
    },

    /** What the sitemap lists: the collections and every published article. */
    async sitemap(center: HelpCenter): Promise<{ collections: CollectionRow[]; articles: PublicArticle[] }> {
      const [all, sections] = await Promise.all([articles.publishedOf(center.product.id), collections.ofProduct(center.product.id)]);
      return { collections: sections, articles: all };
    },

    groupOf,
  };
}

export type HelpPages = ReturnType<typeof createHelpPages>;
