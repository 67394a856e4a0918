// The help center in the widget (docs/help-center.md, "In the widget"): a product's published
// articles for its visitors — suggested (most read first) or matching what they type (best first),
// each translation group once — and one article with its HTML, counting the session's view once
// and taking its "Was this helpful?" vote. A product whose help center is off, a draft, another
// product's article or no UUID: 404, as if it did not exist.
import type { ArticleRepository, ArticleRow, ListedArticleRow } from '../../db/repositories/help-center/article.repository.js';
import type { ArticleVisitRepository, VisitKey } from '../../db/repositories/help-center/article-visit.repository.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import type { ProductRepository, ProductRow } from '../../db/repositories/product.repository.js';
import type { SearchRepository } from '../../db/repositories/search.repository.js';
import { notFound } from '../../errors.js';
import { excerptOf, renderArticleHtml } from '../../lib/article-markdown.js';
import { parseUuid } from '../../lib/ids.js';
import { wordsOf } from '../search/search.service.js';
import type { Visitor } from '../widget/widget-session.service.js';
import type { WidgetProduct } from '../widget/widget-settings.js';
import type { ArticleTallies } from './article-tallies.js';
import { groupOf, oneEach } from './help-pages.service.js';
import { DEFAULT_LOCALE, bestLocale } from './locales.js';

/** How many of the search's best matches the widget's list considers (per search). */
const WIDGET_SEARCH_HITS = 200;
/** A message's words looked up one by one (deflection): the first distinct ones of three letters or more. */
const LOOSE_WORDS = 8;

/** Builds an article's public page address (the routes know the server's origin). */
export type ArticleUrl = (helpSlug: string, article: { slug: string; locale: string }) => string;

export interface WidgetArticleSummary {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  locale: string;
  url: string;
}

export interface WidgetArticle extends WidgetArticleSummary {
  /** The body as the public page renders it (docs/help-center.md, "What survives of the Markdown"). */
  html: string;
  translations: { id: string; locale: string; title: string }[];
  /** This session's answer to "Was this helpful?"; null without one or without a session. */
  helpful: boolean | null;
  updated_at: string;
}

export interface WidgetArticlesDeps {
  products: Pick<ProductRepository, 'findById'>;
  articles: Pick<ArticleRepository, 'publishedOf' | 'findById'>;
  articleVisits: Pick<ArticleVisitRepository, 'voteOf'>;
  search: Pick<SearchRepository, 'search'>;
  tallies: ArticleTallies;
}

const mostRead = (a: ListedArticleRow, b: ListedArticleRow) => b.views - a.views || b.helpful - a.helpful || a.title.localeCompare(b.title) || a.id.localeCompare(b.id);

export function createWidgetArticles({ products, articles, articleVisits, search, tallies }: WidgetArticlesDeps) {
  /** The product behind the widget, when its help center is on. */
  async function helpCenterOf(product: WidgetProduct): Promise<ProductRow> {
    const row = await products.findById(product.workspace_id, product.id);
    if (!row || row.help_center !== 1) throw notFound('help center');
    return row;
  }

  /** A published article of the product; anything else is a 404. */
  async function findPublished(product: WidgetProduct, id: string): Promise<{ center: ProductRow; article: ArticleRow }> {
    const center = await helpCenterOf(product);
    const articleId = parseUuid(id);
    const article = articleId ? await articles.findById(product.workspace_id, articleId) : undefined;
    if (!article || article.product_id !== product.id || article.status !== 'published') throw notFound('article');
    return { center, article };
  }

  const find = async (product: WidgetProduct, words: string[]): Promise<string[]> => (await search.search({
    workspaceId: product.workspace_id, words, types: ['article'], productId: product.id, limit: WIDGET_SEARCH_HITS, offset: 0,
  })).hits.map((hit) => hit.id);

  /**
   * The articles holding every word, best first, then those holding the most of its longer words
   * one by one: what a visitor types into a message is a sentence ("I cannot remember my
   * password"), whose every word no article holds.
   */
  async function matching(product: WidgetProduct, words: string[]): Promise<string[]> {
    if (words.length === 0) return [];
    const every = await find(product, words);
    const loose = [...new Set(words.map((word) => word.toLowerCase()))].filter((word) => [...word].length >= 3).slice(0, LOOSE_WORDS);
    if (loose.length < 2) return every;
    const counts = new Map<string, number>();
    for (const ids of await Promise.all(loose.map((word) => find(product, [word])))) for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    const found = new Set(every);
    return [...every, ...[...counts.keys()].filter((id) => !found.has(id)).sort((a, b) => counts.get(b)! - counts.get(a)!)];
  }

  const keyOf = (visitor: Visitor, article: ArticleRow): VisitKey =>
    ({ workspaceId: visitor.workspaceId, productId: article.product_id, articleId: article.id, sessionId: visitor.sessionId });

  const summaryOf = (center: ProductRow, url: ArticleUrl, article: ListedArticleRow): WidgetArticleSummary => ({
    id: article.id, title: article.title, slug: article.slug, excerpt: excerptOf(article.body_text), locale: article.locale, url: url(center.help_slug, article),
  });

  return {
    /**
     * With `q`: the articles whose title and text hold its words, best first (then those holding
     * the most of them), each translation group once (its best-matching article). Without: each group once in the locale that best
     * fits `locale`, most read first (the suggestions).
     */
    async list(product: WidgetProduct, { q, locale }: { q?: string; locale?: string }, page: Page, url: ArticleUrl): Promise<PageOf<WidgetArticleSummary>> {
      const center = await helpCenterOf(product);
      const published = await articles.publishedOf(product.id);
      let shown: ListedArticleRow[];
      if (q === undefined || q.trim() === '') {
        const fit = bestLocale(locale ? [locale] : [], [...new Set(published.map((article) => article.locale))]) ?? locale ?? DEFAULT_LOCALE;
        shown = oneEach(published, fit).sort(mostRead);
      } else {
        const byId = new Map(published.map((article) => [article.id, article]));
        const groups = new Set<string>();
        shown = (await matching(product, wordsOf(q))).flatMap((id) => {
          const article = byId.get(id);
          if (!article || groups.has(groupOf(article))) return [];
          groups.add(groupOf(article));
          return [article];
        });
      }
      return { rows: shown.slice(page.offset, page.offset + page.limit).map((article) => summaryOf(center, url, article)), total: shown.length };
    },

    /** The article; a session's first read of it counts as a view. */
    async open(product: WidgetProduct, visitor: Visitor | null, id: string, url: ArticleUrl): Promise<WidgetArticle> {
      const { center, article } = await findPublished(product, id);
      const [vote, all] = await Promise.all([
        visitor ? tallies.view(keyOf(visitor, article), visitor).then(() => articleVisits.voteOf(keyOf(visitor, article))) : null,
        articles.publishedOf(product.id),
      ]);
      const translations = all.filter((other) => other.id !== article.id && groupOf(other) === groupOf(article))
        .sort((a, b) => a.locale.localeCompare(b.locale)).map(({ id: otherId, locale, title }) => ({ id: otherId, locale, title }));
      return {
        ...summaryOf(center, url, article), html: renderArticleHtml(article.body), translations, helpful: vote === null ? null : vote === 1, updated_at: article.updated_at,
      };
    },

    /** Throws not_found unless the id names a published article of the product (before a body is checked). */
    async ensurePublished(product: WidgetProduct, id: string): Promise<void> {
      await findPublished(product, id);
    },

    /** The session's "Was this helpful?": one vote per session, a second changes it. */
    async feedback(product: WidgetProduct, visitor: Visitor, id: string, helpful: boolean): Promise<{ helpful: boolean }> {
      const { article } = await findPublished(product, id);
      await tallies.vote(keyOf(visitor, article), helpful);
      return { helpful };
    },
  };
}

export type WidgetArticles = ReturnType<typeof createWidgetArticles>;
