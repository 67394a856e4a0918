// Articles' passages and their vectors (migration 0039). The article write path replaces an
// article's passages in its transaction; vectors are added afterwards (after the commit, or by the
// first answer that needs them), each only where the passage's text is still the one embedded.
import type { Passage } from '../../../domain/help-center/passages.js';
import { float32Of, toBytes } from '../embedding.repository.js';
import type { Executor } from '../executor.js';

/** A published article's passage, with what an answer shows of its article. */
export interface PublishedPassage {
  articleId: string;
  position: number;
  text: string;
  hash: string;
  /** The vector of `model`, or null when none is stored. */
  vector: Float32Array | null;
  model: string | null;
  title: string;
  slug: string;
  locale: string;
  /** The translation group: the original's id (the article's own when it is one). */
  group: string;
}

export interface PassageVector {
  articleId: string;
  position: number;
  hash: string;
  model: string;
  vector: Float32Array;
}

export function passageRepository(db: Executor) {
  return {
    /** The article's passages are these from now on; a passage whose text is unchanged keeps its vector. */
    async replace(article: { id: string; workspace_id: string; product_id: string }, passages: readonly Passage[], tx: Executor): Promise<void> {
      const kept = new Map(
        (await tx.selectFrom('article_passages').select(['text_hash', 'model', 'dimension', 'vector']).where('article_id', '=', article.id).execute())
          .map((row) => [row.text_hash, row]),
      );
      await tx.deleteFrom('article_passages').where('article_id', '=', article.id).execute();
      if (passages.length === 0) return;
      await tx.insertInto('article_passages').values(passages.map((passage, position) => {
        const old = kept.get(passage.hash);
        return {
          article_id: article.id, position, workspace_id: article.workspace_id, product_id: article.product_id,
          text: passage.text, text_hash: passage.hash, model: old?.model ?? null, dimension: old?.dimension ?? null, vector: old?.vector ?? null,
        };
      })).execute();
    },

    /** The passages of the product's published articles, by article and position; `articleId` narrows them to one article. */
    async published(workspaceId: string, productId: string, articleId?: string, tx: Executor = db): Promise<PublishedPassage[]> {
      let query = tx.selectFrom('article_passages as p').innerJoin('articles as a', 'a.id', 'p.article_id')
        .select(['p.article_id', 'p.position', 'p.text', 'p.text_hash', 'p.model', 'p.dimension', 'p.vector', 'a.title', 'a.slug', 'a.locale', 'a.translation_of'])
        .where('p.workspace_id', '=', workspaceId).where('p.product_id', '=', productId).where('a.status', '=', 'published');
      if (articleId) query = query.where('p.article_id', '=', articleId);
      const rows = await query.orderBy('p.article_id').orderBy('p.position').execute();
      return rows.map((row) => ({
        articleId: row.article_id, position: Number(row.position), text: row.text, hash: row.text_hash,
        vector: row.vector && row.dimension ? float32Of(row.vector, Number(row.dimension)) : null, model: row.model,
        title: row.title, slug: row.slug, locale: row.locale, group: row.translation_of ?? row.article_id,
      }));
    },

    /** Stores each vector where its passage still holds the text it was computed from. */
    async storeVectors(vectors: readonly PassageVector[], tx: Executor = db): Promise<void> {
      for (const { articleId, position, hash, model, vector } of vectors) {
        await tx.updateTable('article_passages').set({ model, dimension: vector.length, vector: toBytes(vector) })
          .where('article_id', '=', articleId).where('position', '=', position).where('text_hash', '=', hash).execute();
      }
    },
  };
}

export type PassageRepository = ReturnType<typeof passageRepository>;
