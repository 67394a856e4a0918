// Widget visitor sessions' views of and votes on articles (migration 0040): one row per article and
// session. Every statement answers whether it changed something, so the caller moves the article's
// tallies by exactly what changed.
import type { Executor } from '../executor.js';

export interface VisitKey {
  workspaceId: string;
  productId: string;
  articleId: string;
  sessionId: string;
}

const row = (key: VisitKey) => ({
  article_id: key.articleId, widget_session_id: key.sessionId, workspace_id: key.workspaceId, product_id: key.productId,
});

export function articleVisitRepository(db: Executor) {
  return {
    /** Records the session's first view of the article: true when this was it. */
    async recordView(key: VisitKey, now: string, tx: Executor = db): Promise<boolean> {
      const result = await tx.insertInto('article_visits').values({ ...row(key), viewed_at: now, helpful: null, voted_at: null })
        .onConflict((c) => c.columns(['article_id', 'widget_session_id']).doUpdateSet({ viewed_at: now }).where('article_visits.viewed_at', 'is', null))
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** The session's vote on the article (1 helpful, 0 not), or null. */
    async voteOf(key: VisitKey, tx: Executor = db): Promise<number | null> {
      const found = await tx.selectFrom('article_visits').select('helpful')
        .where('article_id', '=', key.articleId).where('widget_session_id', '=', key.sessionId).executeTakeFirst();
      return found?.helpful ?? null;
    },

    async setVote(key: VisitKey, helpful: number, now: string, tx: Executor = db): Promise<void> {
      await tx.insertInto('article_visits').values({ ...row(key), viewed_at: null, helpful, voted_at: now })
        .onConflict((c) => c.columns(['article_id', 'widget_session_id']).doUpdateSet({ helpful, voted_at: now }))
        .execute();
    },
  };
}

export type ArticleVisitRepository = ReturnType<typeof articleVisitRepository>;
