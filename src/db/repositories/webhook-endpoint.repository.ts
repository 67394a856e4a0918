// Webhook endpoints: where a workspace wants its events delivered, and the secret that signs them.
import { findInWorkspace } from './compiled-query.js';
import { oldestFirstPage, type Executor, type Page, type PageOf } from './executor.js';
import type { WebhookEndpointTable } from '../schema.js';

const ENDPOINT_COLUMNS = [
  'id', 'workspace_id', 'url', 'events', 'description', 'enabled', 'secret', 'previous_secret', 'previous_secret_expires_at',
  'created_at', 'updated_at',
] as const;

export type WebhookEndpointRow = WebhookEndpointTable;
export type WebhookEndpointChanges = Partial<Pick<
  WebhookEndpointTable, 'url' | 'events' | 'description' | 'enabled' | 'secret' | 'previous_secret' | 'previous_secret_expires_at' | 'updated_at'
>>;

/** What fan-out needs to know of an endpoint: whose it is, what it subscribes to, since when. */
export type SubscriptionRow = Pick<WebhookEndpointTable, 'id' | 'workspace_id' | 'events' | 'created_at'>;

export function webhookEndpointRepository(db: Executor) {
  return {
    async insert(row: WebhookEndpointRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('webhook_endpoints').values(row).execute();
    },

    findById: findInWorkspace<WebhookEndpointRow>(db, 'webhook_endpoints', ENDPOINT_COLUMNS),

    async list(workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<WebhookEndpointRow>> {
      return oldestFirstPage<WebhookEndpointRow>(tx, 'webhook_endpoints', ENDPOINT_COLUMNS, workspaceId, page);
    },

    async update(workspaceId: string, id: string, changes: WebhookEndpointChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('webhook_endpoints').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Deletes the endpoint and, by cascade, its deliveries; whether it existed. */
    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<boolean> {
      const result = await tx.deleteFrom('webhook_endpoints').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The enabled endpoints of these workspaces. */
    async enabledIn(workspaceIds: readonly string[], tx: Executor = db): Promise<SubscriptionRow[]> {
      if (workspaceIds.length === 0) return [];
      return tx
        .selectFrom('webhook_endpoints')
        .select(['id', 'workspace_id', 'events', 'created_at'])
        .where('workspace_id', 'in', workspaceIds)
        .where('enabled', '=', 1)
        .execute();
    },
  };
}

export type WebhookEndpointRepository = ReturnType<typeof webhookEndpointRepository>;
