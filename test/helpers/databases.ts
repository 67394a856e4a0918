// The dialect matrix: every integration spec runs once per database (SQLite always; PostgreSQL
// when the runner provides TEST_DATABASE_URL). Each call gets a new database: an empty one, or one
// migrated (a copy of the run's template).
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

const dialectsOfRun = (): DialectName[] => (process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']);
export const DIALECTS = dialectsOfRun();

/**
 * Where `test/run.ts` keeps a database of each dialect with every migration applied, for
 * `migratedDatabaseUrl` to copy: a SQLite file, and a PostgreSQL database's name.
 */
const TEMPLATE_VARIABLES: Record<DialectName, string> = { sqlite: 'LOOPDESK_TEST_SQLITE_TEMPLATE', postgres: 'LOOPDESK_TEST_POSTGRES_TEMPLATE' };

const newSqliteFile = () => join(mkdtempSync(join(tmpdir(), 'loopdesk-test-')), 'test.db');

/** Runs one statement on the run's PostgreSQL server (creating or dropping a database). */
async function onPostgresServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function createPostgresDatabase(template: string | null): Promise<string> {
  const name = `loopdesk_test_${randomBytes(6).toString('hex')}`;
  await onPostgresServer(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A URL for a new, empty database of the dialect (a temp file for SQLite). */
export async function freshDatabaseUrl(dialect: DialectName): Promise<string> {
  return dialect === 'sqlite' ? `sqlite:${newSqliteFile()}` : createPostgresDatabase(null);
}

/**
 * A URL for a new database of the dialect with every migration applied: a copy of the run's
 * template (a file copy, or PostgreSQL's `create database … template`, a tenth of migrating),
 * or, when the file runs without `test/run.ts`, an empty one for the caller to migrate.
 */
export async function migratedDatabaseUrl(dialect: DialectName): Promise<string> {
  const template = process.env[TEMPLATE_VARIABLES[dialect]];
  if (!template) return freshDatabaseUrl(dialect);
  if (dialect === 'postgres') return createPostgresDatabase(template);
  const file = newSqliteFile();
  copyFileSync(template, file);
  return `sqlite:${file}`;
}

/**
 * Makes the templates `migratedDatabaseUrl` copies, one per dialect of the run, and names them in
 * this process's environment (which the test files' processes inherit); returns what removes them.
 */
export async function prepareTemplates(migrate: (url: string) => Promise<void>): Promise<() => Promise<void>> {
  const made: { dialect: DialectName; url: string }[] = [];
  // Read now: the runner sets TEST_DATABASE_URL after this module was loaded.
  for (const dialect of dialectsOfRun()) {
    const url = await freshDatabaseUrl(dialect);
    await migrate(url);
    // A copy of the file alone must hold everything: the last connection's close checkpointed the log.
    if (dialect === 'sqlite' && existsSync(`${url.slice('sqlite:'.length)}-wal`)) throw new Error(`${url}: the write-ahead log outlived its close`);
    made.push({ dialect, url });
    process.env[TEMPLATE_VARIABLES[dialect]] = dialect === 'sqlite' ? url.slice('sqlite:'.length) : new URL(url).pathname.slice(1);
  }
  return async () => {
    for (const { dialect, url } of made) {
      if (dialect === 'sqlite') rmSync(dirname(url.slice('sqlite:'.length)), { recursive: true, force: true });
      else await onPostgresServer(`drop database if exists ${new URL(url).pathname.slice(1)}`);
    }
  };
}
