// The board's columns and how one is loaded: a page of issues of one status, newest first.
import { api, ok, type Schemas } from '../../api/client.js';
import type { IssueStatus } from '../../ui/labels.js';

export type IssueItem = Schemas['IssueListItem'];

export interface ColumnState {
  items: IssueItem[];
  total: number;
}

/** The working columns, in the order work moves through them. */
export const WORKING_STATUSES: IssueStatus[] = ['pending', 'in_progress', 'icebox', 'done'];
/** The flow's end points, shown on request. */
export const CLOSED_STATUSES: IssueStatus[] = ['released', 'dismissed'];

export const COLUMN_PAGE = 50;

export async function loadColumn(status: IssueStatus, productId: string, offset = 0): Promise<ColumnState> {
  const answer = await ok(api.GET('/api/v1/issues', {
    params: { query: { status, limit: COLUMN_PAGE, offset, ...(productId && { product_id: productId }) } },
  }));
  return { items: answer.data, total: answer.pagination.total };
}
