import { sql, type ExpressionBuilder, type InferResult, type SelectQueryBuilder } from 'kysely';
import { columnsOf, compileByShape, compileOnce, rowsOf, type Columns } from './compiled-query.js';
import { CANDIDATE_STATUSES } from './embedding.repository.js';
import type { Executor, Page, PageOf } from './executor.js';
import { NEWEST_FIRST, pageRead, readPage } from './paging.js';
import { taggedIds } from './tag.repository.js';
import type { Database, IssueApiSourceTable, IssueTable, IssueTallyTable } from '../schema.js';

const ISSUE_COLUMNS = [
  'issues.id', 'issues.workspace_id', 'issues.product_id', 'issues.shortcode', 'issues.title', 'issues.description',
  'issues.status', 'issues.priority', 'issues.assignee_id', 'issues.resolution_comment', 'issues.is_ai_generated',
  'issues.tags', 'issues.created_at', 'issues.updated_at',
] as const;

/** An issue as the API and the services see it; its dedup stamp is written with it and read only by the dedup catch-up. */
export type IssueRow = Omit<IssueTable, 'dedup_version'>;
export type IssueListRow = IssueRow & { linked_conversations_count: number; sources_count: number };
const ISSUE_FIELDS = ISSUE_COLUMNS.map((column) => column.slice('issues.'.length) as keyof IssueRow);
/** The columns a PATCH may change. */
const MUTABLE_FIELDS = ['title', 'description', 'status', 'priority', 'assignee_id', 'resolution_comment', 'tags', 'updated_at'] as const;
export type IssueChanges = Partial<Pick<IssueTable, (typeof MUTABLE_FIELDS)[number]>>;

/** The filters' values as a shaped query binds them (`unassigned` is a choice of its shape). */
type ListedValues = { workspaceId: string } & Omit<IssueFilters, 'unassigned'>;

// An empty product id sets no condition, as a missing one: the shape is whether a value is there.
const listedValues = (workspaceId: string, { unassigned: _choice, productId, ...filters }: IssueFilters): ListedValues =>
  ({ workspaceId, productId: productId || undefined, ...filters });

export interface IssueFilters {
  productId?: string;
  statuses?: string[];
  priorities?: string[];
  assigneeIds?: string[];
  /** Include unassigned issues (the `none` filter value). */
  unassigned?: boolean;
  /** Issues carrying any of these tags (lowercase keys). */
  tagKeys?: string[];
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

/** An issue with what its detail shows besides its own columns, read in one query. */
export interface IssueDetailRows {
  issue: IssueRow;
  linked: LinkedConversationRow[];
  sources_count: number;
}

export type IssueKey = { id: string } | { shortcode: string };

/** The fields issue_tallies counts by. */
type TalliedFields = Pick<IssueRow, 'workspace_id' | 'product_id' | 'status' | 'priority' | 'assignee_id'>;

const tallyRow = (issue: TalliedFields, issueCount: number): IssueTallyTable => ({
  workspace_id: issue.workspace_id,
  product_id: issue.product_id,
  status: issue.status,
  priority: issue.priority,
  assignee_key: issue.assignee_id ?? '',
  issue_count: issueCount,
});

const tallyKey = (row: IssueTallyTable) => [row.workspace_id, row.status, row.priority, row.product_id, row.assignee_key].join(' ');

const TALLY_COLUMNS = ['workspace_id', 'product_id', 'status', 'priority', 'assignee_key', 'issue_count'] as const satisfies readonly (keyof IssueTallyTable)[];

/** Net change per tally row, for issues leaving `before` and entering `after`. */
function tallyChanges(before: readonly TalliedFields[], after: readonly TalliedFields[]): IssueTallyTable[] {
  const changes = new Map<string, IssueTallyTable>();
  const add = (issue: TalliedFields, delta: number) => {
    const row = tallyRow(issue, delta);
    const key = tallyKey(row);
    const known = changes.get(key);
    if (known) known.issue_count += delta;
    else changes.set(key, row);
  };
  for (const issue of before) add(issue, -1);
  for (const issue of after) add(issue, 1);
  // A fixed order, so concurrent writers lock tally rows in the same order.
  return [...changes].filter(([, row]) => row.issue_count !== 0).sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
}

/** `(select count(*) from <table> where issue_id = issues.id) as <alias>`, for a select list over issues. */
const perIssueCount = <Alias extends string>(table: 'issue_conversations' | 'issue_api_sources', alias: Alias) =>
  (eb: ExpressionBuilder<Database, 'issues'>) =>
    eb
      .selectFrom(table)
      .select((inner) => inner.fn.countAll<number>().as('n'))
      .whereRef('issue_id', '=', 'issues.id')
      .as(alias);

/** An issue's columns and the counts the list shows, for the issues `from` selects. */
const listRows = (from: SelectQueryBuilder<Database, 'issues', object>) =>
  from
    .select(ISSUE_COLUMNS)
    .select(perIssueCount('issue_conversations', 'linked_conversations_count'))
    .select(perIssueCount('issue_api_sources', 'sources_count'));

const toListRow = (row: InferResult<ReturnType<typeof listRows>>[number]): IssueListRow => ({
  ...row,
  linked_conversations_count: Number(row.linked_conversations_count ?? 0),
  sources_count: Number(row.sources_count ?? 0),
});

const LINKED_COLUMNS = ['c.id', 'c.title', 'c.type', 'c.status', 'c.priority', 'c.ai_summary', 'c.created_at'] as const;

// The detail in one round trip: one row per linked conversation (or one row with null
// conversation columns), each carrying the issue's columns and its sources count.
const detailRows = (executor: Executor) =>
  executor
    .selectFrom('issues')
    .leftJoin('issue_conversations as link', 'link.issue_id', 'issues.id')
    .leftJoin('conversations as c', 'c.id', 'link.conversation_id')
    .select(ISSUE_COLUMNS)
    .select(perIssueCount('issue_api_sources', 'sources_count'))
    .select(LINKED_COLUMNS.map((column) => `${column} as linked_${column.slice(2)}` as const))
    .orderBy('link.created_at', 'asc')
    .orderBy('c.id', 'asc');

/** A detail query's rows (one per linked conversation, issues interleaved) as one detail per issue. */
function toDetails(rows: InferResult<ReturnType<typeof detailRows>>): IssueDetailRows[] {
  const details = new Map<string, IssueDetailRows>();
  for (const row of rows) {
    const {
      sources_count, linked_id, linked_title, linked_type, linked_status, linked_priority, linked_ai_summary, linked_created_at, ...issue
    } = row;
    let detail = details.get(issue.id);
    if (!detail) details.set(issue.id, (detail = { issue, linked: [], sources_count: Number(sources_count ?? 0) }));
    if (linked_id !== null) {
      detail.linked.push({
        issue_id: issue.id, id: linked_id, title: linked_title!, type: linked_type!, status: linked_status!,
        priority: linked_priority!, ai_summary: linked_ai_summary, created_at: linked_created_at!,
      });
    }
  }
  return [...details.values()];
}

export function issueRepository(db: Executor) {
  const byId = compileOnce(['workspaceId', 'id'], ({ workspaceId, id }: { workspaceId: string; id: string }) =>
    db.selectFrom('issues').select(ISSUE_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id),
  );
  const byShortcode = compileOnce(['workspaceId', 'shortcode'], ({ workspaceId, shortcode }: { workspaceId: string; shortcode: string }) =>
    db.selectFrom('issues').select(ISSUE_COLUMNS).where('workspace_id', '=', workspaceId).where('shortcode', '=', shortcode),
  );

  const detailBy = (column: 'id' | 'shortcode') =>
    compileOnce(['workspaceId', 'value'], ({ workspaceId, value }: { workspaceId: string; value: string }) =>
      detailRows(db).where('issues.workspace_id', '=', workspaceId).where(`issues.${column}`, '=', value),
    );
  const detailById = detailBy('id');
  const detailByShortcode = detailBy('shortcode');

  const insertIssue = compileOnce([...ISSUE_FIELDS, 'dedup_version'], (row: IssueTable) => db.insertInto('issues').values(row));
  type Updated = Pick<IssueRow, 'workspace_id' | 'id' | (typeof MUTABLE_FIELDS)[number]> & Partial<Pick<IssueTable, 'dedup_version'>>;
  const updating = (columns: readonly (keyof Updated & string)[]) =>
    compileOnce(['workspace_id', 'id', ...columns], ({ workspace_id, id, ...changes }: Updated) =>
      db.updateTable('issues').set(changes).where('workspace_id', '=', workspace_id).where('id', '=', id));
  const updateIssue = updating(MUTABLE_FIELDS);
  // A change the duplicate candidates see (title, description, status): stamped with the dedup version it moved the product to.
  const updateStampedIssue = updating([...MUTABLE_FIELDS, 'dedup_version']);
  // One upsert of every tally a write moves (one for a new issue, two for a PATCH of a tallied
  // field, many for a release): compiled once per number of rows.
  const addToTallies = compileByShape((columns: Columns<IssueTallyTable>) =>
    db
      .insertInto('issue_tallies')
      .values(rowsOf(columns))
      .onConflict((conflict) =>
        conflict
          .columns(['workspace_id', 'status', 'priority', 'product_id', 'assignee_key'])
          .doUpdateSet({ issue_count: sql`issue_tallies.issue_count + excluded.issue_count` }),
      ));
  async function adjustTallies(before: readonly TalliedFields[], after: readonly TalliedFields[], tx: Executor): Promise<void> {
    const changes = tallyChanges(before, after);
    if (changes.length > 0) await addToTallies(tx, columnsOf(changes, TALLY_COLUMNS));
  }

  /** How many issues match the filters, summed from issue_tallies. */
  const tallied = compileByShape(({ workspaceId, ...filters }: ListedValues, { unassigned }: { unassigned: boolean }) => {
    let query = db.selectFrom('issue_tallies').where('workspace_id', '=', workspaceId);
    if (filters.productId) query = query.where('product_id', '=', filters.productId);
    if (filters.statuses?.length) query = query.where('status', 'in', filters.statuses);
    if (filters.priorities?.length) query = query.where('priority', 'in', filters.priorities);
    const { assigneeIds = [] } = filters;
    if (assigneeIds.length || unassigned) {
      query = query.where('assignee_key', 'in', [...assigneeIds, ...(unassigned ? [''] : [])]);
    }
    return query.select((eb) => eb.fn.sum<number | string | null>('issue_count').as('n'));
  });
  const countMatching = async (tx: Executor, workspaceId: string, filters: IssueFilters): Promise<number> => {
    const [row] = await tallied(tx, listedValues(workspaceId, filters), { unassigned: filters.unassigned ?? false });
    return Number(row?.n ?? 0);
  };

  // Reads and writes of several issues by id (a release's, a decision's), compiled once per number of ids.
  type IdsIn = { workspaceId: string; ids: readonly string[] };
  const manyByIds = compileByShape(({ workspaceId, ids }: IdsIn) =>
    db.selectFrom('issues').select(ISSUE_COLUMNS).where('workspace_id', '=', workspaceId).where('id', 'in', ids));
  const manyByShortcodes = compileByShape(({ workspaceId, shortcodes }: { workspaceId: string; shortcodes: readonly string[] }) =>
    db.selectFrom('issues').select(ISSUE_COLUMNS).where('workspace_id', '=', workspaceId).where('shortcode', 'in', shortcodes));
  const detailsByIds = compileByShape(({ workspaceId, ids }: IdsIn) =>
    detailRows(db).where('issues.workspace_id', '=', workspaceId).where('issues.id', 'in', ids));
  const notReleasedYet = compileByShape(({ workspaceId, ids }: IdsIn) =>
    db.selectFrom('issues')
      .select(['id', 'workspace_id', 'product_id', 'status', 'priority', 'assignee_id', 'updated_at'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .where('status', '<>', 'released'));
  // Exactly the issues read by notReleasedYet (the product's issue lock keeps them as read): by id
  // alone, a status condition made SQLite without statistics walk the workspace's listing index.
  const markAllReleased = compileByShape(({ workspaceId, ids, updatedAt, dedupVersion }: IdsIn & { updatedAt: string; dedupVersion: number }) =>
    db.updateTable('issues').set({ status: 'released', updated_at: updatedAt, dedup_version: dedupVersion })
      .where('workspace_id', '=', workspaceId).where('id', 'in', ids));

  const nextNumber = compileOnce(['workspaceId', 'prefix'], ({ workspaceId, prefix }: { workspaceId: string; prefix: string }) =>
    db
      .insertInto('issue_counters')
      .values({ workspace_id: workspaceId, prefix, last_number: 1 })
      .onConflict((conflict) =>
        conflict.columns(['workspace_id', 'prefix']).doUpdateSet({ last_number: sql`issue_counters.last_number + 1` }),
      )
      .returning('last_number'),
  );

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
    if (filters.tagKeys?.length) query = query.where('issues.id', 'in', taggedIds(tx, workspaceId, 'issue', filters.tagKeys));
    return query;
  }

  /** A page of the list, its ids chosen by the index first (`list` says why). */
  const listedPage = compileByShape(
    ({ limit, offset, workspaceId, ...filters }: ListedValues & { limit: number; offset: number }, { unassigned, reversed }: { unassigned: boolean; reversed: boolean }) => {
      const read = pageRead(NEWEST_FIRST, reversed, { limit, offset });
      const matching = filtered(db, workspaceId, { ...filters, unassigned }).select('issues.id');
      return read.sorted(listRows(db.selectFrom('issues').where('issues.id', 'in', read.sliced(matching))));
    },
  );

  /** issue_tallies know nothing of tags: a tag filter is counted from its matching rows. */
  const countOf = async (tx: Executor, workspaceId: string, filters: IssueFilters): Promise<number> => {
    if (!filters.tagKeys?.length) return countMatching(tx, workspaceId, filters);
    const row = await filtered(tx, workspaceId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  };

  return {
    /** The next number for (workspace, prefix); the row lock it takes holds until the transaction ends. */
    async nextNumber(workspaceId: string, prefix: string, tx: Executor = db): Promise<number> {
      const [row] = await nextNumber(tx, { workspaceId, prefix });
      return Number(row!.last_number);
    },

    /** Inserts the issue and counts it in issue_tallies; the caller holds the product's issue lock. */
    /** A new issue, stamped with the dedup version its transaction moved the product to. */
    async insert(row: IssueRow, dedupVersion: number, tx: Executor): Promise<void> {
      await insertIssue(tx, { ...row, dedup_version: dedupVersion });
      await adjustTallies([], [row], tx);
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<IssueRow | undefined> {
      return (await byId(tx, { workspaceId, id }))[0];
    },

    /** The titles of the product's newest open issues, at most `limit`: the words a summary of its conversations prefers. */
    async openTitles(workspaceId: string, productId: string, limit: number, tx: Executor = db): Promise<string[]> {
      const rows = await tx.selectFrom('issues').select('issues.title').where('issues.workspace_id', '=', workspaceId).where('issues.product_id', '=', productId)
        .where('issues.status', 'in', CANDIDATE_STATUSES).orderBy('issues.created_at', 'desc').limit(limit).execute();
      return rows.map((row) => row.title);
    },

    /** The workspace's issues assigned to the member (to unassign them when the member leaves). */
    async assignedTo(workspaceId: string, memberId: string, tx: Executor = db): Promise<IssueRow[]> {
      return tx.selectFrom('issues').select(ISSUE_COLUMNS).where('issues.workspace_id', '=', workspaceId).where('issues.assignee_id', '=', memberId)
        .orderBy('issues.created_at', 'asc').orderBy('issues.id', 'asc').execute();
    },

    async findByShortcode(workspaceId: string, shortcode: string, tx: Executor = db): Promise<IssueRow | undefined> {
      return (await byShortcode(tx, { workspaceId, shortcode }))[0];
    },

    /** The issue with its linked conversations (in link order) and its sources count. */
    async findDetail(workspaceId: string, key: IssueKey, tx: Executor = db): Promise<IssueDetailRows | undefined> {
      const rows = 'id' in key
        ? await detailById(tx, { workspaceId, value: key.id })
        : await detailByShortcode(tx, { workspaceId, value: key.shortcode });
      return toDetails(rows)[0];
    },

    /** The details of the workspace's issues among `ids`, in one query (in no particular order). */
    async findDetails(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<IssueDetailRows[]> {
      if (ids.length === 0) return [];
      return toDetails(await detailsByIds(tx, { workspaceId, ids }));
    },

    /** The issues of the workspace among `ids` (others are simply absent). */
    async findManyByIds(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<IssueRow[]> {
      if (ids.length === 0) return [];
      return manyByIds(tx, { workspaceId, ids });
    },

    /** The workspace's issues among `shortcodes` (upper case), in one query (in no particular order). */
    async findManyByShortcodes(workspaceId: string, shortcodes: readonly string[], tx: Executor = db): Promise<IssueRow[]> {
      if (shortcodes.length === 0) return [];
      return manyByShortcodes(tx, { workspaceId, shortcodes });
    },

    async list(workspaceId: string, filters: IssueFilters, page: Page, tx: Executor = db): Promise<PageOf<IssueListRow>> {
      // The page's ids come from the index first; columns and per-row counts are then read for those
      // rows alone. PostgreSQL otherwise computed both counts for every row an offset skips (4 req/s
      // at offset 90,000 in docs/benchmarks.md). The outer query filters on the ids alone, which
      // the workspace-scoped subquery chose: with a workspace condition too, SQLite walked the
      // workspace's listing index to return them in order.
      return readPage(NEWEST_FIRST, page, () => countOf(tx, workspaceId, filters), async ({ reversed, window }) => {
        const values = { ...listedValues(workspaceId, filters), limit: window.limit, offset: window.offset };
        const rows = await listedPage(tx, values, { unassigned: filters.unassigned ?? false, reversed });
        return rows.map(toListRow);
      });
    },

    /** The workspace's issues among `ids` as the list shows them (in no particular order; others are simply absent). */
    async findListRows(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<IssueListRow[]> {
      if (ids.length === 0) return [];
      const rows = await listRows(tx.selectFrom('issues').where('issues.workspace_id', '=', workspaceId).where('issues.id', 'in', ids)).execute();
      return rows.map(toListRow);
    },

    /**
     * Writes every mutable column of `next` (the caller merged its changes into `current`, read in
     * the same transaction) and moves the issue between tallies; the caller holds the product's
     * issue lock when a tallied field changes. `dedupVersion` when the change moved the product's
     * dedup version (title, description, status): the issue is stamped with it.
     */
    async update(current: IssueRow, next: IssueRow, tx: Executor, dedupVersion?: number): Promise<void> {
      await (dedupVersion === undefined ? updateIssue(tx, next) : updateStampedIssue(tx, { ...next, dedup_version: dedupVersion }));
      await adjustTallies([current], [next], tx);
    },

    async insertSource(row: IssueApiSourceTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('issue_api_sources').values(row).execute();
    },


    /**
     * Sets status `released` on the listed issues that are not released yet, and returns what they
     * were before; the caller holds the product's issue lock. `dedupVersion` moves the product's
     * dedup version, once, when some issue is marked; the marked issues are stamped with it.
     */
    async markReleased(
      workspaceId: string, ids: readonly string[], updatedAt: string, dedupVersion: () => Promise<number>, tx: Executor,
    ): Promise<Pick<IssueRow, 'id' | 'status' | 'updated_at'>[]> {
      if (ids.length === 0) return [];
      const leaving = await notReleasedYet(tx, { workspaceId, ids });
      if (leaving.length === 0) return [];
      await markAllReleased(tx, { workspaceId, ids: leaving.map((issue) => issue.id), updatedAt, dedupVersion: await dedupVersion() });
      await adjustTallies(leaving, leaving.map((issue) => ({ ...issue, status: 'released' })), tx);
      return leaving.map(({ id, status, updated_at }) => ({ id, status, updated_at }));
    },


    /** Links a conversation; linking twice is a no-op. True when the link is new. */
    async link(workspaceId: string, issueId: string, conversationId: string, linkedAt: string, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .insertInto('issue_conversations')
        .values({ workspace_id: workspaceId, issue_id: issueId, conversation_id: conversationId, created_at: linkedAt })
        .onConflict((conflict) => conflict.columns(['issue_id', 'conversation_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** True when there was a link to remove. */
    async unlink(workspaceId: string, issueId: string, conversationId: string, tx: Executor = db): Promise<boolean> {
      const result = await tx
        .deleteFrom('issue_conversations')
        .where('workspace_id', '=', workspaceId)
        .where('issue_id', '=', issueId)
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type IssueRepository = ReturnType<typeof issueRepository>;
