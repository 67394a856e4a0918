// What visitors did with the help center (migration 0039), and the self-service counts the reports
// read from it (docs/help-center.md, "How it is measured"). One row per event; no text a visitor
// typed is kept.
import type { Executor } from '../executor.js';
import type { HelpEventTable } from '../../schema.js';

export const HELP_EVENT_KINDS = ['search', 'answer_shown', 'article_viewed'] as const;
export type HelpEventKind = (typeof HELP_EVENT_KINDS)[number];

/** The events after which a visitor may have been served: they saw an answer or opened an article. */
const SERVING: readonly HelpEventKind[] = ['answer_shown', 'article_viewed'];

export type HelpEventRow = HelpEventTable;

export interface SelfServiceWindow {
  workspaceId: string;
  /** Null: every product of the workspace. */
  productId: string | null;
  /** Events from this instant (inclusive) … */
  from: string;
  /** … to this one (exclusive). */
  to: string;
  /** Now: a visitor whose 30 minutes are not over yet is not counted as self-served (nor as not). */
  now: string;
}

export interface SelfService {
  searches: number;
  articles_viewed: number;
  answers_shown: number;
  /** Visitor sessions that saw an answer or opened an article and started no conversation within 30 minutes of any such event. */
  self_served: number;
  /** Visitor sessions that started a conversation within 30 minutes of seeing an answer or opening an article. */
  conversations_after_article: number;
}

export function helpEventRepository(db: Executor) {
  const inWindow = (tx: Executor, window: SelfServiceWindow) => {
    let query = tx.selectFrom('help_events as e').where('e.workspace_id', '=', window.workspaceId)
      .where('e.created_at', '>=', window.from).where('e.created_at', '<', window.to);
    if (window.productId) query = query.where('e.product_id', '=', window.productId);
    return query;
  };

  /** The sessions' serving events followed, within their 30 minutes, by a conversation of the session's contact in the product. */
  const followedByConversation = (tx: Executor) => tx.selectFrom('help_events as f')
    .innerJoin('conversations as c', (join) => join.onRef('c.contact_id', '=', 'f.contact_id').onRef('c.product_id', '=', 'f.product_id')
      .onRef('c.created_at', '>=', 'f.created_at').onRef('c.created_at', '<', 'f.decided_at'))
    .where('f.kind', 'in', SERVING);

  return {
    async record(row: HelpEventRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('help_events').values(row).execute();
    },

    async selfService(window: SelfServiceWindow, tx: Executor = db): Promise<SelfService> {
      const counts = await inWindow(tx, window).select(['e.kind', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('e.kind').execute();
      const count = (kind: HelpEventKind) => Number(counts.find((row) => row.kind === kind)?.n ?? 0);
      const sessions = (followed: boolean) => inWindow(tx, window)
        .select((eb) => eb.fn.count<number>('e.session_id').distinct().as('n'))
        .where('e.kind', 'in', SERVING).where('e.session_id', 'is not', null)
        .where((eb) => {
          const later = eb.exists(followedByConversation(tx).select('f.id').where('f.session_id', '=', eb.ref('e.session_id')));
          return followed ? later : eb.and([eb.not(later), eb('e.decided_at', '<=', window.now)]);
        })
        .executeTakeFirstOrThrow();
      const served = await sessions(false);
      const after = await sessions(true);
      return {
        searches: count('search'), articles_viewed: count('article_viewed'), answers_shown: count('answer_shown'),
        self_served: Number(served.n), conversations_after_article: Number(after.n),
      };
    },
  };
}

export type HelpEventRepository = ReturnType<typeof helpEventRepository>;
