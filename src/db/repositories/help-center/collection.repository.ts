// Help center collections (migration 0035): a product's sections, in position order.
import { countRows, readPage, type ListOrder } from '../paging.js';
import type { Executor, Page, PageOf } from '../executor.js';
import type { HelpCollectionTable } from '../../schema.js';

const COLLECTION_COLUMNS = ['id', 'workspace_id', 'product_id', 'name', 'slug', 'description', 'position', 'created_at', 'updated_at'] as const;

export type CollectionRow = HelpCollectionTable;
export type CollectionChanges = Partial<Pick<HelpCollectionTable, 'name' | 'slug' | 'description' | 'position' | 'updated_at'>>;

/** Position first, then creation (id breaks ties). */
const COLLECTION_ORDER: ListOrder = [['position', 'asc'], ['created_at', 'asc'], ['id', 'asc']];

export function collectionRepository(db: Executor) {
  const collections = (tx: Executor) => tx.selectFrom('help_collections');

  return {
    async insert(row: CollectionRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('help_collections').values(row).execute();
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<CollectionRow | undefined> {
      return collections(tx).select(COLLECTION_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    async list(workspaceId: string, filters: { productId?: string }, page: Page, tx: Executor = db): Promise<PageOf<CollectionRow>> {
      let matching = collections(tx).where('workspace_id', '=', workspaceId);
      if (filters.productId) matching = matching.where('product_id', '=', filters.productId);
      return readPage(COLLECTION_ORDER, page, () => countRows(matching), (read) => read.sliced(matching.select(COLLECTION_COLUMNS)).execute());
    },

    /** A product's collections in position order (its public pages: a product has tens, not thousands). */
    async ofProduct(productId: string, tx: Executor = db): Promise<CollectionRow[]> {
      return collections(tx).select(COLLECTION_COLUMNS).where('product_id', '=', productId)
        .orderBy('position').orderBy('created_at').orderBy('id').execute();
    },

    /** The product's collection slugs that start with `stem` (slugs hold no LIKE wildcards). */
    async slugsStartingWith(productId: string, stem: string, tx: Executor = db): Promise<string[]> {
      const rows = await collections(tx).select('slug').where('product_id', '=', productId).where('slug', 'like', `${stem}%`).execute();
      return rows.map((row) => row.slug);
    },

    /** The position after the product's last collection. */
    async nextPosition(productId: string, tx: Executor = db): Promise<number> {
      const row = await collections(tx).select((eb) => eb.fn.max('position').as('last')).where('product_id', '=', productId).executeTakeFirst();
      return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
    },

    async update(workspaceId: string, id: string, changes: CollectionChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('help_collections').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('help_collections').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}

export type CollectionRepository = ReturnType<typeof collectionRepository>;
