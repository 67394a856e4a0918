// Help center collections (docs/help-center.md): a product's sections, in position order, each with
// a slug unique in its product. Any member writes them (read-only keys never); deleting one keeps
// its articles, outside any collection.
import type { Db } from '../../db/database.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { CollectionChanges, CollectionRepository, CollectionRow } from '../../db/repositories/help-center/collection.repository.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import { invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import type { Actor } from '../accounts/actor.js';
import { effectiveChanges } from '../shared/changes.js';
import { inTransaction } from '../shared/unit-of-work.js';
import { toCollection, type Collection } from './help-center.shapes.js';
import type { HelpCenterWrites } from './help-center-writes.js';
import { freeSlugFor } from './slugs.js';

/** Path segments of the public pages (/help/{help slug}/search, /articles/…): no collection may be addressed by them. */
const RESERVED_SLUGS = ['search', 'articles'];

export interface CollectionInput {
  product_id: string;
  name: string;
  slug?: string;
  description?: string | null;
  position?: number;
}

export type CollectionUpdate = Partial<Omit<CollectionInput, 'product_id'>>;

export interface CollectionServiceDeps {
  db: Db;
  collections: CollectionRepository;
  products: Pick<ProductRepository, 'findById'>;
  helpWrites: HelpCenterWrites;
  clock: Clock;
}

export function createCollectionService({ db, collections, products, helpWrites, clock }: CollectionServiceDeps) {
  async function find(actor: Actor, id: string, tx: Executor = db): Promise<CollectionRow> {
    const collectionId = parseUuid(id);
    const row = collectionId ? await collections.findById(actor.workspaceId, collectionId, tx) : undefined;
    if (!row) throw notFound('collection');
    return row;
  }

  /** A slug given on create, or changed by PATCH (so no longer the collection's own): free in the product, else a validation_error. */
  async function checkSlugFree(productId: string, slug: string, tx: Executor): Promise<void> {
    if (RESERVED_SLUGS.includes(slug)) throw invalidField('slug', 'is reserved: the help center\'s pages use it');
    if ((await collections.slugsStartingWith(productId, slug, tx)).includes(slug)) throw invalidField('slug', 'is already taken in this product\'s collections');
  }

  return {
    find,

    get: async (actor: Actor, id: string): Promise<Collection> => toCollection(await find(actor, id)),

    async list(actor: Actor, filters: { productId?: string }, page: Page): Promise<PageOf<Collection>> {
      const { rows, total } = await collections.list(actor.workspaceId, filters, page);
      return { rows: rows.map(toCollection), total };
    },

    async create(actor: Actor, input: CollectionInput): Promise<Collection> {
      const productId = parseUuid(input.product_id);
      const product = productId ? await products.findById(actor.workspaceId, productId) : undefined;
      if (!product) throw invalidField('product_id', 'is not a product of this workspace');
      return inTransaction(db, async (work) => {
        const { tx } = work;
        await helpWrites.lock(work, product.id);
        if (input.slug !== undefined) await checkSlugFree(product.id, input.slug, tx);
        const now = clock.now();
        const row: CollectionRow = {
          id: newId(),
          workspace_id: actor.workspaceId,
          product_id: product.id,
          name: input.name,
          slug: input.slug ?? (await freeSlugFor(input.name, 'collection', async (stem) => [...RESERVED_SLUGS, ...(await collections.slugsStartingWith(product.id, stem, tx))])),
          description: input.description ?? null,
          position: input.position ?? (await collections.nextPosition(product.id, tx)),
          created_at: now,
          updated_at: now,
        };
        await collections.insert(row, tx);
        await helpWrites.changed(work, actor.workspaceId, product.id);
        return toCollection(row);
      });
    },

    /** updated_at moves only on an effective change; the slug stays when the name changes (links keep working). */
    async update(actor: Actor, id: string, input: CollectionUpdate): Promise<Collection> {
      const { id: collectionId, product_id: productId } = await find(actor, id);
      return inTransaction(db, async (work) => {
        const { tx } = work;
        await helpWrites.lock(work, productId);
        const current = await find(actor, collectionId, tx);
        const changes = effectiveChanges<CollectionChanges>(current, {
          name: input.name, slug: input.slug, description: input.description, position: input.position,
        });
        if (!changes) return toCollection(current);
        if (changes.slug !== undefined) await checkSlugFree(productId, changes.slug, tx);
        changes.updated_at = clock.now();
        await collections.update(actor.workspaceId, collectionId, changes, tx);
        await helpWrites.changed(work, actor.workspaceId, productId);
        return toCollection({ ...current, ...changes });
      });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const { id: collectionId, product_id: productId } = await find(actor, id);
      await inTransaction(db, async (work) => {
        await helpWrites.lock(work, productId);
        await collections.delete(actor.workspaceId, collectionId, work.tx);
        await helpWrites.changed(work, actor.workspaceId, productId);
      });
    },
  };
}

export type CollectionService = ReturnType<typeof createCollectionService>;
