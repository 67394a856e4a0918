// Fresh, empty databases for the bench: a SQLite file in a temp directory, or a new database
// in a throwaway PostgreSQL cluster started from the installed binaries (as `npm test` does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensurePostgresUser, findPostgresBin, startPostgresCluster } from '../test/helpers/postgres.js';
import type { BenchDb } from './args.js';

export interface DatabaseFactory {
  /** A URL for a new, empty database named after `name`. */
  fresh(name: string): Promise<string>;
  /** Removes everything the factory created. */
  dispose(): void;
}

function sqliteFactory(): DatabaseFactory {
  const dir = mkdtempSync(join(tmpdir(), 'loopdesk-bench-'));
  return {
    fresh: async (name) => `sqlite:${join(dir, `${name}.db`)}`,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresFactory(): Promise<DatabaseFactory> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql; install postgresql to bench --db postgres');
  ensurePostgresUser();
  const cluster = await startPostgresCluster(bin);
  return {
    async fresh(name) {
      const database = `bench_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        await client.query(`create database ${database}`);
      } finally {
        await client.end();
      }
      const url = new URL(cluster.url);
      url.pathname = `/${database}`;
      return url.toString();
    },
    dispose: () => cluster.stop(),
  };
}

export const databaseFactory = (db: BenchDb): Promise<DatabaseFactory> =>
  db === 'sqlite' ? Promise.resolve(sqliteFactory()) : postgresFactory();
