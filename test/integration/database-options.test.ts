// LOOPDESK_PG_POOL_SIZE and LOOPDESK_SQLITE_CACHE_MB: read and checked by loadConfig, applied by
// createDatabase.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';

describe('database options', () => {
  it('default to 10 PostgreSQL connections and a 64 MiB SQLite cache', () => {
    assert.deepEqual(loadConfig({}).database, { pgPoolSize: 10, sqliteCacheMb: 64 });
    assert.deepEqual(loadConfig({ LOOPDESK_PG_POOL_SIZE: '4', LOOPDESK_SQLITE_CACHE_MB: '256' }).database, { pgPoolSize: 4, sqliteCacheMb: 256 });
  });

  it('reject values that are not positive integers', () => {
    for (const value of ['0', '-1', '2.5', 'big']) {
      assert.throws(() => loadConfig({ LOOPDESK_PG_POOL_SIZE: value }), ConfigError);
      assert.throws(() => loadConfig({ LOOPDESK_SQLITE_CACHE_MB: value }), ConfigError);
    }
  });

  it('refuses a PostgreSQL pool of one connection, which start-up would deadlock on', () => {
    assert.throws(() => loadConfig({ LOOPDESK_PG_POOL_SIZE: '1' }), /from 2 to 1000/);
  });

  it('size the SQLite page cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopdesk-options-'));
    const database = createDatabase(`sqlite:${join(dir, 'db.sqlite')}`, { pgPoolSize: 10, sqliteCacheMb: 8 });
    try {
      const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db);
      assert.equal(rows[0].cache_size, -8 * 1024);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
