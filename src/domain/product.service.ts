// Products: slug and issue-prefix rules, generated keys, workspace scoping.
import type { Db } from '../db/database.js';
import type { Dialect } from '../db/dialect.js';
import type { Executor, Page, PageOf } from '../db/repositories/executor.js';
import type { ProductChanges, ProductRepository, ProductRow } from '../db/repositories/product.repository.js';
import { invalidField, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { newId, parseUuid } from '../lib/ids.js';
import { randomToken } from '../lib/tokens.js';
import type { Actor } from './actor.js';
import type { Outbox } from '../events/outbox.js';
import { previousOf, updateUnderLock } from './changes.js';
import { inTransaction } from './unit-of-work.js';
import { freePrefix, freeSlug, prefixFromName, slugFromName, slugStem } from './product-naming.js';

export interface Product {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  issue_prefix: string;
  widget_key: string;
  product_key: string;
  widget_config: Record<string, unknown> | null;
  domain: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProductInput {
  name: string;
  slug?: string;
  issue_prefix?: string;
  widget_config?: Record<string, unknown> | null;
  domain?: string | null;
}

export const WIDGET_CONFIG_MAX_BYTES = 16 * 1024;
export const WIDGET_CONFIG_MAX_DEPTH = 32;

export const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  workspace_id: row.workspace_id,
  name: row.name,
  slug: row.slug,
  issue_prefix: row.issue_prefix,
  widget_key: row.widget_key,
  product_key: row.product_key,
  widget_config: row.widget_config === null ? null : JSON.parse(row.widget_config),
  domain: row.domain,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** How deeply objects and arrays nest in a parsed JSON value, measured without recursion. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

function serializeWidgetConfig(config: Record<string, unknown> | null): string | null {
  if (config === null) return null;
  // Checked first: serializing a deeper value (16 KiB of "[") would overflow the stack.
  if (nestingDepth(config) > WIDGET_CONFIG_MAX_DEPTH) {
    throw invalidField('widget_config', `must nest objects and arrays at most ${WIDGET_CONFIG_MAX_DEPTH} levels deep`);
  }
  const text = JSON.stringify(config);
  if (Buffer.byteLength(text) > WIDGET_CONFIG_MAX_BYTES) {
    throw invalidField('widget_config', `must be at most ${WIDGET_CONFIG_MAX_BYTES} bytes serialized`);
  }
  return text;
}

export interface ProductServiceDeps {
  db: Db;
  dialect: Pick<Dialect, 'isUniqueViolation' | 'lockKeyInTransaction'>;
  products: ProductRepository;
  outbox: Outbox;
  clock: Clock;
}

/** The one writer of products: each create and effective update records its event here. */
export function createProductService({ db, dialect, products, outbox, clock }: ProductServiceDeps) {
  async function find(actor: Actor, id: string, tx: Executor = db): Promise<ProductRow> {
    const productId = parseUuid(id);
    const row = productId ? await products.findById(actor.workspaceId, productId, tx) : undefined;
    if (!row) throw notFound('product');
    return row;
  }

  const taken = (field: 'slug' | 'issue_prefix') => invalidField(field, 'is already taken in this workspace');

  return {
    async get(actor: Actor, id: string): Promise<Product> {
      return toProduct(await find(actor, id));
    },

    async list(actor: Actor, page: Page): Promise<PageOf<Product>> {
      const { rows, total } = await products.list(actor.workspaceId, page);
      return { rows: rows.map(toProduct), total };
    },

    async create(actor: Actor, input: ProductInput): Promise<Product> {
      const widgetConfig = serializeWidgetConfig(input.widget_config ?? null);
      const insertOnce = () =>
        inTransaction(db, async (work) => {
          const { tx } = work;
          // Creates in one workspace take turns, so concurrent ones never pick the same slug or prefix.
          await dialect.lockKeyInTransaction(tx, `products:${actor.workspaceId}`);
          const slugBase = input.slug ?? slugFromName(input.name);
          const slug = freeSlug(slugBase, new Set(await products.slugsStartingWith(actor.workspaceId, slugStem(slugBase), tx)));
          const prefixes = new Set(await products.prefixes(actor.workspaceId, tx));
          if (input.issue_prefix !== undefined && prefixes.has(input.issue_prefix)) throw taken('issue_prefix');
          const now = clock.now();
          const row: ProductRow = {
            id: newId(),
            workspace_id: actor.workspaceId,
            name: input.name,
            slug,
            issue_prefix: input.issue_prefix ?? freePrefix(prefixFromName(input.name), prefixes),
            widget_key: randomToken('wk_', 24),
            product_key: randomToken('pk_', 24),
            widget_config: widgetConfig,
            domain: input.domain ?? null,
            created_at: now,
            updated_at: now,
          };
          await products.insert(row, tx);
          const product = toProduct(row);
          await outbox.record(work, { type: 'product.created', workspaceId: actor.workspaceId, data: product });
          return product;
        });
      // A concurrent PATCH may still take the slug or prefix between our read and our insert;
      // the generated values are then simply chosen again.
      for (let attempt = 1; ; attempt++) {
        try {
          return await insertOnce();
        } catch (error) {
          if (!dialect.isUniqueViolation(error) || attempt === 5) throw error;
        }
      }
    },

    async update(actor: Actor, id: string, input: Partial<ProductInput>): Promise<Product> {
      const { id: productId } = await find(actor, id);
      const wanted: ProductChanges = {
        name: input.name,
        slug: input.slug,
        issue_prefix: input.issue_prefix,
        widget_config: input.widget_config === undefined ? undefined : serializeWidgetConfig(input.widget_config),
        domain: input.domain,
      };
      const { current, changes } = await updateUnderLock({ db, dialect, clock }, {
        lockKey: `product:${productId}`,
        read: (tx) => find(actor, productId, tx),
        wanted,
        async write(work, current, changes) {
          const { tx } = work;
          if (changes.slug !== undefined && (await products.isTaken(actor.workspaceId, 'slug', changes.slug, tx))) throw taken('slug');
          if (changes.issue_prefix !== undefined && (await products.isTaken(actor.workspaceId, 'issue_prefix', changes.issue_prefix, tx))) {
            throw taken('issue_prefix');
          }
          try {
            await products.update(actor.workspaceId, current.id, changes, tx);
          } catch (error) {
            // Lost a race for the slug or prefix to a concurrent create or another product's PATCH.
            if (dialect.isUniqueViolation(error)) throw taken(changes.issue_prefix !== undefined ? 'issue_prefix' : 'slug');
            throw error;
          }
          const previous = previousOf(toProduct(current), changes);
          await outbox.record(work, { type: 'product.updated', workspaceId: actor.workspaceId, data: toProduct({ ...current, ...changes }), previous });
        },
      });
      return toProduct(changes ? { ...current, ...changes } : current);
    },
  };
}

export type ProductService = ReturnType<typeof createProductService>;
