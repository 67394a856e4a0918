// The floor's only seam between SQLite and PostgreSQL: statements are written once, with `?`
// placeholders, and run as prepared statements on either database (raw better-sqlite3, or `pg`
// named statements, which each pooled connection prepares on first use). Nothing else in the
// floor knows which database it runs on, but the search, whose index is each database's own.
import { createRequire } from 'node:module';
import { isoFromPostgres, type DialectName } from '../../src/db/dialect.js';
import { registerSearchFold } from '../../src/db/search-letters.js';

export type Params = readonly unknown[];

/** One `?` per value, comma-separated: an `in (…)` list or an insert's values. */
export const placeholders = (values: readonly unknown[]): string => values.map(() => '?').join(', ');
export type Row = Record<string, unknown>;

export interface Queries {
  all<T = Row>(sql: string, params: Params): Promise<T[]>;
  one<T = Row>(sql: string, params: Params): Promise<T | undefined>;
  run(sql: string, params: Params): Promise<void>;
}

/** What a transaction may do besides statements: the server's per-key lock and its live-channel note. */
export interface Transaction extends Queries {
  /** Serializes transactions on `key` (PostgreSQL's transaction-scoped advisory lock; SQLite runs one transaction at a time anyway). */
  lock(key: string): Promise<void>;
  /** Takes several such locks in one statement, in the server's order (the keys sorted). */
  lockAll(keys: readonly string[]): Promise<void>;
  /** Tells listening server processes about a recorded event once this commits (NOTIFY; nothing listens on SQLite). */
  notify(channel: string, payload: string): Promise<void>;
}

export interface Store extends Queries {
  /** Which database: the search's statements are written for each (bench/floor/search.ts). */
  readonly dialect: DialectName;
  transaction<T>(body: (tx: Transaction) => Promise<T>): Promise<T>;
  /** The names of the database's tables (the bench's equality check counts their rows). */
  tableNames(): Promise<string[]>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The server's advisory-lock key for a text: FNV-1a, 32 bits, as PostgreSQL's int4. */
function lockKey(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** With the pragmas the server opens its file with (WAL, foreign keys, 5 s busy timeout, synchronous=NORMAL, 64 MiB cache). */
function sqliteStore(path: string): Store {
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const database = new Database(path, { fileMustExist: true });
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  database.pragma('cache_size = -65536');
  // The schema's search triggers call it (the server registers it on every connection it opens).
  registerSearchFold(database);
  const statements = new Map<string, import('better-sqlite3').Statement>();
  // Each `?` as `+?`, as the server's SQLite dialect writes its parameters: a bare parameter that
  // may shape a plan has the statement prepared again at every run (src/db/dialect.ts). The
  // floor's SQL holds no `?` inside a quoted string.
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = database.prepare(sql.replaceAll('?', '+?'))));
    return statement;
  };
  const direct: Queries = {
    all: async (sql, params) => prepared(sql).all(...params) as never[],
    one: async (sql, params) => prepared(sql).get(...params) as never,
    run: async (sql, params) => void prepared(sql).run(...params),
  };
  // One connection: a transaction's statements must not interleave with another request's, so
  // transactions queue (first come, first served), and while any is queued a statement queues too.
  let tail: Promise<unknown> = Promise.resolve();
  let queued = 0;
  function serialized<T>(work: () => Promise<T>): Promise<T> {
    queued++;
    const run = tail.then(work).finally(() => queued--);
    tail = run.catch(() => {});
    return run;
  }
  return {
    dialect: 'sqlite',
    all: (sql, params) => (queued ? serialized(() => direct.all(sql, params)) : direct.all(sql, params)),
    one: (sql, params) => (queued ? serialized(() => direct.one(sql, params)) : direct.one(sql, params)),
    run: (sql, params) => (queued ? serialized(() => direct.run(sql, params)) : direct.run(sql, params)),
    transaction: (body) =>
      serialized(async () => {
        // IMMEDIATE: the write lock up front, so a concurrent writer in another process makes this wait, not fail.
        database.exec('begin immediate');
        try {
          const result = await body({ ...direct, lock: async () => {}, lockAll: async () => {}, notify: async () => {} });
          database.exec('commit');
          return result;
        } catch (error) {
          database.exec('rollback');
          throw error;
        }
      }),
    tableNames: async () =>
      (await direct.all<{ name: string }>("select name from sqlite_schema where type = 'table' and name not like 'sqlite_%'", [])).map(({ name }) => name),
    close: async () => void database.close(),
  };
}

/** `?` placeholders as `$1, $2, …`, each text prepared once per connection under a name of its own. */
function pgStatements() {
  const named = new Map<string, { name: string; text: string }>();
  return (sql: string, values: Params) => {
    let statement = named.get(sql);
    if (!statement) {
      let n = 0;
      named.set(sql, (statement = { name: `floor_${named.size}`, text: sql.replace(/\?/g, () => `$${++n}`) }));
    }
    return { ...statement, values: values as unknown[] };
  };
}

/** With the server's type parsers (timestamptz as ISO text with milliseconds, int8 as a number) and its pool size. */
function postgresStore(url: string): Store {
  const pg = require('pg') as typeof import('pg');
  const types = new pg.TypeOverrides();
  types.setTypeParser(20, Number);
  types.setTypeParser(1184, isoFromPostgres);
  const pool = new pg.Pool({ connectionString: url, types, max: Number(process.env.LOOPDESK_PG_POOL_SIZE ?? 10) });
  pool.on('error', () => {});
  const statement = pgStatements();
  const on = (client: Pick<import('pg').Pool, 'query'>): Queries => ({
    all: async (sql, params) => (await client.query(statement(sql, params))).rows,
    one: async (sql, params) => (await client.query(statement(sql, params))).rows[0],
    run: async (sql, params) => void (await client.query(statement(sql, params))),
  });
  return {
    dialect: 'postgres',
    ...on(pool),
    async transaction(body) {
      const client = await pool.connect();
      const queries = on(client);
      try {
        await client.query('begin');
        const result = await body({
          ...queries,
          lock: (key) => queries.run('select pg_advisory_xact_lock(?)', [lockKey(key)]),
          lockAll: (keys) => queries.run(
            'select pg_advisory_xact_lock(key) from unnest(?::int[]) with ordinality as locks(key, position) order by position',
            [[...keys].sort().map(lockKey)],
          ),
          notify: (channel, payload) => queries.run('select pg_notify(?, ?)', [channel, payload]),
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    tableNames: async () =>
      (await pool.query<{ name: string }>('select tablename as name from pg_tables where schemaname = current_schema()')).rows.map(({ name }) => name),
    close: () => pool.end(),
  };
}

/** The store for a DATABASE_URL as the server reads it: `sqlite:<path>` or `postgres://…`. */
export const openStore = (url: string): Store =>
  url.startsWith('sqlite:') ? sqliteStore(url.slice('sqlite:'.length)) : postgresStore(url);
