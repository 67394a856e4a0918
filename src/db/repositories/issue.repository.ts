import { sql } from 'kysely';
import type { Executor, Page, PageOf } from './executor.js';
import type { IssueApiSourceTable, IssueTable } from '../schema.js';

const ISSUE_COLUMNS = [
  'issues.id', 'issues.workspace_id', 'issues.product_id', 'issues.shortcode', 'issues.title', 'issues.description',
  'issues.status', 'issues.priority', 'issues.assignee_id', 'issues.resolution_comment', 'issues.is_ai_generated',
  'issues.created_at', 'issues.updated_at',
] as const;

export type IssueRow = IssueTable;
export type IssueListRow = IssueRow & { linked_conversations_count: number; sources_count: number };
export type IssueChanges = Partial<Pick<IssueTable, 'title' | 'description' | 'status' | 'priority' | 'assignee_id' | 'resolution_comment' | 'updated_at'>>;

export interface IssueFilters {
  productId?: string;
  statuses?: string[];
  priorities?: string[];
  assigneeIds?: string[];
  /** Include unassigned issues (the `none` filter value). */
  unassigned?: boolean;
}

export interface LinkedConversationRow {
  issue_id: string;
  id: string;
  title: string;
  type: string;
  status: string;
  priority: string;
  ai_summary: string | null;
  created_at: string;
}

export function issueRepository(db: Executor) {
  function filtered(tx: Executor, workspaceId: string, filters: IssueFilters) {
    let query = tx.selectFrom('issues').where('issues.workspace_id', '=', workspaceId);
    if (filters.productId) query = query.where('issues.product_id', '=', filters.productId);
    if (filters.statuses?.length) query = query.where('issues.status', 'in', filters.statuses);
    if (filters.priorities?.length) query = query.where('issues.priority', 'in', filters.priorities);
    const { assigneeIds = [], unassigned = false } = filters;
    if (assigneeIds.length || unassigned) {
      query = query.where((eb) =>
        eb.or([
          ...(assigneeIds.length ? [eb('issues.assignee_id', 'in', assigneeIds)] : []),
          ...(unassigned ? [eb('issues.assignee_id', 'is', null)] : []),
        ]),
      );
    }
    return query;
  }

  return {
    /** The next number for (workspace, prefix); the row lock it takes holds until the transaction ends. */
    async nextNumber(workspaceId: string, prefix: string, tx: Executor = db): Promise<number> {
      const row = await tx
        .insertInto('issue_counters')
        .values({ workspace_id: workspaceId, prefix, last_number: 1 })
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'prefix']).doUpdateSet({ last_number: sql`issue_counters.last_number + 1` }),
        )
        .returning('last_number')
        .executeTakeFirstOrThrow();
      return Number(row.last_number);
    },

    async insert(row: IssueRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('issues').values(row).execute();
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<IssueRow | undefined> {
      return tx.selectFrom('issues').select(ISSUE_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    async findByShortcode(workspaceId: string, shortcode: string, tx: Executor = db): Promise<IssueRow | undefined> {
      return tx
        .selectFrom('issues')
        .select(ISSUE_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('shortcode', '=', shortcode)
        .executeTakeFirst();
    },

    /** The issues of the workspace among `ids` (others are simply absent). */
    async findManyByIds(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<IssueRow[]> {
      if (ids.length === 0) return [];
      return tx.selectFrom('issues').select(ISSUE_COLUMNS).where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
    },

    async list(workspaceId: string, filters: IssueFilters, page: Page, tx: Executor = db): Promise<PageOf<IssueListRow>> {
      // The page's ids come from the index first; columns and per-row counts are then read for those
      // rows alone. PostgreSQL otherwise computed both counts for every row an offset skips (4 req/s
      // at offset 90,000 in docs/benchmarks.md). The outer query filters on the ids alone, which
      // the workspace-scoped subquery chose: with a workspace condition too, SQLite walked the
      // workspace's listing index to return them in order.
      const pageIds = filtered(tx, workspaceId, filters)
        .select('issues.id')
        .orderBy('issues.created_at', 'desc')
        .orderBy('issues.id', 'desc')
        .limit(page.limit)
        .offset(page.offset);
      const [rows, count] = await Promise.all([
        tx
          .selectFrom('issues')
          .where('issues.id', 'in', pageIds)
          .select(ISSUE_COLUMNS)
          .select((eb) =>
            eb
              .selectFrom('issue_conversations')
              .select((inner) => inner.fn.countAll<number>().as('n'))
              .whereRef('issue_conversations.issue_id', '=', 'issues.id')
              .as('linked_conversations_count'),
          )
          .select((eb) =>
            eb
              .selectFrom('issue_api_sources')
              .select((inner) => inner.fn.countAll<number>().as('n'))
              .whereRef('issue_api_sources.issue_id', '=', 'issues.id')
              .as('sources_count'),
          )
          .orderBy('issues.created_at', 'desc')
          .orderBy('issues.id', 'desc')
          .execute(),
        filtered(tx, workspaceId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        rows: rows.map((row) => ({
          ...row,
          linked_conversations_count: Number(row.linked_conversations_count ?? 0),
          sources_count: Number(row.sources_count ?? 0),
        })),
        total: Number(count.n),
      };
    },

    async update(workspaceId: string, id: string, changes: IssueChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('issues').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** The product's issues a new report may duplicate. */
    async openOfProduct(workspaceId: string, productId: string, tx: Executor = db): Promise<Pick<IssueRow, 'id' | 'title' | 'description'>[]> {
      return tx
        .selectFrom('issues')
        .select(['id', 'title', 'description'])
        .where('workspace_id', '=', workspaceId)
        .where('product_id', '=', productId)
        .where('status', 'in', ['pending', 'in_progress', 'icebox'])
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },

    async insertSource(row: IssueApiSourceTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('issue_api_sources').values(row).execute();
    },

    /** How many deduplicating-create calls were recorded as sources of the issue. */
    async countSources(workspaceId: string, issueId: string, tx: Executor = db): Promise<number> {
      const row = await tx
        .selectFrom('issue_api_sources')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('issue_id', '=', issueId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Sets status `released` on the listed issues that are not released yet. */
    async markReleased(workspaceId: string, ids: readonly string[], updatedAt: string, tx: Executor = db): Promise<void> {
      if (ids.length === 0) return;
      await tx
        .updateTable('issues')
        .set({ status: 'released', updated_at: updatedAt })
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .where('status', '<>', 'released')
        .execute();
    },

    /** Conversations linked to each of `issueIds`, in link order, in one query. */
    async linkedConversations(workspaceId: string, issueIds: readonly string[], tx: Executor = db): Promise<LinkedConversationRow[]> {
      if (issueIds.length === 0) return [];
      return tx
        .selectFrom('issue_conversations as link')
        .innerJoin('conversations as c', 'c.id', 'link.conversation_id')
        .select(['link.issue_id', 'c.id', 'c.title', 'c.type', 'c.status', 'c.priority', 'c.ai_summary', 'c.created_at'])
        .where('link.workspace_id', '=', workspaceId)
        .where('link.issue_id', 'in', issueIds)
        .orderBy('link.created_at', 'asc')
        .orderBy('c.id', 'asc')
        .execute();
    },

    /** Links a conversation; linking twice is a no-op. */
    async link(workspaceId: string, issueId: string, conversationId: string, linkedAt: string, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('issue_conversations')
        .values({ workspace_id: workspaceId, issue_id: issueId, conversation_id: conversationId, created_at: linkedAt })
        .onConflict((conflict) => conflict.columns(['issue_id', 'conversation_id']).doNothing())
        .execute();
    },

    async unlink(workspaceId: string, issueId: string, conversationId: string, tx: Executor = db): Promise<void> {
      await tx
        .deleteFrom('issue_conversations')
        .where('workspace_id', '=', workspaceId)
        .where('issue_id', '=', issueId)
        .where('conversation_id', '=', conversationId)
        .execute();
    },
  };
}

export type IssueRepository = ReturnType<typeof issueRepository>;
