import { compileOnce } from './compiled-query.js';
import type { Executor, Page, PageOf } from './executor.js';
import { OLDEST_FIRST, countRows, readPage } from './paging.js';
import type { SuggestionTable } from '../schema.js';

const SUGGESTION_COLUMNS = [
  'id', 'workspace_id', 'product_id', 'conversation_id', 'kind', 'status', 'issue_id', 'title', 'description', 'priority', 'score',
  'possible_duplicates', 'detector', 'created_at', 'updated_at',
] as const;

export type SuggestionRow = SuggestionTable;
/** The columns a suggestion's accept or dismiss may change. */
export type SuggestionChanges = Partial<Pick<SuggestionTable, 'status' | 'issue_id' | 'title' | 'description' | 'priority' | 'score' | 'updated_at'>>;

/** The triage queue's filters; an absent or empty list does not filter. */
export interface SuggestionFilters {
  productId?: string;
  statuses?: readonly string[];
  kinds?: readonly string[];
}

export function suggestionRepository(db: Executor) {
  const byId = compileOnce(['workspaceId', 'id'], ({ workspaceId, id }: { workspaceId: string; id: string }) =>
    db.selectFrom('suggestions').select(SUGGESTION_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id),
  );
  const openOfConversation = compileOnce(
    ['workspaceId', 'conversationId'],
    ({ workspaceId, conversationId }: { workspaceId: string; conversationId: string }) =>
      db
        .selectFrom('suggestions')
        .select(SUGGESTION_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('conversation_id', '=', conversationId)
        .where('status', '=', 'open')
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc'),
  );
  const anyOfConversation = compileOnce(
    ['workspaceId', 'conversationId'],
    ({ workspaceId, conversationId }: { workspaceId: string; conversationId: string }) =>
      db.selectFrom('suggestions').select('id').where('workspace_id', '=', workspaceId).where('conversation_id', '=', conversationId).limit(1),
  );

  const from = (tx: Executor) => tx.selectFrom('suggestions');

  /** One page, oldest first, and how many match. */
  async function pageOf(
    tx: Executor,
    scoped: (query: ReturnType<typeof from>) => ReturnType<typeof from>,
    page: Page,
  ): Promise<PageOf<SuggestionRow>> {
    const matching = scoped(from(tx));
    return readPage(OLDEST_FIRST, page, () => countRows(matching), (read) => read.sliced(matching).select(SUGGESTION_COLUMNS).execute());
  }

  return {
    async insert(row: SuggestionRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('suggestions').values(row).execute();
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<SuggestionRow | undefined> {
      return (await byId(tx, { workspaceId, id }))[0];
    },

    /** Whether triage has ever run for the conversation. */
    async existForConversation(workspaceId: string, conversationId: string, tx: Executor = db): Promise<boolean> {
      return (await anyOfConversation(tx, { workspaceId, conversationId })).length > 0;
    },

    /** The conversation's open suggestions, oldest first. */
    openOfConversation: (workspaceId: string, conversationId: string, tx: Executor = db): Promise<SuggestionRow[]> =>
      openOfConversation(tx, { workspaceId, conversationId }),

    /** A page of the conversation's suggestions, every status, oldest first. */
    listByConversation: (workspaceId: string, conversationId: string, page: Page, tx: Executor = db): Promise<PageOf<SuggestionRow>> =>
      pageOf(tx, (query) => query.where('workspace_id', '=', workspaceId).where('conversation_id', '=', conversationId), page),

    /** A page of the workspace's suggestions (the triage queue), oldest first. */
    list(workspaceId: string, filters: SuggestionFilters, page: Page, tx: Executor = db): Promise<PageOf<SuggestionRow>> {
      return pageOf(tx, (query) => {
        let scoped = query.where('workspace_id', '=', workspaceId);
        if (filters.productId !== undefined) scoped = scoped.where('product_id', '=', filters.productId);
        if (filters.statuses?.length) scoped = scoped.where('status', 'in', filters.statuses);
        if (filters.kinds?.length) scoped = scoped.where('kind', 'in', filters.kinds);
        return scoped;
      }, page);
    },

    async update(workspaceId: string, id: string, changes: SuggestionChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('suggestions').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}

export type SuggestionRepository = ReturnType<typeof suggestionRepository>;
