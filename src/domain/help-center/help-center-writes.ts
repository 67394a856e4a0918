// What every write of a product's help center does, in its transaction: it takes the product's
// help-center lock (writes of one product's articles and collections take turns, so a slug or a
// translation's locale is checked against what is committed) and moves the product's help version,
// so that every process's cached public pages of the product are stale from the commit on.
import type { Dialect } from '../../db/dialect.js';
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import { holdLock, type Work } from '../shared/unit-of-work.js';

export interface HelpCenterWritesDeps {
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  products: Pick<ProductRepository, 'bumpHelpVersion'>;
}

export function createHelpCenterWrites({ dialect, products }: HelpCenterWritesDeps) {
  return {
    /** Before the write reads what it checks. */
    lock: (work: Work, productId: string) => holdLock(dialect, work, `help:${productId}`),
    /** Once the write changed something public (or may have). */
    changed: (work: Work, workspaceId: string, productId: string) => products.bumpHelpVersion(workspaceId, productId, work.tx),
  };
}

export type HelpCenterWrites = ReturnType<typeof createHelpCenterWrites>;
