// A fresh database with one workspace and product, and issues created through the issue
// service, for the matcher's storage and caching specs.
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import type { IndexedIssue } from '../../src/dedup/detector.js';
import type { Actor } from '../../src/domain/accounts/actor.js';
import { createServices, type Services } from '../../src/services.js';
import { migratedDatabaseUrl, type DialectName } from './databases.js';

export interface DedupFixture {
  database: DatabaseHandle;
  services: Services;
  actor: Actor;
  workspaceId: string;
  productId: string;
  createIssue(title: string, description?: string | null): Promise<IndexedIssue>;
  close(): Promise<void>;
}

export async function createDedupFixture(dialect: DialectName): Promise<DedupFixture> {
  const database = createDatabase(await migratedDatabaseUrl(dialect));
  await database.migrate();
  const services = createServices(database);
  const workspace = await services.admin.createWorkspace('Dedup');
  const owner = await services.admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
  const key = await services.admin.createKey({ workspaceId: workspace.id, memberId: owner.id });
  const actor: Actor = { workspaceId: workspace.id, apiKeyId: key.id, credentialId: key.id, readOnly: false, member: owner };
  const product = await services.products.create(actor, { name: 'Dedup' }, '');
  return {
    database,
    services,
    actor,
    workspaceId: workspace.id,
    productId: product.id,
    async createIssue(title, description = null) {
      const issue = await services.issues.create(actor, { product_id: product.id, title, description });
      return { id: issue.id, workspaceId: workspace.id, productId: product.id, title: issue.title, description: issue.description };
    },
    close: () => database.close(),
  };
}
