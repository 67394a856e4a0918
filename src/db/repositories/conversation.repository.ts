import { compileOnce } from './compiled-query.js';
import type { Executor, Page, PageOf } from './executor.js';
import { taggedIds } from './tag.repository.js';
import type { ConversationTable } from '../schema.js';

const CONVERSATION_COLUMNS = [
  'c.id', 'c.workspace_id', 'c.product_id', 'c.contact_id', 'c.type', 'c.source', 'c.status', 'c.priority', 'c.title',
  'c.ai_summary', 'c.rating', 'c.upvotes', 'c.widget_session_id', 'c.form_fields', 'c.tags', 'c.created_at', 'c.updated_at',
] as const;

export type ConversationRow = ConversationTable;
export type ConversationChanges = Partial<Pick<ConversationTable, 'status' | 'priority' | 'rating' | 'upvotes' | 'ai_summary' | 'tags' | 'updated_at'>>;

/** A conversation with the name, email and external id of its contact (null when there is none). */
export interface ConversationWithContactRow extends ConversationRow {
  contact_name: string | null;
  contact_email: string | null;
  contact_external_id: string | null;
}

/** An issue a conversation is linked to, as the conversation's detail names it. */
export type LinkedIssueRow = { id: string; shortcode: string; title: string; status: string };

/** Whose conversations a visitor sees: all of a verified contact's, or those an unverified session started. */
export type VisitorScope = { contactId: string } | { sessionId: string };

/** An idea as the widget lists it. */
export type IdeaRow = Pick<ConversationTable, 'id' | 'title' | 'status' | 'upvotes' | 'created_at'>;

/** List filters; an absent or empty list does not filter. Ids must be canonical UUIDs. */
export interface ConversationFilters {
  productId?: string;
  types?: readonly string[];
  statuses?: readonly string[];
  priorities?: readonly string[];
  ids?: readonly string[];
  /** Conversations carrying any of these tags (lowercase keys). */
  tagKeys?: readonly string[];
}

export function conversationRepository(db: Executor) {
  const filtered = (tx: Executor, workspaceId: string, filters: ConversationFilters) => {
    let query = tx.selectFrom('conversations as c').where('c.workspace_id', '=', workspaceId);
    if (filters.productId !== undefined) query = query.where('c.product_id', '=', filters.productId);
    if (filters.types?.length) query = query.where('c.type', 'in', filters.types);
    if (filters.statuses?.length) query = query.where('c.status', 'in', filters.statuses);
    if (filters.priorities?.length) query = query.where('c.priority', 'in', filters.priorities);
    if (filters.ids?.length) query = query.where('c.id', 'in', filters.ids);
    if (filters.tagKeys?.length) query = query.where('c.id', 'in', taggedIds(tx, workspaceId, 'conversation', filters.tagKeys));
    return query;
  };

  // The contact comes in the same query, so a page of conversations is one round trip, not N+1.
  const withContact = (tx: Executor, workspaceId: string, filters: ConversationFilters) =>
    filtered(tx, workspaceId, filters)
      .leftJoin('contacts as ct', (join) => join.onRef('ct.id', '=', 'c.contact_id').onRef('ct.workspace_id', '=', 'c.workspace_id'))
      .select([...CONVERSATION_COLUMNS, 'ct.name as contact_name', 'ct.email as contact_email', 'ct.external_id as contact_external_id']);

  const byId = compileOnce(['workspaceId', 'id'], ({ workspaceId, id }: { workspaceId: string; id: string }) =>
    withContact(db, workspaceId, {}).where('c.id', '=', id),
  );
  // Both the link and the issue must be the workspace's: a link row can never bring in another
  // workspace's issue, whatever was written. One query for all of a conversation's issues. It starts
  // from the conversation's links and looks each issue up by id: a cross join, because SQLite keeps
  // the left table of one outermost, where an inner join let its planner (without statistics) carry
  // the workspace id over to `issues` and walk every issue of the workspace, probing links per row.
  const linkedIssues = compileOnce(
    ['workspaceId', 'conversationId'],
    ({ workspaceId, conversationId }: { workspaceId: string; conversationId: string }) =>
      db
        .selectFrom('issue_conversations as link')
        .crossJoin('issues as i')
        .whereRef('i.id', '=', 'link.issue_id')
        .whereRef('i.workspace_id', '=', 'link.workspace_id')
        .select(['i.id', 'i.shortcode', 'i.title', 'i.status'])
        .where('link.workspace_id', '=', workspaceId)
        .where('link.conversation_id', '=', conversationId)
        .orderBy('link.created_at', 'asc')
        .orderBy('i.id', 'asc'),
  );
  const touch = compileOnce(
    ['workspaceId', 'id', 'updatedAt'],
    ({ workspaceId, id, updatedAt }: { workspaceId: string; id: string; updatedAt: string }) =>
      db.updateTable('conversations').set({ updated_at: updatedAt }).where('workspace_id', '=', workspaceId).where('id', '=', id),
  );

  return {
    async insert(row: ConversationRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('conversations').values(row).execute();
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<ConversationWithContactRow | undefined> {
      return (await byId(tx, { workspaceId, id }))[0];
    },

    /** The issues the conversation is linked to, in the order they were linked. */
    async listLinkedIssues(workspaceId: string, conversationId: string, tx: Executor = db): Promise<LinkedIssueRow[]> {
      return linkedIssues(tx, { workspaceId, conversationId });
    },

    /** Marks the conversation as changed now (a new message), leaving its other columns alone. */
    async touch(workspaceId: string, id: string, updatedAt: string, tx: Executor = db): Promise<void> {
      await touch(tx, { workspaceId, id, updatedAt });
    },

    /** Newest first; `total` counts every row matching the filters. */
    async list(workspaceId: string, filters: ConversationFilters, page: Page, tx: Executor = db): Promise<PageOf<ConversationWithContactRow>> {
      const [rows, count] = await Promise.all([
        withContact(tx, workspaceId, filters)
          .orderBy('c.created_at', 'desc')
          .orderBy('c.id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        filtered(tx, workspaceId, filters)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    /** A visitor's conversations of one product, newest first. */
    async listForVisitor(workspaceId: string, productId: string, scope: VisitorScope, page: Page, tx: Executor = db): Promise<PageOf<ConversationRow>> {
      const scoped = tx
        .selectFrom('conversations as c')
        .where('c.workspace_id', '=', workspaceId)
        .where('c.product_id', '=', productId)
        .where((eb) => ('contactId' in scope ? eb('c.contact_id', '=', scope.contactId) : eb('c.widget_session_id', '=', scope.sessionId)));
      const [rows, count] = await Promise.all([
        scoped.select(CONVERSATION_COLUMNS).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(page.limit).offset(page.offset).execute(),
        scoped.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    /** A product's ideas that are not dismissed: most upvoted first (`top`) or newest first (`new`). */
    async listIdeas(workspaceId: string, productId: string, sort: 'top' | 'new', page: Page, tx: Executor = db): Promise<PageOf<IdeaRow>> {
      const ideas = tx
        .selectFrom('conversations as c')
        .where('c.workspace_id', '=', workspaceId)
        .where('c.product_id', '=', productId)
        .where('c.type', '=', 'idea')
        .where('c.status', '<>', 'dismissed');
      let ordered = ideas.select(['c.id', 'c.title', 'c.status', 'c.upvotes', 'c.created_at']);
      if (sort === 'top') ordered = ordered.orderBy('c.upvotes', 'desc');
      const [rows, count] = await Promise.all([
        ordered.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(page.limit).offset(page.offset).execute(),
        ideas.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    /**
     * The conversations of this workspace among `ids` (canonical UUIDs), with their product, for
     * checking references such as an issue's conversation_id. Ids not found are simply absent.
     */
    async findIdsInWorkspace(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<{ id: string; product_id: string }[]> {
      if (ids.length === 0) return [];
      return tx
        .selectFrom('conversations')
        .select(['id', 'product_id'])
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .execute();
    },

    /** A contact's conversations with their contact, newest first. */
    async listOfContact(workspaceId: string, contactId: string, tx: Executor = db): Promise<ConversationWithContactRow[]> {
      return withContact(tx, workspaceId, {}).where('c.contact_id', '=', contactId).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').execute();
    },

    /** Erasure: the conversation loses its contact, its session, its summary, its form fields and its title (the person's words). */
    async erase(workspaceId: string, id: string, title: string, updatedAt: string, tx: Executor): Promise<void> {
      await tx.updateTable('conversations')
        .set({ contact_id: null, widget_session_id: null, ai_summary: null, form_fields: null, title, updated_at: updatedAt })
        .where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async update(workspaceId: string, id: string, changes: ConversationChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('conversations').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}

export type ConversationRepository = ReturnType<typeof conversationRepository>;
