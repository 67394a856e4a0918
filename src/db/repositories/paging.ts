import type { Expression, SelectQueryBuilder } from 'kysely';
import type { Page, PageOf } from './executor.js';

/** One key of a list's order: a column (or an expression over the row) and its direction. */
export type SortKey = readonly [key: string | Expression<unknown>, direction: 'asc' | 'desc'];

/**
 * A list's order. Its last key is the row's unique id, so the order is total and reversing every
 * key's direction gives its exact mirror (NULLs too: each database puts them at opposite ends for
 * asc and desc).
 */
export type ListOrder = readonly SortKey[];

/** Oldest first, the id breaking ties. */
export const OLDEST_FIRST: ListOrder = [['created_at', 'asc'], ['id', 'asc']];
/** Newest first, the id breaking ties. */
export const NEWEST_FIRST: ListOrder = [['created_at', 'desc'], ['id', 'desc']];

type AnySelect = SelectQueryBuilder<any, any, any>;

/** How one read of a page is ordered and cut: in the list's order, or in its mirror from the end. */
export interface PageRead {
  /** Whether the page is read from the list's end, in the mirrored order. */
  readonly reversed: boolean;
  /** The limit and offset of this read (from the end when reversed). */
  readonly window: Page;
  /** The query ordered in this read's direction. */
  sorted<Query extends AnySelect>(query: Query): Query;
  /** The query ordered in this read's direction, with this read's limit and offset. */
  sliced<Query extends AnySelect>(query: Query): Query;
}

const flipped = { asc: 'desc', desc: 'asc' } as const;

/** A read of `window` in the list's order, or in its mirror (`reversed`). */
export function pageRead(order: ListOrder, reversed: boolean, window: Page): PageRead {
  const sorted = <Query extends AnySelect>(query: Query): Query =>
    order.reduce<AnySelect>((ordered, [key, direction]) => ordered.orderBy(key as never, reversed ? flipped[direction] : direction), query) as Query;
  return { reversed, window, sorted, sliced: (query) => sorted(query).limit(window.limit).offset(window.offset) as typeof query };
}

/**
 * One page of a list and its total, the page read from whichever end of the list is nearer.
 *
 * An offset costs the database a step over every entry it skips, in the index that gives the
 * order. Every list counts its matching rows anyway (`total`), so once the count is known a page
 * past the middle is read in the mirrored order, `total - offset - limit` entries from the end
 * (fewer rows when the last page is partial), and its rows put back in the list's order: no page
 * steps over more than half the list, so the deepest costs about what the count does.
 *
 * Near the start (an offset below the page size) the rows are read along with the count, as
 * before. Otherwise the count comes first; a row written between the two statements can shift
 * the page by one row, as a write between two page requests always could.
 *
 * `rowsOf` builds the page's query with the read it is given: `sliced` on the query that walks the
 * index (the whole query, or the subquery choosing the page's ids), `sorted` on an outer query.
 */
export async function readPage<Row>(
  order: ListOrder,
  page: Page,
  count: () => Promise<number>,
  rowsOf: (read: PageRead) => Promise<Row[]>,
): Promise<PageOf<Row>> {
  if (page.offset < page.limit) {
    const [rows, total] = await Promise.all([rowsOf(pageRead(order, false, page)), count()]);
    return { rows, total };
  }
  const total = await count();
  const remaining = total - page.offset;
  if (remaining <= 0) return { rows: [], total };
  // Forward, the read steps over offset + limit entries; from the end, over `remaining`.
  if (remaining >= page.offset + page.limit) return { rows: await rowsOf(pageRead(order, false, page)), total };
  const limit = Math.min(page.limit, remaining);
  const rows = await rowsOf(pageRead(order, true, { limit, offset: remaining - limit }));
  return { rows: rows.reverse(), total };
}

/** `count(*)` of a query's rows, as a number. */
export async function countRows(query: AnySelect): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number((row as { n: unknown }).n);
}
