// What visitors do with the help center, recorded for the reports' self-service figures
// (docs/help-center.md, "How it is measured"): a search, an answer shown, an article viewed, each
// with the visitor's session and contact when there is one. Whoever serves such a request records
// it here (the answers endpoint its searches and answers; the widget's article view its views).
import { Temporal } from 'temporal-polyfill';
import type { HelpEventKind, HelpEventRepository, SelfService, SelfServiceWindow } from '../../db/repositories/help-center/help-event.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Visitor } from '../widget/widget-session.service.js';

/** How long after seeing an answer or an article a new conversation means the visitor was not served (§12). */
export const SELF_SERVICE_MINUTES = 30;

const minutesAfter = (instant: string, minutes: number): string =>
  new Date(Temporal.Instant.from(instant).add({ minutes }).epochMilliseconds).toISOString();

export function createHelpEvents({ helpEvents, clock }: { helpEvents: HelpEventRepository; clock: Clock }) {
  return {
    async record(kind: HelpEventKind, where: { workspaceId: string; productId: string }, visitor: Visitor | null, articleId: string | null = null, tx?: Executor): Promise<void> {
      const now = clock.now();
      await helpEvents.record({
        id: newId(), workspace_id: where.workspaceId, product_id: where.productId, kind, session_id: visitor?.sessionId ?? null,
        contact_id: visitor?.contactId ?? null, article_id: articleId, created_at: now, decided_at: minutesAfter(now, SELF_SERVICE_MINUTES),
      }, tx);
    },

    /** The self-service counts of a window (see SelfService), undecided visitors left out as of the clock's now. */
    selfService: (window: Omit<SelfServiceWindow, 'now'>): Promise<SelfService> => helpEvents.selfService({ ...window, now: clock.now() }),
  };
}

export type HelpEvents = ReturnType<typeof createHelpEvents>;
