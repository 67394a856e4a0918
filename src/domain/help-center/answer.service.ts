// Answers from the help center (docs/help-center.md, "Answers"): the passages of a product's
// published articles that answer a question, best first, and with a chat model an answer written
// from them. Visitors ask through the widget (GET /widget/v1/{key}/answers); the team sees the
// articles that answer a conversation (GET /api/v1/conversations/{id}/suggested-articles).
//
// A product's passages are read once per help version (every write of its articles moves it) and
// kept in memory; with an embedder, a passage whose stored vector is missing or of another model
// is embedded here and stored, so it is embedded once (the article write path embeds a published
// article's passages after its commit, so this is rare). A model that fails falls back to words.
import type { Embedder } from '../../dedup/embedding-detector.js';
import { EMBED_BATCH } from '../../dedup/embedding-detector.js';
import { LruMap } from '../../dedup/lru.js';
import { unit } from '../../dedup/vector-cache.js';
import type { ArticleRepository } from '../../db/repositories/help-center/article.repository.js';
import type { PassageRepository, PublishedPassage } from '../../db/repositories/help-center/passage.repository.js';
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import type { MessageRepository } from '../../db/repositories/message.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import { invalidField, notFound } from '../../errors.js';
import { excerptOf } from '../../lib/article-markdown.js';
import type { Clock } from '../../lib/clock.js';
import { parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import type { Visitor } from '../widget/widget-session.service.js';
import { bestPassages, vectorScores, wordIndex, wordScores, type ScoredPassage, type WordIndex } from './answer-retrieval.js';
import { answerThreshold } from './answer-thresholds.js';
import type { AnswerWriter, WrittenAnswer } from './answer-writer.js';
import type { HelpEvents } from './help-events.js';
import { passageInput } from './passages.js';

/** How many products' passages a process keeps. */
const CACHED_PRODUCTS = 256;
/** What a conversation is matched on at most (its title and its contact's latest message). */
const CONVERSATION_TEXT_MAX = 2_000;

export interface FoundArticle {
  article: { id: string; title: string; slug: string; excerpt: string; url: string };
  passage: string;
  score: number;
}

export interface Answers {
  data: FoundArticle[];
  answer: WrittenAnswer | null;
}

/** The public address of a published article: its help center's page (src/http/help). */
export type ArticleLink = (helpSlug: string, article: { slug: string; locale: string }) => string;

interface MatchedPassage extends PublishedPassage {
  input: string;
}

interface ProductPassages {
  version: number;
  passages: MatchedPassage[];
  /** Unit vectors of `model`, one per passage (null where the embedder gave none). */
  vectors: { model: string; rows: (Float32Array | null)[] } | null;
  words: WordIndex | null;
}

export interface AnswerServiceDeps {
  products: Pick<ProductRepository, 'findById'>;
  passages: Pick<PassageRepository, 'published' | 'storeVectors'>;
  articles: Pick<ArticleRepository, 'findMatching'>;
  conversations: Pick<ConversationRepository, 'findById'>;
  messages: Pick<MessageRepository, 'lastFromContact'>;
  events: HelpEvents;
  clock: Clock;
  /** The duplicate detector's embedder at this moment (the `auto` matcher gains one once its model loads). */
  embedder: () => Embedder | undefined;
  /** Null: no chat model is configured. */
  writer: AnswerWriter | null;
  onError: (error: unknown) => void;
}

export function createAnswerService({ products, passages, articles, conversations, messages, events, clock, embedder, writer, onError }: AnswerServiceDeps) {
  const cache = new LruMap<string, ProductPassages>(CACHED_PRODUCTS);

  async function loaded(workspaceId: string, productId: string, version: number): Promise<ProductPassages> {
    const cached = cache.get(productId);
    if (cached?.version === version) return cached;
    const rows = await passages.published(workspaceId, productId);
    const fresh = { version, passages: rows.map((row) => ({ ...row, input: passageInput(row.title, row.text) })), vectors: null, words: null };
    cache.set(productId, fresh);
    return fresh;
  }

  /** The product's passage vectors of the embedder's model, embedding (and storing) the missing ones. */
  async function vectorsOf(product: ProductPassages, model: Embedder): Promise<(Float32Array | null)[]> {
    if (product.vectors?.model === model.model) return product.vectors.rows;
    const rows = product.passages.map((p) => (p.model === model.model ? p.vector : null));
    const missing = rows.flatMap((vector, i) => (vector ? [] : [i]));
    for (let start = 0; start < missing.length; start += EMBED_BATCH) {
      const batch = missing.slice(start, start + EMBED_BATCH);
      const vectors = await model.embed(batch.map((i) => product.passages[i].input));
      const stored = batch.flatMap((i, k) => {
        rows[i] = unit(vectors[k]);
        const p = product.passages[i];
        return rows[i] ? [{ articleId: p.articleId, position: p.position, hash: p.hash, model: model.model, vector: rows[i]! }] : [];
      });
      await passages.storeVectors(stored);
    }
    product.vectors = { model: model.model, rows };
    return rows;
  }

  /** The passages that answer `question`, by meaning when a model is there and works, by words otherwise. */
  async function scored(product: ProductPassages, question: string): Promise<ScoredPassage<MatchedPassage>[]> {
    if (product.passages.length === 0) return [];
    const model = embedder();
    if (model) {
      try {
        const [asked] = await model.embed([question]);
        return bestPassages(product.passages, vectorScores(await vectorsOf(product, model), asked), answerThreshold(model.model));
      } catch (error) {
        onError(error);
      }
    }
    product.words ??= wordIndex(product.passages.map((p) => p.input));
    return bestPassages(product.passages, wordScores(product.words, question), answerThreshold(null));
  }

  /** The articles answering `question` in a product whose help center is on; [] when it is off. */
  async function find(workspaceId: string, productId: string, question: string, link: ArticleLink): Promise<{ found: FoundArticle[]; sources: ScoredPassage<MatchedPassage>[] } | null> {
    const product = await products.findById(workspaceId, productId);
    if (!product || !product.help_center || !product.help_slug) return null;
    const best = await scored(await loaded(workspaceId, productId, Number(product.help_version)), question);
    const rows = await articles.findMatching(workspaceId, best.map((b) => b.passage.articleId), { status: ['published'] });
    const byId = new Map(rows.map((row) => [row.id, row]));
    // An article unpublished since the passages were read is left out.
    const sources = best.filter((b) => byId.has(b.passage.articleId));
    const found = sources.map(({ passage, score }) => {
      const row = byId.get(passage.articleId)!;
      return {
        article: { id: row.id, title: row.title, slug: row.slug, excerpt: excerptOf(row.body_text), url: link(product.help_slug!, row) },
        passage: passage.text,
        score: Math.round(score * 10_000) / 10_000,
      };
    });
    return { found, sources };
  }

  const requireQuestion = (q: string): string => {
    const question = q.trim();
    if (question === '') throw invalidField('q', 'must not be blank');
    return question;
  };

  return {
    /** A visitor's question: the articles, an answer when a chat model is there, and the visitor's events. 404 when the help center is off. */
    async answer(product: { id: string; workspace_id: string }, visitor: Visitor | null, q: string, link: ArticleLink): Promise<Answers> {
      const question = requireQuestion(q);
      const result = await find(product.workspace_id, product.id, question, link);
      if (!result) throw notFound('help center');
      const answer = writer ? await writer.write(question, result.sources.map(({ passage }) => ({ articleId: passage.articleId, title: passage.title, passage: passage.text }))) : null;
      const where = { workspaceId: product.workspace_id, productId: product.id };
      await events.record('search', where, visitor);
      if (result.found.length > 0) await events.record('answer_shown', where, visitor);
      return { data: result.found, answer };
    },

    /** The articles that answer a conversation (its title and its contact's latest message), for the team. */
    async suggestedFor(actor: Actor, conversationId: string, link: ArticleLink): Promise<FoundArticle[]> {
      const id = parseUuid(conversationId);
      const conversation = id ? await conversations.findById(actor.workspaceId, id) : undefined;
      if (!conversation) throw notFound('conversation');
      const latest = await messages.lastFromContact(actor.workspaceId, conversation.id, clock.now());
      const text = `${conversation.title}\n${latest?.body ?? ''}`.trim().slice(0, CONVERSATION_TEXT_MAX);
      if (text === '') return [];
      return (await find(actor.workspaceId, conversation.product_id, text, link))?.found ?? [];
    },

    /** After an article's write committed: embeds its passages when it is published and an embedder is there. Never rejects. */
    async indexArticle(workspaceId: string, productId: string, articleId: string): Promise<void> {
      const model = embedder();
      if (!model) return;
      try {
        const rows = (await passages.published(workspaceId, productId, articleId)).filter((p) => p.model !== model.model || !p.vector);
        if (rows.length === 0) return;
        const vectors = await model.embed(rows.map((p) => passageInput(p.title, p.text)));
        await passages.storeVectors(rows.flatMap((p, i) => {
          const vector = unit(vectors[i]);
          return vector ? [{ articleId: p.articleId, position: p.position, hash: p.hash, model: model.model, vector }] : [];
        }));
      } catch (error) {
        onError(error);
      }
    },
  };
}

export type AnswerService = ReturnType<typeof createAnswerService>;
