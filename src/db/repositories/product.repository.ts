import { compileOnce, findInWorkspace } from './compiled-query.js';
import { oldestFirstPage, type Executor, type Page, type PageOf } from './executor.js';
import type { ProductTable } from '../schema.js';

const PRODUCT_COLUMNS = [
  'id', 'workspace_id', 'name', 'slug', 'issue_prefix', 'widget_key', 'product_key', 'widget_config', 'domain',
  'triage', 'inbound_name', 'help_slug', 'help_center', 'help_version', 'assignment', 'created_at', 'updated_at',
] as const;

/**
 * A product as every reader sees it: the identity secret is read on its own, only where a token is
 * checked, and the round robin's cursor only under the product's assignment lock.
 */
export type ProductRow = Omit<ProductTable, 'identity_secret' | 'assignment_cursor'>;
export type ProductChanges = Partial<Pick<ProductTable, 'name' | 'slug' | 'issue_prefix' | 'widget_config' | 'domain' | 'triage' | 'help_slug' | 'help_center' | 'assignment' | 'updated_at'>>;

export function productRepository(db: Executor) {
  // Every widget request looks its product up by key.
  const byWidgetKey = compileOnce(['widgetKey'], ({ widgetKey }: { widgetKey: string }) =>
    db.selectFrom('products').select(PRODUCT_COLUMNS).where('widget_key', '=', widgetKey));

  return {
    async insert(row: ProductRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('products').values(row).execute();
    },

    findById: findInWorkspace<ProductRow>(db, 'products', PRODUCT_COLUMNS),

    /**
     * The product a widget key names. Not scoped by workspace: on the public widget routes the
     * key itself is what names the tenant (it is unique across workspaces).
     */
    async findByWidgetKey(widgetKey: string, tx: Executor = db): Promise<ProductRow | undefined> {
      return (await byWidgetKey(tx, { widgetKey }))[0];
    },

    /**
     * The product an inbound address names. Not scoped by workspace: the address alone names the
     * tenant (inbound names are unique across workspaces).
     */
    async findByInboundName(inboundName: string, tx: Executor = db): Promise<ProductRow | undefined> {
      return tx.selectFrom('products').select(PRODUCT_COLUMNS).where('inbound_name', '=', inboundName).executeTakeFirst();
    },

    /**
     * The product a help slug names (the public help center). Not scoped by workspace: the public
     * path alone names the tenant (help slugs are unique across workspaces).
     */
    async findByHelpSlug(helpSlug: string, tx: Executor = db): Promise<ProductRow | undefined> {
      return tx.selectFrom('products').select(PRODUCT_COLUMNS).where('help_slug', '=', helpSlug).executeTakeFirst();
    },

    /** Help slugs of every workspace that start with `stem` (slugs hold no LIKE wildcards). */
    async helpSlugsStartingWith(stem: string, tx: Executor = db): Promise<string[]> {
      const rows = await tx.selectFrom('products').select('help_slug').where('help_slug', 'like', `${stem}%`).execute();
      return rows.map((r) => r.help_slug);
    },

    /** Whether a product of any workspace, other than `exceptId` (none for a new one), holds the help slug. */
    async isHelpSlugTaken(helpSlug: string, exceptId: string | null, tx: Executor = db): Promise<boolean> {
      let query = tx.selectFrom('products').select('id').where('help_slug', '=', helpSlug);
      // PostgreSQL's ids are uuids: no sentinel like '' may stand for "none".
      if (exceptId !== null) query = query.where('id', '<>', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /** Moves the product's help version: the public pages rendered before it are stale (in the write's transaction). */
    async bumpHelpVersion(workspaceId: string, id: string, tx: Executor): Promise<void> {
      await tx.updateTable('products').set((eb) => ({ help_version: eb('help_version', '+', 1) }))
        .where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async list(workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<ProductRow>> {
      return oldestFirstPage<ProductRow>(tx, 'products', PRODUCT_COLUMNS, workspaceId, page);
    },

    /** Slugs in the workspace that start with `stem` (slugs hold no LIKE wildcards). */
    async slugsStartingWith(workspaceId: string, stem: string, tx: Executor = db): Promise<string[]> {
      const rows = await tx
        .selectFrom('products')
        .select('slug')
        .where('workspace_id', '=', workspaceId)
        .where('slug', 'like', `${stem}%`)
        .execute();
      return rows.map((r) => r.slug);
    },

    async isTaken(workspaceId: string, column: 'slug' | 'issue_prefix', value: string, tx: Executor = db): Promise<boolean> {
      const row = await tx
        .selectFrom('products')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where(column, '=', value)
        .executeTakeFirst();
      return row !== undefined;
    },

    async prefixes(workspaceId: string, tx: Executor = db): Promise<string[]> {
      const rows = await tx.selectFrom('products').select('issue_prefix').where('workspace_id', '=', workspaceId).execute();
      return rows.map((r) => r.issue_prefix);
    },

    async update(workspaceId: string, id: string, changes: ProductChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('products').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async identitySecretOf(workspaceId: string, id: string, tx: Executor = db): Promise<string | null> {
      const row = await tx.selectFrom('products').select('identity_secret').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return row?.identity_secret ?? null;
    },

    async setIdentitySecret(workspaceId: string, id: string, secret: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('products').set({ identity_secret: secret }).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}

export type ProductRepository = ReturnType<typeof productRepository>;
