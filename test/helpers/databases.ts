// The dialect matrix: every integration spec runs once per database (SQLite always; PostgreSQL
// when the runner provides TEST_DATABASE_URL). Each call gets a fresh, empty database.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

export const DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** A URL for a new, empty database of the dialect (a temp file for SQLite). */
export async function freshDatabaseUrl(dialect: DialectName): Promise<string> {
  if (dialect === 'sqlite') return `sqlite:${join(mkdtempSync(join(tmpdir(), 'loopdesk-test-')), 'test.db')}`;
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `loopdesk_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
