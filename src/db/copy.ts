// `loopdesk copy --to URL`: every table of one database into an empty one, of either dialect
// (SQLite to PostgreSQL when a team outgrows one machine, and back). Rows keep every value as the
// dialect seam reads it (ids, shortcodes, timestamps, secrets' hashes, events), so keys, sessions,
// widget keys and webhook signatures go on working on the copy. Rows travel in pages read by
// primary key, parents before children, so memory stays flat whatever the size; afterwards both
// sides are counted and checksummed the same way, table by table.
import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { NewerDatabaseError, type DatabaseHandle } from './database.js';
import { SEARCH_INDEX_NAME } from './full-text.js';

/** Rows per page read and per insert: well below both dialects' limits on bound parameters (32766 for SQLite). */
const PAGE_ROWS = 1000;
const MAX_PARAMETERS = 30_000;

export interface TableComparison {
  readonly table: string;
  readonly rows: { readonly source: number; readonly target: number };
  /** SHA-256 of each row's canonical form, XORed over the table's rows: the same whatever order they are read in. */
  readonly checksum: { readonly source: string; readonly target: string };
  readonly matches: boolean;
}

export interface CopyReport {
  readonly tables: TableComparison[];
  readonly matches: boolean;
  readonly duration_ms: number;
}

/** The copy was not started: the source is not at this version's schema, or the target holds data. */
export class CopyRefusedError extends Error {
  override readonly name = 'CopyRefusedError';
}

interface TablePlan {
  readonly table: string;
  readonly columns: string[];
  readonly primaryKey: string[];
}

type Row = Record<string, unknown>;

/**
 * The tables in foreign-key order (every table after those it references), with their columns and
 * keys. The search index is left out: the target's own triggers or generated columns build it
 * from the rows copied, and the copy then folds each conversation's messages.
 */
async function planOf(database: DatabaseHandle): Promise<TablePlan[]> {
  const tables = (await database.db.introspection.getTables()).filter((table) => !SEARCH_INDEX_NAME.test(table.name));
  const keys = await database.dialect.tableKeys(database.db);
  const columns = new Map(tables.map((table) => [
    table.name, table.columns.map((column) => column.name).filter((column) => !SEARCH_INDEX_NAME.test(column)),
  ]));
  const ordered: TablePlan[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.some((plan) => plan.table === table)) return;
    if (visiting.has(table)) throw new Error(`foreign keys form a cycle through ${table}`);
    visiting.add(table);
    const { primaryKey = [], references = [] } = keys.get(table) ?? {};
    for (const referenced of references) if (referenced !== table) visit(referenced);
    if (primaryKey.length === 0) throw new Error(`table ${table} has no primary key to page its rows by`);
    ordered.push({ table, columns: columns.get(table)!, primaryKey });
    visiting.delete(table);
  };
  for (const table of [...columns.keys()].sort()) visit(table);
  return ordered;
}

/** The rows of a table, page by page in primary-key order. */
async function* pagesOf(db: Kysely<any>, { table, columns, primaryKey }: TablePlan): AsyncGenerator<Row[]> {
  const limit = Math.max(1, Math.min(PAGE_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  const key = sql.join(primaryKey.map((column) => sql.ref(column)));
  const selected = sql.join(columns.map((column) => sql.ref(column)));
  for (let after: unknown[] | null = null; ;) {
    const where: RawBuilder<unknown> = after ? sql`where (${key}) > (${sql.join(after)})` : sql``;
    const { rows }: { rows: Row[] } = await sql<Row>`select ${selected} from ${sql.table(table)} ${where} order by ${key} limit ${limit}`.execute(db);
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    const last: Row = rows[rows.length - 1];
    after = primaryKey.map((column) => last[column]);
  }
}

/** One row as text both dialects produce alike: its values in column-name order, bytes as hex. */
function canonicalRow(row: Row, columns: readonly string[]): string {
  return JSON.stringify(columns.map((column) => {
    const value = row[column];
    return Buffer.isBuffer(value) ? { hex: value.toString('hex') } : value;
  }));
}

/** Row count and order-independent checksum of rows fed to it. */
function tableDigest(columns: readonly string[]) {
  const sorted = [...columns].sort();
  const sum = Buffer.alloc(32);
  let rows = 0;
  return {
    add(page: Row[]) {
      for (const row of page) {
        const digest = createHash('sha256').update(canonicalRow(row, sorted)).digest();
        for (let i = 0; i < sum.length; i++) sum[i] ^= digest[i];
      }
      rows += page.length;
    },
    result: () => ({ rows, checksum: sum.toString('hex') }),
  };
}

async function assertCurrentSchema(source: DatabaseHandle): Promise<void> {
  const { pending, unknown } = await source.migrationStatus();
  if (unknown.length > 0) throw new NewerDatabaseError(unknown);
  if (pending.length > 0) throw new CopyRefusedError(`the source database has pending migrations (${pending.join(', ')}); run loopdesk migrate on it first`);
}

/** Refuses a target holding any row in a table this version copies (before migrating it, so that nothing of it changes). */
async function assertEmptyTarget(target: DatabaseHandle, plan: TablePlan[]): Promise<void> {
  const existing = new Set((await target.db.introspection.getTables()).map((table) => table.name));
  const withData: string[] = [];
  for (const { table } of plan) {
    if (!existing.has(table)) continue;
    const row = await sql<{ found: number }>`select 1 as found from ${sql.table(table)} limit 1`.execute(target.db);
    if (row.rows.length > 0) withData.push(table);
  }
  if (withData.length > 0) throw new CopyRefusedError(`the target database is not empty (rows in ${withData.join(', ')}); copy only into a new, empty database`);
}

export async function copyDatabase(source: DatabaseHandle, target: DatabaseHandle): Promise<CopyReport> {
  const started = performance.now();
  await assertCurrentSchema(source);
  const plan = await planOf(source);
  await assertEmptyTarget(target, plan);
  await target.migrate();

  const sourceDigests = new Map<string, ReturnType<ReturnType<typeof tableDigest>['result']>>();
  for (const table of plan) {
    const digest = tableDigest(table.columns);
    for await (const page of pagesOf(source.db, table)) {
      await (target.db as Kysely<any>).insertInto(table.table).values(page).execute();
      digest.add(page);
    }
    sourceDigests.set(table.table, digest.result());
  }
  // The messages came in unfolded, each indexed on its own: fold them all, as quiet conversations'
  // are; at once, since no server serves the target yet.
  await target.db.transaction().execute((tx) => target.dialect.fullText.foldAll(tx));

  const tables: TableComparison[] = [];
  for (const table of plan) {
    const digest = tableDigest(table.columns);
    for await (const page of pagesOf(target.db, table)) digest.add(page);
    const copied = digest.result();
    const original = sourceDigests.get(table.table)!;
    tables.push({
      table: table.table,
      rows: { source: original.rows, target: copied.rows },
      checksum: { source: original.checksum, target: copied.checksum },
      matches: original.rows === copied.rows && original.checksum === copied.checksum,
    });
  }
  return { tables, matches: tables.every((table) => table.matches), duration_ms: Math.round(performance.now() - started) };
}
