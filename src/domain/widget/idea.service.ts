// A product's ideas in the widget: listed by upvotes or age, upvoted once per voter (a verified
// visitor's contact, any other visitor's session). An upvote and the conversation's `upvotes` change in one transaction under the
// conversation's lock, through the conversations' write path (conversation.updated), so the
// count is exact under any concurrency and equals what /api/v1 shows.
import type { Db } from '../../db/database.js';
import type { ConversationChanges, ConversationRepository, ConversationWithContactRow } from '../../db/repositories/conversation.repository.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { IdeaUpvoteRepository } from '../../db/repositories/idea-upvote.repository.js';
import { notFound } from '../../errors.js';
import { parseUuid } from '../../lib/ids.js';
import type { ConversationWrites } from '../conversations/conversation.writes.js';
import type { ConversationStatus } from '../shared/enums.js';
import { inTransaction } from '../shared/unit-of-work.js';
import type { Visitor } from './widget-session.service.js';
import type { WidgetProduct } from './widget-settings.js';

export interface Idea {
  id: string;
  title: string;
  status: ConversationStatus;
  upvotes: number;
  created_at: string;
  upvoted: boolean;
}

export interface IdeaServiceDeps {
  db: Db;
  conversations: ConversationRepository;
  ideaUpvotes: IdeaUpvoteRepository;
  writes: ConversationWrites;
}

/**
 * Who an upvote counts for: a verified visitor's contact (one vote per customer, from any device);
 * any other visitor's session, since a typed email proves nothing and must not show, nor cast, the
 * votes of the customer it names.
 */
const voterOf = (visitor: Visitor): string => (visitor.verified ? visitor.contactId : visitor.sessionId);

export function createIdeaService({ db, conversations, ideaUpvotes, writes }: IdeaServiceDeps) {
  /** An idea of the visitor's product that is not dismissed; anything else is a 404. */
  async function findIdea(visitor: Visitor, id: string, tx: Executor = db): Promise<ConversationWithContactRow> {
    const conversationId = parseUuid(id);
    const row = conversationId ? await conversations.findById(visitor.workspaceId, conversationId, tx) : undefined;
    if (!row || row.product_id !== visitor.productId || row.type !== 'idea' || row.status === 'dismissed') throw notFound('idea');
    return row;
  }

  /** Adds (`on`) or removes the visitor's upvote; a repeat changes nothing. */
  async function vote(visitor: Visitor, id: string, on: boolean): Promise<{ upvotes: number; upvoted: boolean }> {
    const { id: conversationId } = await findIdea(visitor, id);
    return inTransaction(db, async (work) => {
      const now = await writes.lock(work, conversationId);
      const current = await findIdea(visitor, conversationId, work.tx);
      const key = { workspaceId: visitor.workspaceId, conversationId, voterId: voterOf(visitor) };
      const changed = on ? await ideaUpvotes.add(key, visitor.contactId, now, work.tx) : await ideaUpvotes.remove(key, work.tx);
      if (!changed) return { upvotes: current.upvotes, upvoted: on };
      const changes: ConversationChanges = { upvotes: current.upvotes + (on ? 1 : -1), updated_at: now };
      await writes.update(work, current, changes);
      return { upvotes: changes.upvotes!, upvoted: on };
    });
  }

  return {
    async list(product: WidgetProduct, visitor: Visitor | null, sort: 'top' | 'new', page: Page): Promise<PageOf<Idea>> {
      const { rows, total } = await conversations.listIdeas(product.workspace_id, product.id, sort, page);
      const upvoted = visitor
        ? await ideaUpvotes.upvotedAmong(product.workspace_id, voterOf(visitor), rows.map((row) => row.id))
        : new Set<string>();
      return {
        rows: rows.map((row) => ({ ...row, status: row.status as ConversationStatus, upvoted: upvoted.has(row.id) })),
        total,
      };
    },

    /** Throws not_found unless the id names an idea the visitor may upvote. */
    async ensureExists(visitor: Visitor, id: string): Promise<void> {
      await findIdea(visitor, id);
    },

    upvote: (visitor: Visitor, id: string) => vote(visitor, id, true),
    removeUpvote: (visitor: Visitor, id: string) => vote(visitor, id, false),
  };
}

export type IdeaService = ReturnType<typeof createIdeaService>;
