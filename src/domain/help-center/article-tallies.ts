// The one write path of an article's tallies (docs/help-center.md, "In the widget"): `views`,
// `helpful` and `not_helpful` move only here, each with the visitor session's row of
// article_visits in the same transaction, so that they always equal what those rows hold. A view
// counts once per session; a session has one vote, and a second one changes it (one tally down,
// the other up). A session's votes on an article take turns under a lock, and every tally moves
// relative to what is committed, so concurrent votes of many sessions all count, exactly, on both
// databases. Tallies are no edit of the article: no event, no new help version (the public pages
// do not show them), no updated_at. A counted view is also the reports' `article_viewed` (help-events.ts),
// recorded in the same transaction.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { ArticleRepository } from '../../db/repositories/help-center/article.repository.js';
import type { ArticleVisitRepository, VisitKey } from '../../db/repositories/help-center/article-visit.repository.js';
import type { Clock } from '../../lib/clock.js';
import type { Visitor } from '../widget/widget-session.service.js';
import type { HelpEvents } from './help-events.js';
import { holdLock, inTransaction } from '../shared/unit-of-work.js';

export interface ArticleTalliesDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  articles: Pick<ArticleRepository, 'addToTallies'>;
  articleVisits: ArticleVisitRepository;
  clock: Clock;
  viewEvents: Pick<HelpEvents, 'record'>;
}

const counts = (vote: number | null) => ({ helpful: vote === 1 ? 1 : 0, not_helpful: vote === 0 ? 1 : 0 });

export function createArticleTallies({ db, dialect, articles, articleVisits, clock, viewEvents }: ArticleTalliesDeps) {
  return {
    /** Counts the session's view of the article, unless it was counted before. */
    view: (key: VisitKey, visitor: Visitor): Promise<void> => inTransaction(db, async ({ tx }) => {
      if (!(await articleVisits.recordView(key, clock.now(), tx))) return;
      await articles.addToTallies(key.workspaceId, key.articleId, { views: 1 }, tx);
      await viewEvents.record('article_viewed', key, visitor, key.articleId, tx);
    }),

    /** Sets the session's vote; the same vote again changes nothing. */
    vote: (key: VisitKey, helpful: boolean): Promise<void> => inTransaction(db, async (work) => {
      await holdLock(dialect, work, `article-vote:${key.articleId}:${key.sessionId}`);
      const before = await articleVisits.voteOf(key, work.tx);
      const after = helpful ? 1 : 0;
      if (before === after) return;
      await articleVisits.setVote(key, after, clock.now(), work.tx);
      const [was, is] = [counts(before), counts(after)];
      await articles.addToTallies(key.workspaceId, key.articleId, { helpful: is.helpful - was.helpful, not_helpful: is.not_helpful - was.not_helpful }, work.tx);
    }),
  };
}

export type ArticleTallies = ReturnType<typeof createArticleTallies>;
