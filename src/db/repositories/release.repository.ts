import { columnsOf, compileByShape, compileOnce, rowsOf, type Columns } from './compiled-query.js';
import type { Executor, Page, PageOf } from './executor.js';
import { countRows, readPage, type ListOrder } from './paging.js';
import type { ReleaseIssueTable, ReleaseTable } from '../schema.js';

const RELEASE_FIELDS = [
  'id', 'workspace_id', 'product_id', 'title', 'description', 'version', 'released_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof ReleaseTable)[];
const RELEASE_COLUMNS = RELEASE_FIELDS.map((field) => `r.${field}` as const);

export type ReleaseRow = ReleaseTable;
export type ReleaseChanges = Partial<Pick<ReleaseTable, 'title' | 'description' | 'version' | 'released_at' | 'updated_at'>>;

/** A release with its product's name and the number of linked issues. */
export interface ReleaseViewRow extends ReleaseRow {
  product_name: string;
  linked_issues_count: number;
}

export interface ReleaseIssueRow {
  id: string;
  title: string;
  status: string;
  priority: string;
}

const RELEASE_ORDER: ListOrder = [['r.created_at', 'desc'], ['r.id', 'desc']];

const releases = (tx: Executor) => tx.selectFrom('releases as r');

export function releaseRepository(db: Executor) {
  /** The releases `query` selects, with their product's name and linked issues count. */
  const viewOf = (query: ReturnType<typeof releases>) =>
    query
      .innerJoin('products as p', 'p.id', 'r.product_id')
      .select(RELEASE_COLUMNS)
      .select('p.name as product_name')
      .select((eb) =>
        eb
          .selectFrom('release_issues as ri')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('ri.release_id', '=', 'r.id')
          .as('linked_issues_count'),
      );

  const normalize = (row: ReleaseRow & { product_name: string; linked_issues_count: number | null }): ReleaseViewRow => ({
    ...row,
    linked_issues_count: Number(row.linked_issues_count ?? 0),
  });

  // A release's creation and its detail, compiled once (its links once per number of issues).
  const insert = compileOnce(RELEASE_FIELDS, (row: ReleaseRow) => db.insertInto('releases').values(row));
  const insertLinks = compileByShape((links: Columns<ReleaseIssueTable>) => db.insertInto('release_issues').values(rowsOf(links)));
  const byId = compileOnce(['workspaceId', 'id'], ({ workspaceId, id }: { workspaceId: string; id: string }) =>
    viewOf(releases(db).where('r.workspace_id', '=', workspaceId).where('r.id', '=', id)));
  const issuesOfRelease = compileOnce(['workspaceId', 'releaseId'], ({ workspaceId, releaseId }: { workspaceId: string; releaseId: string }) =>
    db
      .selectFrom('release_issues as ri')
      .innerJoin('issues as i', 'i.id', 'ri.issue_id')
      .select(['i.id', 'i.title', 'i.status', 'i.priority'])
      .where('ri.workspace_id', '=', workspaceId)
      .where('ri.release_id', '=', releaseId)
      .orderBy('i.created_at', 'asc')
      .orderBy('i.id', 'asc'));

  return {
    async insert(row: ReleaseRow, tx: Executor = db): Promise<void> {
      await insert(tx, row);
    },

    async linkIssues(workspaceId: string, releaseId: string, issueIds: readonly string[], linkedAt: string, tx: Executor = db): Promise<void> {
      if (issueIds.length === 0) return;
      const links = issueIds.map((issueId): ReleaseIssueTable => ({ release_id: releaseId, issue_id: issueId, workspace_id: workspaceId, created_at: linkedAt }));
      await insertLinks(tx, columnsOf(links, ['release_id', 'issue_id', 'workspace_id', 'created_at']));
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<ReleaseViewRow | undefined> {
      const [row] = await byId(tx, { workspaceId, id });
      return row && normalize(row);
    },

    async list(workspaceId: string, filters: { productId?: string }, page: Page, tx: Executor = db): Promise<PageOf<ReleaseViewRow>> {
      let matching = releases(tx).where('r.workspace_id', '=', workspaceId);
      if (filters.productId) matching = matching.where('r.product_id', '=', filters.productId);
      // The page's ids first, then the rows and their counts for those ids alone (as the issues' list).
      const rows = await readPage(RELEASE_ORDER, page, () => countRows(matching), (read) =>
        read.sorted(viewOf(releases(tx).where('r.id', 'in', read.sliced(matching.select('r.id'))))).execute());
      return { rows: rows.rows.map(normalize), total: rows.total };
    },

    /** The product's published releases, the latest first (ties: newest id first). */
    async listPublished(workspaceId: string, productId: string, limit: number, tx: Executor = db): Promise<ReleaseRow[]> {
      return tx
        .selectFrom('releases as r')
        .select(RELEASE_COLUMNS)
        .where('r.workspace_id', '=', workspaceId)
        .where('r.product_id', '=', productId)
        .where('r.released_at', 'is not', null)
        .orderBy('r.released_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(limit)
        .execute();
    },

    /** The titles of the issues each release shipped, in the order the release detail lists them. */
    async issueTitlesOf(workspaceId: string, releaseIds: readonly string[], tx: Executor = db): Promise<{ release_id: string; title: string }[]> {
      if (releaseIds.length === 0) return [];
      return tx
        .selectFrom('release_issues as ri')
        .innerJoin('issues as i', 'i.id', 'ri.issue_id')
        .select(['ri.release_id', 'i.title'])
        .where('ri.workspace_id', '=', workspaceId)
        .where('ri.release_id', 'in', releaseIds)
        .orderBy('i.created_at', 'asc')
        .orderBy('i.id', 'asc')
        .execute();
    },

    issuesOf: (workspaceId: string, releaseId: string, tx: Executor = db): Promise<ReleaseIssueRow[]> => issuesOfRelease(tx, { workspaceId, releaseId }),

    async update(workspaceId: string, id: string, changes: ReleaseChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('releases').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}

export type ReleaseRepository = ReturnType<typeof releaseRepository>;
