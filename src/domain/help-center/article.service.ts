// Help center articles (docs/help-center.md): Markdown bodies, drafts and publishing, translations
// (`translation_of` names the original; one article per locale in a group), slugs unique per
// product and locale. Any member writes them (read-only keys never). This service is the one writer
// of articles: every write takes the product's help-center lock, moves its help version and records
// its events here (article.published when an article becomes published: created so, or a draft
// PATCHed to published). Its tallies (views, votes) are the widget's: article-tallies.ts. It also keeps the article's passages (what answers match and show) in
// step with its title and text, in the same transaction, and hands a committed article to
// `indexed` (answers embed a published article's passages then).
import type { Db } from '../../db/database.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { ArticleChanges, ArticleFilters, ArticleRepository, ArticleRow } from '../../db/repositories/help-center/article.repository.js';
import type { CollectionRepository } from '../../db/repositories/help-center/collection.repository.js';
import type { PassageRepository } from '../../db/repositories/help-center/passage.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import type { SearchRepository } from '../../db/repositories/search.repository.js';
import { checkAll, invalidField, notFound } from '../../errors.js';
import type { DomainEvent } from '../../events/event-types.js';
import type { Outbox } from '../../events/outbox.js';
import { articleText, excerptOf, renderArticleHtml } from '../../lib/article-markdown.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { effectiveChanges, previousOf } from '../shared/changes.js';
import { inTransaction, type Work } from '../shared/unit-of-work.js';
import { normalizeTags } from '../tags/tags.js';
import { toArticle, type Article, type ArticleStatus } from './help-center.shapes.js';
import type { HelpCenterWrites } from './help-center-writes.js';
import { DEFAULT_LOCALE, requireLocale } from './locales.js';
import { articlePassages } from './passages.js';
import { freeSlugFor } from './slugs.js';
import { wordsOf } from '../search/search.service.js';

export interface ArticleInput {
  product_id: string;
  collection_id?: string | null;
  title: string;
  slug?: string;
  body: string;
  locale?: string;
  translation_of?: string | null;
  status?: ArticleStatus;
  tags?: string[];
}

export type ArticleUpdate = Partial<Omit<ArticleInput, 'product_id'>>;

export interface ArticleListFilters extends ArticleFilters {
  q?: string;
}

/** How many of a full-text search's best matches a filtered list of articles considers. */
export const ARTICLE_SEARCH_HITS = 1000;

export interface ArticleServiceDeps {
  db: Db;
  articles: ArticleRepository;
  collections: Pick<CollectionRepository, 'findById'>;
  products: Pick<ProductRepository, 'findById'>;
  search: Pick<SearchRepository, 'search'>;
  passages: Pick<PassageRepository, 'replace'>;
  helpWrites: HelpCenterWrites;
  outbox: Outbox;
  clock: Clock;
  /** After a create or an update committed (never rejects; not waited for). */
  indexed?: (workspaceId: string, productId: string, articleId: string) => Promise<void>;
}

export function createArticleService({ db, articles, collections, products, search, passages, helpWrites, outbox, clock, indexed }: ArticleServiceDeps) {
  /** The write's answer, once committed: the article's passages are embedded in the background. */
  const committed = (actor: Actor, article: Article): Article => {
    void indexed?.(actor.workspaceId, article.product_id, article.id);
    return article;
  };

  async function find(actor: Actor, id: string, tx: Executor = db): Promise<ArticleRow> {
    const articleId = parseUuid(id);
    const row = articleId ? await articles.findById(actor.workspaceId, articleId, tx) : undefined;
    if (!row) throw notFound('article');
    return row;
  }

  async function checkCollection(actor: Actor, productId: string, collectionId: string | null | undefined, tx: Executor): Promise<void> {
    if (collectionId === undefined || collectionId === null) return;
    const id = parseUuid(collectionId);
    const collection = id ? await collections.findById(actor.workspaceId, id, tx) : undefined;
    if (collection?.product_id !== productId) throw invalidField('collection_id', 'is not a collection of the article\'s product');
  }

  /**
   * The rules of a translation: the original is another article of the product and no translation
   * itself; an article with translations stays an original; every article of a group has its own
   * locale. `self` is the article being changed (null on create).
   */
  async function checkTranslation(actor: Actor, self: string | null, productId: string, translationOf: string | null, locale: string, tx: Executor): Promise<void> {
    if (translationOf === null) {
      if (self === null) return;
      const clash = (await articles.group(self, tx)).find((member) => member.id !== self && member.locale === locale);
      if (clash) throw invalidField('locale', `the article's translation ${clash.id} is in ${locale} already`);
      return;
    }
    const originalId = parseUuid(translationOf);
    const original = originalId ? await articles.findById(actor.workspaceId, originalId, tx) : undefined;
    if (!original || original.product_id !== productId) throw invalidField('translation_of', 'is not an article of the same product');
    if (original.id === self) throw invalidField('translation_of', 'an article cannot translate itself');
    if (original.translation_of !== null) throw invalidField('translation_of', `is itself a translation; name its original, ${original.translation_of}`);
    if (self !== null && (await articles.hasTranslations(self, tx))) throw invalidField('translation_of', 'this article has translations of its own, so it stays an original');
    const clash = (await articles.group(original.id, tx)).find((member) => member.id !== self && member.locale === locale);
    if (clash) throw invalidField('locale', `the translation group already has an article in ${locale}: ${clash.id}`);
  }

  /** The slug given (free in the product and locale, else a validation_error), or one made from the title. */
  async function slugFor(productId: string, locale: string, title: string, given: string | undefined, self: string | null, tx: Executor): Promise<string> {
    if (given === undefined) return freeSlugFor(title, 'article', (stem) => articles.slugsStartingWith(productId, locale, stem, tx));
    const holder = await articles.findBySlug(productId, locale, given, tx);
    if (holder && holder.id !== self) throw invalidField('slug', `is already taken in this product's ${locale} articles`);
    return given;
  }

  /** Published articles need something to read. */
  function checkPublishable(status: string, body: string): void {
    if (status === 'published' && body.trim().length === 0) throw invalidField('body', 'a published article needs a body');
  }

  /** Records the article's events and answers it as it is now. */
  async function recordEvents(work: Work, actor: Actor, id: string, previous: { shown: Article; changes: ArticleChanges } | null): Promise<Article> {
    const data = toArticle(await find(actor, id, work.tx));
    const event = { workspaceId: actor.workspaceId, data };
    const recorded: DomainEvent[] = [previous
      ? { ...event, type: 'article.updated', previous: previousOf(previous.shown, shownChanges(previous.changes)) }
      : { ...event, type: 'article.created' }];
    if (data.status === 'published' && previous?.shown.status !== 'published') recorded.push({ ...event, type: 'article.published' });
    await outbox.record(work, ...recorded);
    return data;
  }

  return {
    find,

    get: async (actor: Actor, id: string): Promise<Article> => toArticle(await find(actor, id)),

    /** A body as a published article shows it, and the excerpt it would give (the editor's preview). */
    preview: (body: string): { html: string; excerpt: string } => ({ html: renderArticleHtml(body), excerpt: excerptOf(articleText(body)) }),

    /** Newest first; with `q`, best match first (among the search's best ARTICLE_SEARCH_HITS). */
    async list(actor: Actor, { q, ...filters }: ArticleListFilters, page: Page): Promise<PageOf<Article>> {
      if (q === undefined) {
        const { rows, total } = await articles.list(actor.workspaceId, filters, page);
        return { rows: rows.map(toArticle), total };
      }
      const words = wordsOf(q);
      if (words.length === 0) return { rows: [], total: 0 };
      const { hits } = await search.search({
        workspaceId: actor.workspaceId, words, types: ['article'], productId: filters.productId, limit: ARTICLE_SEARCH_HITS, offset: 0,
      });
      const rank = new Map(hits.map((hit, i) => [hit.id, i]));
      const rows = (await articles.findMatching(actor.workspaceId, [...rank.keys()], filters)).sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
      return { rows: rows.slice(page.offset, page.offset + page.limit).map(toArticle), total: rows.length };
    },

    async create(actor: Actor, input: ArticleInput): Promise<Article> {
      const productId = parseUuid(input.product_id);
      const product = productId ? await products.findById(actor.workspaceId, productId) : undefined;
      const [, locale, tags] = await checkAll([
        () => { if (!product) throw invalidField('product_id', 'is not a product of this workspace'); },
        () => requireLocale(input.locale ?? DEFAULT_LOCALE),
        () => normalizeTags(input.tags ?? []),
        () => checkPublishable(input.status ?? 'draft', input.body),
      ] as const);
      const id = newId();
      return committed(actor, await inTransaction(db, async (work) => {
        const { tx } = work;
        await helpWrites.lock(work, product!.id);
        await checkAll([
          () => checkCollection(actor, product!.id, input.collection_id, tx),
          () => checkTranslation(actor, null, product!.id, input.translation_of ?? null, locale, tx),
        ]);
        const now = clock.now();
        const status = input.status ?? 'draft';
        const bodyText = articleText(input.body);
        await articles.insert({
          id,
          workspace_id: actor.workspaceId,
          product_id: product!.id,
          collection_id: input.collection_id ? parseUuid(input.collection_id) : null,
          title: input.title,
          slug: await slugFor(product!.id, locale, input.title, input.slug, null, tx),
          body: input.body,
          body_text: bodyText,
          locale,
          translation_of: input.translation_of ? parseUuid(input.translation_of) : null,
          status,
          tags: JSON.stringify(tags),
          views: 0,
          helpful: 0,
          not_helpful: 0,
          created_at: now,
          updated_at: now,
          published_at: status === 'published' ? now : null,
        }, tx);
        await passages.replace({ id, workspace_id: actor.workspaceId, product_id: product!.id }, articlePassages(input.title, bodyText), tx);
        await helpWrites.changed(work, actor.workspaceId, product!.id);
        return recordEvents(work, actor, id, null);
      }));
    },

    /** updated_at moves only on an effective change; the slug stays when the title changes (links keep working). */
    async update(actor: Actor, id: string, input: ArticleUpdate): Promise<Article> {
      const { id: articleId, product_id: productId } = await find(actor, id);
      const [locale, tags] = await checkAll([
        () => (input.locale === undefined ? undefined : requireLocale(input.locale)),
        () => (input.tags === undefined ? undefined : normalizeTags(input.tags)),
      ] as const);
      return committed(actor, await inTransaction(db, async (work) => {
        const { tx } = work;
        await helpWrites.lock(work, productId);
        const current = await find(actor, articleId, tx);
        const wanted: ArticleChanges = {
          collection_id: input.collection_id === undefined ? undefined : input.collection_id && parseUuid(input.collection_id),
          title: input.title,
          body: input.body,
          body_text: input.body === undefined ? undefined : articleText(input.body),
          locale,
          translation_of: input.translation_of === undefined ? undefined : input.translation_of && parseUuid(input.translation_of),
          status: input.status,
          tags: tags === undefined ? undefined : JSON.stringify(tags),
          slug: input.slug,
        };
        const changes = effectiveChanges(current, wanted);
        if (!changes) return toArticle(current);
        const next = { ...current, ...changes };
        await checkAll([
          () => (changes.collection_id === undefined ? undefined : checkCollection(actor, productId, input.collection_id, tx)),
          () => (changes.translation_of === undefined && changes.locale === undefined ? undefined
            : checkTranslation(actor, articleId, productId, input.translation_of === undefined ? current.translation_of : input.translation_of, next.locale, tx)),
          () => (changes.slug === undefined && changes.locale === undefined ? undefined : slugFor(productId, next.locale, next.title, next.slug, articleId, tx)),
          () => checkPublishable(next.status, next.body),
        ]);
        const now = clock.now();
        changes.updated_at = now;
        if (changes.status !== undefined) changes.published_at = changes.status === 'published' ? now : null;
        await articles.update(actor.workspaceId, articleId, changes, tx);
        if (changes.title !== undefined || changes.body_text !== undefined) await passages.replace(current, articlePassages(next.title, next.body_text), tx);
        await helpWrites.changed(work, actor.workspaceId, productId);
        return recordEvents(work, actor, articleId, { shown: toArticle(current), changes });
      }));
    },

    /** Its translations stay, as originals of their own (docs/help-center.md). */
    async remove(actor: Actor, id: string): Promise<void> {
      const { id: articleId, product_id: productId } = await find(actor, id);
      await inTransaction(db, async (work) => {
        await helpWrites.lock(work, productId);
        await articles.delete(actor.workspaceId, articleId, work.tx);
        await helpWrites.changed(work, actor.workspaceId, productId);
      });
    },
  };
}

/** The fields of a change as the API names them: the text the Markdown gives is the excerpt, not a field of its own. */
function shownChanges(changes: ArticleChanges): Record<string, unknown> {
  const { body_text: text, ...shown } = changes;
  return text === undefined ? shown : { ...shown, excerpt: text };
}

export type ArticleService = ReturnType<typeof createArticleService>;
