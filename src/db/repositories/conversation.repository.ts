import { sql } from 'kysely';
import { compileByShape, compileOnce } from './compiled-query.js';
import type { Executor, Page, PageOf } from './executor.js';
import { countRows, pageRead, readPage, type ListOrder } from './paging.js';
import { taggedIds } from './tag.repository.js';
import { followAssignee } from './reports/report-dimensions.js';
import { CONVERSATION_CREATED, reportDays, type ReportedConversation } from './reports/report-days.js';
import type { ConversationTable } from '../schema.js';

const CONVERSATION_COLUMNS = [
  'c.id', 'c.workspace_id', 'c.product_id', 'c.contact_id', 'c.type', 'c.source', 'c.channel', 'c.status', 'c.priority', 'c.title',
  'c.ai_summary', 'c.rating', 'c.upvotes', 'c.widget_session_id', 'c.form_fields', 'c.tags', 'c.created_at', 'c.updated_at',
  'c.assignee_id', 'c.last_message_sender_type', 'c.last_message_excerpt', 'c.last_message_at', 'c.waiting_since', 'c.snoozed_until',
  'c.sla_policy_id', 'c.sla_first_response_due_at', 'c.sla_next_response_due_at', 'c.sla_resolution_due_at', 'c.sla_breaches', 'c.sla_status', 'c.sla_due_at',
  'c.rated_at',
] as const;

/** A conversation; `reply_token` is only written (for email conversations) and read where mail is sent. */
export type ConversationRow = Omit<ConversationTable, 'reply_token'> & Partial<Pick<ConversationTable, 'reply_token'>>;
/** The columns the conversations' write path derives from the messages (and a new conversation's unassigned, awake, unrated state). */
export type InboxColumns = 'assignee_id' | 'last_message_sender_type' | 'last_message_excerpt' | 'last_message_at' | 'waiting_since' | 'snoozed_until' | 'rated_at';
/** The columns of the SLA applied (migration 0036), kept by the write path from its clocks. */
export type SlaColumnNames = 'sla_policy_id' | 'sla_first_response_due_at' | 'sla_next_response_due_at' | 'sla_resolution_due_at' | 'sla_breaches' | 'sla_status' | 'sla_due_at';
/** A conversation as its creators describe it; the write path fills the rest. */
export type NewConversationRow = Omit<ConversationRow, InboxColumns | SlaColumnNames>;
export type ConversationChanges = Partial<Pick<
  ConversationTable, 'status' | 'priority' | 'rating' | 'upvotes' | 'ai_summary' | 'tags' | 'assignee_id' | 'snoozed_until' | 'updated_at' | 'rated_at'
>>;

/** What a new message does to its conversation's waiting_since: a contact's starts the wait, an agent's reply ends it, others leave it. */
export type WaitEffect = 'asks' | 'answers' | 'none';

/** A new message's mark on its conversation: updated_at, the latest message, the wait. */
export interface MessageMark {
  at: string;
  senderType: string;
  excerpt: string;
  wait: WaitEffect;
}

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
  /** Assigned to one of these members (or unassigned, with `unassigned`). */
  assigneeIds?: readonly string[];
  unassigned?: boolean;
  /** Only snoozed conversations (true), only those not snoozed (false); absent: both. */
  snoozed?: boolean;
  /** [ext] breached: some SLA target breached; running: some SLA clock running (docs/service-levels.md). */
  sla?: 'breached' | 'running';
}

/** The filters' choices: they shape the list's statements rather than bind a value. */
type ListChoiceNames = 'unassigned' | 'snoozed' | 'sla';
type ListChoices = Required<Pick<ConversationFilters, 'unassigned'>> & Pick<ConversationFilters, 'snoozed' | 'sla'>;

/** The filters' values as the list's shaped statements bind them. */
type ListedValues = { workspaceId: string } & Omit<ConversationFilters, ListChoiceNames>;

const listedValues = (workspaceId: string, { unassigned: _unassigned, snoozed: _snoozed, sla: _sla, ...filters }: ConversationFilters): ListedValues => ({ workspaceId, ...filters });

/** newest: created_at descending; waiting: the longest waiting first, then those nobody waits on; due: the earliest running SLA due time first. */
export type ConversationSort = 'newest' | 'waiting' | 'due';

const CONVERSATION_ORDERS: Record<ConversationSort, ListOrder> = {
  newest: [['c.created_at', 'desc'], ['c.id', 'desc']],
  // `(waiting_since is null)` first, as the conversations_waiting_listing index orders them (migration 0022).
  waiting: [[sql`(c.waiting_since is null)`, 'asc'], ['c.waiting_since', 'asc'], ['c.id', 'asc']],
  // As the conversations_due_listing index orders them (migration 0036).
  due: [[sql`(c.sla_due_at is null)`, 'asc'], ['c.sla_due_at', 'asc'], ['c.id', 'asc']],
};
const MOST_UPVOTED_FIRST: ListOrder = [['c.upvotes', 'desc'], ...CONVERSATION_ORDERS.newest];

export function conversationRepository(db: Executor) {
  const filtered = (tx: Executor, workspaceId: string, filters: ConversationFilters) => {
    let query = tx.selectFrom('conversations as c').where('c.workspace_id', '=', workspaceId);
    if (filters.productId !== undefined) query = query.where('c.product_id', '=', filters.productId);
    if (filters.types?.length) query = query.where('c.type', 'in', filters.types);
    if (filters.statuses?.length) query = query.where('c.status', 'in', filters.statuses);
    if (filters.priorities?.length) query = query.where('c.priority', 'in', filters.priorities);
    if (filters.ids?.length) query = query.where('c.id', 'in', filters.ids);
    if (filters.tagKeys?.length) query = query.where('c.id', 'in', taggedIds(tx, workspaceId, 'conversation', filters.tagKeys));
    if (filters.snoozed !== undefined) query = query.where('c.snoozed_until', filters.snoozed ? 'is not' : 'is', null);
    if (filters.sla === 'running') query = query.where('c.sla_due_at', 'is not', null);
    if (filters.sla === 'breached') query = query.where('c.sla_breaches', '<>', '[]');
    const { assigneeIds = [], unassigned = false } = filters;
    if (assigneeIds.length || unassigned) {
      query = query.where((eb) => eb.or([
        ...(assigneeIds.length ? [eb('c.assignee_id', 'in', assigneeIds)] : []),
        ...(unassigned ? [eb('c.assignee_id', 'is', null)] : []),
      ]));
    }
    return query;
  };

  // The contact comes in the same query, so a page of conversations is one round trip, not N+1.
  const joinContact = (query: ReturnType<typeof filtered>) =>
    query
      .leftJoin('contacts as ct', (join) => join.onRef('ct.id', '=', 'c.contact_id').onRef('ct.workspace_id', '=', 'c.workspace_id'))
      .select([...CONVERSATION_COLUMNS, 'ct.name as contact_name', 'ct.email as contact_email', 'ct.external_id as contact_external_id']);
  const withContact = (tx: Executor, workspaceId: string, filters: ConversationFilters) => joinContact(filtered(tx, workspaceId, filters));

  // The list's statements, compiled once per shape of its filters (compileByShape).
  const listedCount = compileByShape(({ workspaceId, ...filters }: ListedValues, choices: ListChoices) =>
    filtered(db, workspaceId, { ...filters, ...choices }).select((eb) => eb.fn.countAll<number | string>().as('n')),
  );
  // The page's ids come from the sort's index first, the rows and their contacts then for those
  // ids alone (by id only, as the issues' list does), so an offset steps over index entries.
  const listedPage = compileByShape((
    { limit, offset, workspaceId, ...filters }: ListedValues & { limit: number; offset: number },
    { sort, reversed, ...choices }: ListChoices & { sort: ConversationSort; reversed: boolean },
  ) => {
    const read = pageRead(CONVERSATION_ORDERS[sort], reversed, { limit, offset });
    const matching = filtered(db, workspaceId, { ...filters, ...choices }).select('c.id');
    return read.sorted(joinContact(db.selectFrom('conversations as c').where('c.id', 'in', read.sliced(matching))));
  });

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
  type MarkArgs = { workspaceId: string; id: string; at: string; senderType: string; excerpt: string };
  // One statement per effect on the wait, each compiled once: the wait is decided in the row itself,
  // so concurrent messages never read a stale waiting_since. It answers the row's snooze, which a
  // contact's message ends, so that a conversation not snoozed costs no read of its own.
  const markWith = (waiting: (at: string) => unknown) => compileOnce(
    ['workspaceId', 'id', 'at', 'senderType', 'excerpt'],
    ({ workspaceId, id, at, senderType, excerpt }: MarkArgs) =>
      db.updateTable('conversations')
        .set({ updated_at: at, last_message_at: at, last_message_sender_type: senderType, last_message_excerpt: excerpt, waiting_since: waiting(at) as never })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .returning('snoozed_until'),
  );
  const days = reportDays(db);
  const marks: Record<WaitEffect, ReturnType<typeof markWith>> = {
    asks: markWith((at) => sql`coalesce(waiting_since, ${at})`),
    answers: markWith(() => null),
    none: markWith(() => sql.ref('waiting_since')),
  };

  return {
    async insert(row: ConversationRow | NewConversationRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('conversations').values({ sla_breaches: '[]', ...row }).execute();
      await days.add(row.id, row.created_at, CONVERSATION_CREATED, tx);
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<ConversationWithContactRow | undefined> {
      return (await byId(tx, { workspaceId, id }))[0];
    },

    /** The email conversation whose reply address carries this token. */
    async findByReplyToken(workspaceId: string, replyToken: string, tx: Executor = db): Promise<ConversationWithContactRow | undefined> {
      return withContact(tx, workspaceId, {}).where('c.reply_token', '=', replyToken).executeTakeFirst();
    },

    /** How many conversations of a source the contact started since a time (the per-sender limit of mail). */
    async countStartedBy(workspaceId: string, contactId: string, source: string, since: string, tx: Executor = db): Promise<number> {
      const row = await tx
        .selectFrom('conversations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId)
        .where('source', '=', source)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The issues the conversation is linked to, in the order they were linked. */
    async listLinkedIssues(workspaceId: string, conversationId: string, tx: Executor = db): Promise<LinkedIssueRow[]> {
      return linkedIssues(tx, { workspaceId, conversationId });
    },

    /**
     * Marks a new message on its conversation (updated_at, the latest message, the wait), leaving its
     * other columns alone; answers when the conversation is snoozed until (null: it is not).
     */
    async markMessage(workspaceId: string, id: string, { wait, ...mark }: MessageMark, tx: Executor = db): Promise<string | null> {
      return (await marks[wait](tx, { workspaceId, id, ...mark }))[0]?.snoozed_until ?? null;
    },

    /** The workspace's conversations among `ids`, with their contacts (in no particular order; others are simply absent). */
    async findManyWithContact(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<ConversationWithContactRow[]> {
      if (ids.length === 0) return [];
      return withContact(tx, workspaceId, { ids }).execute();
    },

    /** The conversations assigned to a member, for unassigning them. */
    async assignedTo(workspaceId: string, memberId: string, tx: Executor = db): Promise<ConversationWithContactRow[]> {
      return withContact(tx, workspaceId, { assigneeIds: [memberId] }).execute();
    },

    /** In `sort` order (id the last tie-breaker); `total` counts every row matching the filters. */
    async list(
      workspaceId: string, filters: ConversationFilters, sort: ConversationSort, page: Page, tx: Executor = db,
    ): Promise<PageOf<ConversationWithContactRow>> {
      const values = listedValues(workspaceId, filters);
      const choices: ListChoices = { unassigned: filters.unassigned ?? false, snoozed: filters.snoozed, sla: filters.sla };
      const count = async () => Number((await listedCount(tx, values, choices))[0]!.n);
      return readPage(CONVERSATION_ORDERS[sort], page, count, ({ reversed, window }) =>
        listedPage(tx, { ...values, limit: window.limit, offset: window.offset }, { ...choices, sort, reversed }));
    },

    /** A visitor's conversations of one product, newest first. */
    async listForVisitor(workspaceId: string, productId: string, scope: VisitorScope, page: Page, tx: Executor = db): Promise<PageOf<ConversationRow>> {
      const scoped = tx
        .selectFrom('conversations as c')
        .where('c.workspace_id', '=', workspaceId)
        .where('c.product_id', '=', productId)
        .where((eb) => ('contactId' in scope ? eb('c.contact_id', '=', scope.contactId) : eb('c.widget_session_id', '=', scope.sessionId)));
      return readPage(CONVERSATION_ORDERS.newest, page, () => countRows(scoped), (read) => read.sliced(scoped).select(CONVERSATION_COLUMNS).execute());
    },

    /** A product's ideas that are not dismissed: most upvoted first (`top`) or newest first (`new`). */
    async listIdeas(workspaceId: string, productId: string, sort: 'top' | 'new', page: Page, tx: Executor = db): Promise<PageOf<IdeaRow>> {
      const ideas = tx
        .selectFrom('conversations as c')
        .where('c.workspace_id', '=', workspaceId)
        .where('c.product_id', '=', productId)
        .where('c.type', '=', 'idea')
        .where('c.status', '<>', 'dismissed');
      const order = sort === 'top' ? MOST_UPVOTED_FIRST : CONVERSATION_ORDERS.newest;
      return readPage(order, page, () => countRows(ideas), (read) => read.sliced(ideas).select(['c.id', 'c.title', 'c.status', 'c.upvotes', 'c.created_at']).execute());
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

    /** The conversations not theirs in which the contact wrote (a mail into another person's thread), oldest first. */
    async listWrittenInBy(workspaceId: string, contactId: string, tx: Executor = db): Promise<ConversationWithContactRow[]> {
      return withContact(tx, workspaceId, {})
        .where('c.id', 'in', (eb) => eb.selectFrom('messages').select('conversation_id')
          .where('workspace_id', '=', workspaceId).where('sender_type', '=', 'contact').where('sender_id', '=', contactId))
        .where((eb) => eb.or([eb('c.contact_id', 'is', null), eb('c.contact_id', '<>', contactId)]))
        .orderBy('c.created_at', 'asc').orderBy('c.id', 'asc').execute();
    },

    /** Erasure: the conversation loses its contact, its session, its summary, its form fields, its title and its latest message's excerpt (the person's words), each replaced by `erased`. */
    async erase(workspaceId: string, id: string, erased: string, updatedAt: string, tx: Executor): Promise<void> {
      await tx.updateTable('conversations')
        // The latest message's excerpt quotes a message whose body the erasure replaces: it reads as that body now does.
        .set({ contact_id: null, widget_session_id: null, ai_summary: null, form_fields: null, title: erased, updated_at: updatedAt })
        .set((eb) => ({ last_message_excerpt: eb.case().when('last_message_sender_type', '=', 'system').then(eb.ref('last_message_excerpt')).else(erased).end() }))
        .where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /**
     * Erasure of a contact who wrote in this conversation, not theirs: its summary goes (it may
     * retell their words), and the latest message's excerpt when the latest message is theirs.
     */
    async eraseWordsOf(workspaceId: string, id: string, contactId: string, erased: string, updatedAt: string, tx: Executor): Promise<void> {
      await tx.updateTable('conversations as c')
        .set({ ai_summary: null, updated_at: updatedAt })
        .set((eb) => ({
          last_message_excerpt: eb.case().when(eb.exists(eb.selectFrom('messages as m').select('m.id')
            .whereRef('m.conversation_id', '=', 'c.id').whereRef('m.created_at', '=', 'c.last_message_at')
            .where('m.sender_type', '=', 'contact').where('m.sender_id', '=', contactId))).then(erased).else(eb.ref('c.last_message_excerpt')).end(),
        }))
        .where('c.workspace_id', '=', workspaceId).where('c.id', '=', id).execute();
    },

    /** `current`: the row as it stands (under the conversation's lock), which `changes` move on. */
    async update(current: ReportedConversation, changes: ConversationChanges, tx: Executor = db): Promise<void> {
      const { workspace_id: workspaceId, id } = current;
      await tx.updateTable('conversations').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
      // The report rows that carry the assignee follow it (reports/report-dimensions.ts, report-days.ts).
      if (changes.assignee_id !== undefined && changes.assignee_id !== current.assignee_id) {
        await followAssignee(tx, workspaceId, id, changes.assignee_id);
        await days.moveToAssignee(current, changes.assignee_id, tx);
      }
    },
  };
}

export type ConversationRepository = ReturnType<typeof conversationRepository>;
