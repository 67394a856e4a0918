import type { Kysely } from 'kysely';
import { OLDEST_FIRST, countRows, readPage } from './paging.js';
import type { Database } from '../schema.js';

/** A database handle or a transaction: every repository function accepts either. */
export type Executor = Kysely<Database>;

export interface Page {
  limit: number;
  offset: number;
}

export interface PageOf<T> {
  rows: T[];
  total: number;
}

/**
 * One page of a workspace's rows of `table`, oldest first (id breaks ties), and how many there
 * are: the listing shared by the resources ordered that way (members, products, webhook endpoints, saved replies, calendars).
 */
export async function oldestFirstPage<Row>(
  tx: Executor,
  table: 'members' | 'products' | 'webhook_endpoints' | 'saved_replies' | 'calendars' | 'macros',
  columns: readonly (keyof Row & string)[],
  workspaceId: string,
  page: Page,
): Promise<PageOf<Row>> {
  // Kysely cannot type a query over a union of tables; the columns argument keeps the row type honest.
  const scoped = (tx as unknown as Kysely<any>).selectFrom(table).where('workspace_id', '=', workspaceId);
  return readPage(OLDEST_FIRST, page, () => countRows(scoped), (read) => read.sliced(scoped).select([...columns]).execute() as Promise<Row[]>);
}
