// createDatabase(url): a Kysely instance on SQLite or PostgreSQL, with its dialect seam and
// migrations. Drivers are loaded only for the dialect in use.
import { Kysely, Migrator, sql, type MigrationProvider } from 'kysely';
import { DATABASE_DEFAULTS } from '../config.js';
import { dialectFor, type Dialect, type OpenOptions } from './dialect.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export { MissingDatabaseError, type OpenOptions } from './dialect.js';

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: Dialect;
  /**
   * Applies pending migrations and returns their names. `afterwards` runs under the same
   * lock, so start-up work (the first-start bootstrap) never races another process.
   */
  migrate(afterwards?: () => Promise<void>): Promise<string[]>;
  /** One round trip to the database (GET /readyz); rejects when it cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createDatabase(url: string, options: OpenOptions = DATABASE_DEFAULTS): DatabaseHandle {
  const { dialect, kysely } = dialectFor(url, options);
  const db = new Kysely<Database>({ dialect: kysely });
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect.columnTypes) };

  return {
    db,
    dialect,
    migrate: (afterwards) =>
      dialect.withMigrationLock(db, async (locked) => {
        const { error, results } = await new Migrator({ db: locked, provider }).migrateToLatest();
        if (error) throw error;
        await afterwards?.();
        return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
      }),
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
