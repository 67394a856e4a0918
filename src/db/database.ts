// createDatabase(url): a Kysely instance on SQLite or PostgreSQL, with its dialect seam and
// migrations. Drivers are loaded only for the dialect in use.
import { Kysely, Migrator, sql, type MigrationProvider } from 'kysely';
import { DATABASE_DEFAULTS } from '../config.js';
import { dialectFor, type Dialect, type OpenOptions } from './dialect.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** Where Kysely's migrator records the migrations it applied. */
const MIGRATION_TABLE = 'kysely_migration';
export { MissingDatabaseError, type OpenOptions } from './dialect.js';

/** Which of this version's migrations a database has, and which it has that this version does not know. */
export interface MigrationStatus {
  readonly applied: string[];
  readonly pending: string[];
  /** Applied by a newer Loopdesk: this version must not serve the database. */
  readonly unknown: string[];
}

/** The database was migrated by a newer Loopdesk; nothing was changed. */
export class NewerDatabaseError extends Error {
  readonly unknown: string[];

  constructor(unknown: string[]) {
    super(
      `the database was migrated by a newer Loopdesk (migrations this version does not know: ${unknown.join(', ')}); ` +
        'run that version or a newer one, or restore the backup taken before the upgrade',
    );
    this.name = 'NewerDatabaseError';
    this.unknown = unknown;
  }
}

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: Dialect;
  /**
   * Applies pending migrations and returns their names. `afterwards` runs under the same
   * lock, so start-up work (the first-start bootstrap) never races another process.
   */
  migrate(afterwards?: () => Promise<void>): Promise<string[]>;
  /** What `migrate` would apply, read without changing anything. */
  migrationStatus(): Promise<MigrationStatus>;
  /** One round trip to the database (GET /readyz); rejects when it cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createDatabase(url: string, options: OpenOptions = DATABASE_DEFAULTS): DatabaseHandle {
  const { dialect, kysely } = dialectFor(url, options);
  const db = new Kysely<Database>({ dialect: kysely });
  const known = migrations(dialect.columnTypes, dialect.name);
  const provider: MigrationProvider = { getMigrations: async () => known };

  async function migrationStatus(executor: Kysely<any>): Promise<MigrationStatus> {
    const tables = await executor.introspection.getTables({ withInternalKyselyTables: true });
    const applied = tables.some((table) => table.name === MIGRATION_TABLE)
      ? (await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(executor)).rows.map((row) => row.name)
      : [];
    return {
      applied,
      pending: Object.keys(known).filter((name) => !applied.includes(name)),
      unknown: applied.filter((name) => !(name in known)),
    };
  }

  return {
    db,
    dialect,
    migrate: (afterwards) =>
      dialect.withMigrationLock(db, async (locked) => {
        // Checked before Kysely's migrator, which would first create its tables where they are missing.
        const { unknown } = await migrationStatus(locked);
        if (unknown.length > 0) throw new NewerDatabaseError(unknown);
        const { error, results } = await new Migrator({ db: locked, provider }).migrateToLatest();
        if (error) throw error;
        await afterwards?.();
        return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
      }),
    migrationStatus: () => migrationStatus(db),
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
