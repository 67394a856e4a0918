// The one place where SQLite and PostgreSQL differ. Everything else sees the same row shapes:
// ids as lowercase UUID strings, timestamps as ISO strings with milliseconds and `Z`,
// booleans as 0/1 integers, JSON as text, counts as numbers, vectors as Buffers.
import { createRequire } from 'node:module';
import type { DatabaseOptions } from '../config.js';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOwnerOnlyFile, OWNER_ONLY_FOLDER } from '../lib/owner-only.js';
import { postgresFullText, sqliteFullText, type FullTextSearch } from './full-text.js';
import { registerSearchFold } from './search-letters.js';
import { listenOn, type ListenHandlers, type NotificationListener } from './pg-listener.js';
import {
  CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, SqliteQueryCompiler, sql, type DatabaseConnection, type Dialect as KyselyDialect,
  type AliasedRawBuilder, type Expression, type RawBuilder, type SelectQueryBuilder, type SqliteDatabase, type SqliteDialectConfig, type PostgresPool, type PostgresPoolClient, type SqliteStatement,
} from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** How createDatabase opens a database: its sizing, and whether a missing SQLite file may be created. */
export interface OpenOptions extends DatabaseOptions {
  /** false: a SQLite file that does not exist is a MissingDatabaseError, and nothing is created. Default true. */
  readonly createIfMissing?: boolean;
  /**
   * Only reads (backup, the source of a copy): a SQLite file is opened read-only and nothing is
   * written to it, not even statistics, so that the server writing it meanwhile never waits.
   */
  readonly readOnly?: boolean;
}

/** The SQLite file the URL names does not exist (and was not to be created). */
export class MissingDatabaseError extends Error {
  readonly path: string;

  constructor(path: string) {
    super(`no database at ${path}`);
    this.path = path;
    this.name = 'MissingDatabaseError';
  }
}

/** Column types used by migrations; one representation per kind of value. */
export interface ColumnTypes {
  uuid: RawBuilder<unknown>;
  timestamp: RawBuilder<unknown>;
  bytes: RawBuilder<unknown>;
  /**
   * Table option for small tables read by primary-key ranges: SQLite stores such a table in its
   * key's B-tree (`without rowid`), so a range read touches one tree; PostgreSQL needs nothing.
   */
  clusteredByKey: RawBuilder<unknown>;
  /**
   * Text compared byte by byte (UTF-8, so in code point order): SQLite's default; PostgreSQL's
   * `C` collation. Prefix searches are ranges over such a column, which a plain B-tree serves alike.
   */
  byteOrderedText: RawBuilder<unknown>;
}

/** How a live database is backed up: by Loopdesk itself into a file, or with the database's own tools. */
export type Backup =
  | {
      readonly online: true;
      /**
       * Copies the database as one consistent snapshot into `file` (new and empty) while
       * others go on writing; returns what an integrity check of the copy finds wrong ([]: nothing).
       */
      copyTo(db: Kysely<any>, file: string): Promise<string[]>;
    }
  | {
      readonly online: false;
      /** The procedure with the database's own tools, for a person to follow. */
      readonly procedure: string;
    };

export interface PoolUsage {
  /** Connections open, idle or in use. */
  readonly open: number;
  readonly idle: number;
  /** Queries waiting for a connection. */
  readonly waiting: number;
}

/** A table's primary key columns, in key order, and the tables its foreign keys reference. */
export interface TableKeys {
  readonly primaryKey: string[];
  readonly references: string[];
}

export interface Dialect {
  readonly name: DialectName;
  readonly backup: Backup;
  /** The connection pool's use (GET /metrics); null where there is no pool (SQLite's one connection). */
  poolUsage(): PoolUsage | null;
  /** Every table's keys, by table name (`loopdesk copy` orders tables and pages rows by them). */
  tableKeys(db: Kysely<any>): Promise<Map<string, TableKeys>>;
  readonly columnTypes: ColumnTypes;
  /** Runs fn while no other process can migrate the same database. */
  withMigrationLock<T>(db: Kysely<any>, fn: (db: Kysely<any>) => Promise<T>): Promise<T>;
  /** Serializes transactions that take the same key until they end (dedup per product). */
  lockKeyInTransaction(trx: Kysely<any>, key: string): Promise<void>;
  /** Takes several such keys in one statement, in the order given (callers sort them, so that no two wait on each other). */
  lockKeysInTransaction(trx: Kysely<any>, keys: readonly string[]): Promise<void>;
  isUniqueViolation(error: unknown): boolean;
  /**
   * Locks the rows the query selects until the transaction ends, skipping rows another
   * transaction holds, so that processes sharing a queue each claim different rows.
   */
  forUpdateSkipLocked<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * Keeps the query planner's statistics current (run hourly by the housekeeping): SQLite's
   * `PRAGMA optimize`, as its documentation recommends for long-lived connections (it analyzes
   * only the tables whose size changed much); nothing on PostgreSQL, whose autovacuum analyzes.
   */
  refreshStatistics(db: Kysely<any>): Promise<void>;
  /**
   * After an erasure has committed: makes what it deleted or overwrote unreadable in the database's
   * files (docs/privacy.md). SQLite zeroes freed space as it goes (`secure_delete`), so what is left
   * is the old page images in the WAL, which a truncating checkpoint removes; PostgreSQL's dead row
   * versions are reclaimed by its autovacuum.
   */
  purgeErased(db: Kysely<any>): Promise<void>;
  /**
   * Whether several server processes may serve this database at once (PostgreSQL). Where they
   * may, state that every process must see the same, such as rate-limit budgets, lives in the
   * database; where one process owns it (SQLite), that process may keep such state in memory.
   */
  readonly sharedByProcesses: boolean;
  /**
   * Notifications between the processes sharing the database (PostgreSQL's NOTIFY and LISTEN);
   * null where one process owns it (SQLite), which tells its own parts directly.
   */
  readonly notifications: Notifications | null;
  /**
   * The nearest-rank median and 90th percentile of a group's non-null `value`s (docs/reports.md,
   * "Medians and percentiles": ranks ⌈n/2⌉ and ⌈9n/10⌉, 1-based), exact, read in the same pass as
   * the group's other aggregates: `aggregates` to select beside them, `read` the two figures from
   * the row and the group's count of values. PostgreSQL's `percentile_disc(f)` takes rank ⌈f·n⌉
   * (and f·n in doubles rounds to the integer whenever 9n/10 is one, since 0.9 is stored a little
   * above it by less than half a unit of the product); SQLite's takes the 0-based index ⌊f·(n−1)⌋,
   * right for the median but one short for p90 whenever 9(n−1) mod 10 ≥ 2, where the value one
   * further is read back from `percentile_cont` at that same index, which lies r/10 of the way to it.
   */
  readonly medianAndP90: {
    aggregates(value: Expression<unknown>): AliasedRawBuilder<number | null, string>[];
    read(row: Record<string, unknown>, count: number): [median: number, p90: number];
  };
  /**
   * An instant column as epoch milliseconds, a number: a time series reads a year's instants, and
   * turning each timestamp the driver returns into a number cost more than the query.
   */
  epochMs(at: Expression<unknown>): RawBuilder<number>;
  /** Search over the full-text index of migration 0020: FTS5 on SQLite, tsvector on PostgreSQL (src/db/full-text.ts). */
  readonly fullText: FullTextSearch;
}

export interface Notifications {
  /**
   * Sends each of `payloads`, in order, on `channel` to every listening process when the
   * transaction commits; nothing if it rolls back. One statement however many there are.
   */
  notifyOnCommit(trx: Kysely<any>, channel: string, payloads: readonly string[]): Promise<void>;
  /** Sends `payload` on `channel` to every listening process now, outside any transaction (what is never stored). */
  notify(channel: string, payload: string): Promise<void>;
  /** One dedicated connection listening on `channel`, opened again whenever it drops. */
  listen(channel: string, handlers: ListenHandlers): NotificationListener;
}

const require = createRequire(import.meta.url);

// A stable 32-bit key for PostgreSQL advisory locks.
function lockKey(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

const errorCode = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

/**
 * PostgreSQL ended this transaction to break a deadlock (40P01): the others in the circle went on,
 * and the same transaction run again goes through. SQLite, one writer at a time, never reports one.
 */
export const isDeadlockVictim = (error: unknown): boolean => errorCode(error) === '40P01';

const isSqliteBusy = (error: unknown): boolean => String(errorCode(error)).startsWith('SQLITE_BUSY');

/** PostgreSQL's codes for work it cannot take now: no connection slot (53300), a lock not to be had (55P03), starting or stopping (57P03). */
const POSTGRES_BUSY = new Set(['53300', '55P03', '57P03']);

/**
 * The database could not take the statement in time, and its transaction was rolled back: on
 * SQLite another process (a second server, an admin command) held the write lock through the
 * whole wait (SQLITE_BUSY_WAIT_MS); on PostgreSQL no connection or lock was to be had. The same
 * request sent again shortly goes through: a 503 with Retry-After, not an internal error.
 */
export const isDatabaseBusy = (error: unknown): boolean => isSqliteBusy(error) || POSTGRES_BUSY.has(String(errorCode(error)));

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, and compiling the SQL was the largest single cost of a
 * simple request. The app sends a bounded set of distinct SQL texts (only `in (...)` lists vary
 * in length), so prepared statements are kept by text, oldest evicted first. Reuse is safe:
 * Kysely runs one query at a time on its single SQLite connection.
 */
function withStatementCache(database: import('better-sqlite3').Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        statement = database.prepare(text) as unknown as SqliteStatement;
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * SQLite writes every bound value as `+?` rather than `?`: the same value (unary plus changes
 * nothing, and a parameter has no affinity either way), but no longer a bare parameter to the
 * planner. For a bare one, SQLite lets the value shape the plan where it can (a constant carried
 * across a join, STAT4 samples, a LIKE prefix) and marks the statement to be prepared again
 * whenever that parameter is bound, which better-sqlite3 does at every run: a join by `id = ?`
 * cost 11–27 µs more than the same with `+?` (GET /me's key lookup, one statement: 31–42 → 6 µs).
 * Plans then follow the schema and the statistics, not the value of the day, as a long-lived
 * server wants (PostgreSQL's generic plans do the same).
 */
class StablePlanSqliteCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}

/** How long a SQLite statement waits for a write lock another process holds before the database counts as busy. */
const SQLITE_BUSY_WAIT_MS = 5_000;
/** The longest pause between two tries while waiting (the first pauses are 1, 2, 4, 8 and 16 ms). */
const SQLITE_BUSY_PAUSE_MS = 20;

/**
 * Runs a statement, and while SQLite answers that the database is busy (another process holds the
 * write lock), runs it again after a pause, for up to SQLITE_BUSY_WAIT_MS. The pauses are timers,
 * so the process goes on serving meanwhile: better-sqlite3 is synchronous, and SQLite's own
 * busy_timeout sleeps in the calling thread, which stopped every request of the process for as
 * long as the other held the lock. A busy statement changed nothing, so running it again is safe.
 */
async function whileBusy<T>(statement: () => Promise<T>): Promise<T> {
  const deadline = performance.now() + SQLITE_BUSY_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, SQLITE_BUSY_PAUSE_MS)) {
    try {
      return await statement();
    } catch (error) {
      if (!isSqliteBusy(error) || performance.now() + pause > deadline) throw error;
    }
    await sleep(pause);
  }
}

/**
 * Transactions begin IMMEDIATE, taking the write lock first (and waiting for it, whileBusy). Kysely
 * begins them deferred: a transaction reads, then asks for the lock at its first write, and if
 * another process has written in between, SQLite cannot let it wait (its snapshot is stale, or
 * both would wait on each other): SQLITE_BUSY at once, whatever busy_timeout says. With two servers
 * on one file that was a 500 for one write in ten under load. Within one process nothing changes:
 * Kysely runs transactions one at a time on the one connection; now they also exclude those of
 * every other process on the file, as the no-op named locks below rely on.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  #waiting: DatabaseConnection | undefined;

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#waiting ??= {
      executeQuery: (query) => whileBusy(() => connection.executeQuery(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.#waiting;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** SQLite as Loopdesk runs it: plans that follow the schema, transactions that take the write lock first. */
class LoopdeskSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createQueryCompiler() {
    return new StablePlanSqliteCompiler();
  }
}

function openSqlite(path: string, { createIfMissing = true, readOnly = false }: OpenOptions): import('better-sqlite3').Database {
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  if (!createIfMissing || readOnly) {
    try {
      return new Database(path, { fileMustExist: true, readonly: readOnly });
    } catch (error) {
      if (!existsSync(path)) throw new MissingDatabaseError(resolve(path));
      throw error;
    }
  }
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: OWNER_ONLY_FOLDER });
    createOwnerOnlyFile(path, { exclusive: false });
  }
  return new Database(path);
}

/**
 * `VACUUM INTO` reads the database in one transaction, so the copy is one consistent state even as
 * the server goes on writing (WAL: its writes do not wait for the copy), and is compacted on the way.
 * The copy is then opened on its own and checked page by page.
 */
async function sqliteBackup(db: Kysely<any>, file: string): Promise<string[]> {
  await sql`vacuum into ${file}`.execute(db);
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = copy.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).filter((message) => message !== 'ok');
  } finally {
    copy.close();
  }
}

const POSTGRES_BACKUP_PROCEDURE = [
  'loopdesk backup copies SQLite databases; back PostgreSQL up with its own tools, which also read one consistent snapshot while the server writes:',
  '',
  '    pg_dump --format=custom --file=loopdesk-$(date +%Y-%m-%d).dump "$DATABASE_URL"',
  '',
  'Restore into a new, empty database, then point DATABASE_URL at it:',
  '',
  '    createdb loopdesk_restored',
  '    pg_restore --no-owner --dbname=postgres://USER@HOST/loopdesk_restored loopdesk-YYYY-MM-DD.dump',
  '',
  'docs/operations.md ("Backups") says how often, where to keep them, and how to test a restore.',
].join('\n');

function sqliteDialect(path: string, options: OpenOptions): { dialect: Dialect; kysely: KyselyDialect } {
  const database = openSqlite(path, options);
  if (!options.readOnly) database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // Deleted and overwritten content is zeroed, not left in free space: text a row no longer holds
  // (an erased person's messages, their words in the search index) is gone from the file.
  if (!options.readOnly) database.pragma('secure_delete = ON');
  // The search index's triggers fold letters through it (src/db/search-letters.ts).
  registerSearchFold(database);
  // Negative: in KiB. SQLite's default (2 MiB) made lookups at 100k issues read the file.
  database.pragma(`cache_size = -${options.sqliteCacheMb * 1024}`);
  // Statistics for the planner from the start (0x10000: check every table; analysis limited, so
  // quick on a large file), as SQLite recommends on opening a long-lived connection.
  if (!options.readOnly) database.pragma('optimize = 0x10002');
  // Opened: from here on a busy database is waited for by whileBusy, without blocking the event loop.
  database.pragma('busy_timeout = 0');
  return {
    kysely: new LoopdeskSqliteDialect({ database: withStatementCache(database) }),
    dialect: {
      name: 'sqlite',
      backup: { online: true, copyTo: sqliteBackup },
      poolUsage: () => null,
      tableKeys: async (db) => {
        const tables = await sql<{ name: string }>`select name from sqlite_schema where type = 'table' and name not like 'sqlite_%'`.execute(db);
        const entries = await Promise.all(tables.rows.map(async ({ name }) => {
          const columns = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${name})`.execute(db);
          const references = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db);
          const primaryKey = columns.rows.filter((column) => column.pk > 0).sort((x, y) => x.pk - y.pk).map((column) => column.name);
          const keys: TableKeys = { primaryKey, references: [...new Set(references.rows.map((row) => row.table))] };
          return [name, keys] as const;
        }));
        return new Map(entries);
      },
      columnTypes: { uuid: sql`text`, timestamp: sql`text`, bytes: sql`blob`, clusteredByKey: sql`without rowid`, byteOrderedText: sql`text` },
      // Upgrades migrate a SQLite file with its other processes stopped (docs/operations.md, "Upgrades").
      withMigrationLock: (db, fn) => fn(db),
      // Every transaction holds the file's write lock from its start (ImmediateSqliteDriver),
      // so it already excludes every other one, in this process and in any other on the file.
      lockKeyInTransaction: async () => {},
      lockKeysInTransaction: async () => {},
      isUniqueViolation: (error) =>
        errorCode(error) === 'SQLITE_CONSTRAINT_UNIQUE' || errorCode(error) === 'SQLITE_CONSTRAINT_PRIMARYKEY',
      // Transactions run one at a time across processes (the write lock): nobody else can claim the rows.
      forUpdateSkipLocked: (query) => query,
      refreshStatistics: async (db) => {
        await sql`pragma optimize`.execute(db);
      },
      medianAndP90: {
        aggregates: (value) => [
          sql<number | null>`percentile_disc(${value}, 0.5)`.as('median_value'),
          sql<number | null>`percentile_disc(${value}, 0.9)`.as('p90_index_value'),
          sql<number | null>`percentile_cont(${value}, 0.9)`.as('p90_between'),
        ],
        read: (row, count) => {
          const [median, atIndex, between] = [Number(row.median_value), Number(row.p90_index_value), Number(row.p90_between)];
          const beyond = (9 * (count - 1)) % 10;
          return [median, beyond <= 1 ? atIndex : atIndex + Math.round(((between - atIndex) * 10) / beyond)];
        },
      },
      epochMs: (at) => sql<number>`cast(round(unixepoch(${at}, 'subsec') * 1000) as integer)`,
      purgeErased: async (db) => {
        await sql`pragma wal_checkpoint(truncate)`.execute(db);
      },
      sharedByProcesses: false,
      notifications: null,
      fullText: sqliteFullText,
    },
  };
}

const POSTGRES_TIMESTAMPTZ = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(\.\d+)?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?( BC)?$/;

/**
 * A timestamptz as PostgreSQL writes it (`2026-11-21 10:25:00.123+00`, `0014-05-01 18:44:17+00`,
 * `0001-01-01 00:00:00+00 BC`) as ISO 8601 UTC with milliseconds, the form both dialects return.
 * Parsed by hand: Date's own parser refuses this form for years before 100.
 */
export function isoFromPostgres(text: string): string {
  const match = POSTGRES_TIMESTAMPTZ.exec(text);
  if (!match) throw new Error(`unexpected timestamptz text from PostgreSQL: ${text}`);
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours, offsetMinutes = '0', offsetSeconds = '0', bc] = match;
  const date = new Date(Date.UTC(2000, 0, 1, Number(hour), Number(minute), Number(second), Math.floor(Number(`0${fraction || '.0'}`) * 1000)));
  // Set apart: Date.UTC reads the years 0–99 as 1900–1999.
  date.setUTCFullYear(bc ? 1 - Number(year) : Number(year), Number(month) - 1, Number(day));
  const offsetMs = (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60 + Number(offsetSeconds)) * 1000;
  return new Date(date.getTime() - (sign === '-' ? -offsetMs : offsetMs)).toISOString();
}

/**
 * Statements with parameters go to PostgreSQL as named prepared statements, one name per SQL text
 * (up to STATEMENT_CACHE_SIZE texts; others unnamed): each connection parses and plans a text once
 * and then only binds and executes it. Unnamed, every run was parsed and planned again: the key
 * lookup took 197 µs a round trip against 117 µs named. The server keeps the prepared statements
 * per connection, so a connection pooler in between must keep them too (PgBouncer 1.21 and later
 * with `max_prepared_statements`; docs/operations.md).
 */
function withNamedStatements(pool: import('pg').Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < STATEMENT_CACHE_SIZE) names.set(text, (name = `loopdesk_${names.size}`));
    return name;
  };
  return {
    async connect() {
      const client = await pool.connect();
      return {
        // A string with values is a statement; anything else (a cursor, a bare `begin`) goes as it came.
        query: ((query: string | object, values?: readonly unknown[]) =>
          typeof query === 'string' && values !== undefined && values.length > 0
            ? client.query({ name: nameOf(query), text: query, values: values as unknown[] })
            : client.query(query as never, values as never)) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

function postgresDialect(url: string, options: DatabaseOptions): { dialect: Dialect; kysely: KyselyDialect } {
  const pg = require('pg') as typeof import('pg');
  const types = new pg.TypeOverrides();
  const INT8 = 20;
  const TIMESTAMPTZ = 1184;
  types.setTypeParser(INT8, (value: string) => Number(value));
  types.setTypeParser(TIMESTAMPTZ, isoFromPostgres);
  // The pool keeps the connections it opened (up to the pool's size): with an idle timeout, every
  // connection given back set a timer and every one taken cleared it, about 30 µs of CPU a statement
  // outside a transaction (docs/benchmarks.md, "What a statement costs the process"); and a kept
  // connection keeps its prepared statements.
  const pool = new pg.Pool({ connectionString: url, types, max: options.pgPoolSize, idleTimeoutMillis: 0 });
  // An idle client losing its server connection must not crash the process.
  pool.on('error', () => {});
  return {
    kysely: new PostgresDialect({ pool: withNamedStatements(pool) }),
    dialect: {
      name: 'postgres',
      backup: { online: false, procedure: POSTGRES_BACKUP_PROCEDURE },
      poolUsage: () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      tableKeys: async (db) => {
        const keys = await sql<{ table: string; column: string }>`
          select t.relname as table, a.attname as column
          from pg_index i join pg_class t on t.oid = i.indrelid join pg_attribute a on a.attrelid = t.oid and a.attnum = any(i.indkey)
          where i.indisprimary and t.relnamespace = current_schema()::regnamespace
          order by t.relname, array_position(i.indkey::int2[], a.attnum)`.execute(db);
        const references = await sql<{ table: string; referenced: string }>`
          select distinct t.relname as table, r.relname as referenced
          from pg_constraint k join pg_class t on t.oid = k.conrelid join pg_class r on r.oid = k.confrelid
          where k.contype = 'f' and t.relnamespace = current_schema()::regnamespace`.execute(db);
        const tables = await sql<{ table: string }>`
          select relname as table from pg_class where relkind in ('r', 'p') and relnamespace = current_schema()::regnamespace`.execute(db);
        return new Map(tables.rows.map(({ table }) => [table, {
          primaryKey: keys.rows.filter((row) => row.table === table).map((row) => row.column),
          references: references.rows.filter((row) => row.table === table).map((row) => row.referenced),
        }]));
      },
      columnTypes: { uuid: sql`uuid`, timestamp: sql`timestamptz(3)`, bytes: sql`bytea`, clusteredByKey: sql``, byteOrderedText: sql`text collate "C"` },
      withMigrationLock: (db, fn) =>
        db.connection().execute(async (connection) => {
          const key = lockKey('loopdesk:migrations');
          await sql`select pg_advisory_lock(${key})`.execute(connection);
          try {
            return await fn(connection);
          } finally {
            await sql`select pg_advisory_unlock(${key})`.execute(connection);
          }
        }),
      lockKeyInTransaction: async (trx, key) => {
        await sql`select pg_advisory_xact_lock(${lockKey(key)})`.execute(trx);
      },
      lockKeysInTransaction: async (trx, keys) => {
        // A volatile function in the select list runs after the sort: the locks are taken in the keys' order.
        await sql`select pg_advisory_xact_lock(key) from unnest(${keys.map(lockKey)}::int[]) with ordinality as locks(key, position) order by position`
          .execute(trx);
      },
      isUniqueViolation: (error) => errorCode(error) === '23505',
      forUpdateSkipLocked: (query) => query.forUpdate().skipLocked(),
      refreshStatistics: async () => {},
      medianAndP90: {
        aggregates: (value) => [
          sql<number | null>`percentile_disc(0.5) within group (order by ${value})`.as('median_value'),
          sql<number | null>`percentile_disc(0.9) within group (order by ${value})`.as('p90_value'),
        ],
        read: (row) => [Number(row.median_value), Number(row.p90_value)],
      },
      epochMs: (at) => sql<number>`cast(round(extract(epoch from ${at}) * 1000) as float8)`,
      purgeErased: async () => {},
      sharedByProcesses: true,
      notifications: {
        // NOTIFY inside the transaction: PostgreSQL delivers it at commit, in commit order, and drops it on rollback.
        notifyOnCommit: async (trx, channel, payloads) => {
          if (payloads.length === 0) return;
          await sql`select pg_notify(${channel}, note) from unnest(${[...payloads]}::text[]) with ordinality as notes(note, position) order by position`
            .execute(trx);
        },
        notify: async (channel, payload) => {
          await pool.query('select pg_notify($1, $2)', [channel, payload]);
        },
        listen: (channel, handlers) => listenOn(pg.Client, url, channel, handlers),
      },
      fullText: postgresFullText,
    },
  };
}

export function dialectFor(url: string, options: OpenOptions): { dialect: Dialect; kysely: KyselyDialect } {
  if (url.startsWith('sqlite:')) return sqliteDialect(url.slice('sqlite:'.length), options);
  return postgresDialect(url, options);
}
