// Databases as an older version left them, for the tests of a migration that converts existing
// rows: a fresh database migrated only up to a named migration, its rows written with SQL (no API
// of that version runs here), then closed for the current app to open and migrate the rest.
import { Migrator } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { freshDatabaseUrl, type DialectName } from './databases.js';

/** A fresh database at `migration`, with what `write` puts in it; its URL. */
export async function databaseWrittenAt(dialect: DialectName, migration: string, write: (db: any) => Promise<void>): Promise<string> {
  const url = await freshDatabaseUrl(dialect);
  const old = createDatabase(url);
  try {
    const migrator = new Migrator({ db: old.db, provider: { getMigrations: async () => migrations(old.dialect.columnTypes, old.dialect.name) } });
    const { error } = await migrator.migrateTo(migration);
    if (error) throw error;
    await write(old.db);
  } finally {
    await old.close();
  }
  return url;
}

/** The workspace "Old" and its product "Old app" (prefix OLD), made at `createdAt`. */
export async function insertOldProduct(db: any, { workspaceId, productId, createdAt }: { workspaceId: string; productId: string; createdAt: string }): Promise<void> {
  await db.insertInto('workspaces').values({ id: workspaceId, name: 'Old', created_at: createdAt }).execute();
  await db.insertInto('products').values({
    id: productId, workspace_id: workspaceId, name: 'Old app', slug: 'old-app', issue_prefix: 'OLD', widget_key: 'wk_old', product_key: 'pk_old',
    created_at: createdAt, updated_at: createdAt,
  }).execute();
}
