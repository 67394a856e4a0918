// The files Loopdesk writes hold its secrets (the hashes of keys and passwords, the identity and
// webhook secrets) and customers' conversations and files: a new SQLite database with its -wal
// and -shm files and its folder, a backup, a copy into a new SQLite file, the attachments folder.
// Each is created readable by Loopdesk's own user only (files 0600, folders 0700), whatever the
// umask; the tests run under the usual 022, which left them readable by everyone before.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { backUp } from '../../src/db/backup.js';
import { copyDatabase } from '../../src/db/copy.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createAttachmentStore } from '../../src/storage/attachment-store.js';
import { DIALECTS, migratedDatabaseUrl } from '../helpers/databases.js';

process.umask(0o022);

const OPTIONS = { pgPoolSize: 2, sqliteCacheMb: 8 };
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
const newFolder = () => mkdtempSync(join(tmpdir(), 'loopdesk-modes-'));

async function withDatabase<T>(url: string, use: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = createDatabase(url, OPTIONS);
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

describe('files Loopdesk creates are readable by its own user only', () => {
  it('a new SQLite database: its folders 0700, the file and its -wal and -shm 0600', async () => {
    const root = newFolder();
    const file = join(root, 'var', 'loopdesk', 'loopdesk.db');
    await withDatabase(`sqlite:${file}`, async (database) => {
      await database.migrate();
      await sql`select count(*) from workspaces`.execute(database.db);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        assert.ok(existsSync(path), `${path} exists while the database is open`);
        assert.equal(modeOf(path), '600', path);
      }
    });
    assert.equal(modeOf(join(root, 'var', 'loopdesk')), '700');
    assert.equal(modeOf(join(root, 'var')), '700');
  });

  it('a backup is 0600', async () => {
    const file = join(newFolder(), 'backup.db');
    await withDatabase(await migratedDatabaseUrl('sqlite'), (database) => backUp(database, file));
    assert.equal(modeOf(file), '600');
  });

  for (const dialect of DIALECTS) {
    it(`a copy of a ${dialect} database into a new SQLite file is 0600`, async () => {
      const file = join(newFolder(), 'copy.db');
      await withDatabase(await migratedDatabaseUrl(dialect), (source) =>
        withDatabase(`sqlite:${file}`, async (target) => assert.equal((await copyDatabase(source, target)).matches, true)));
      assert.equal(modeOf(file), '600');
    });
  }

  it('attachments in a folder: the folders 0700, the files 0600', async () => {
    const dir = join(newFolder(), 'attachments');
    const store = createAttachmentStore({ kind: 'folder', dir });
    const sha256 = await store.put(Buffer.from('a customer\'s invoice'));
    assert.equal(modeOf(dir), '700');
    assert.equal(modeOf(join(dir, sha256.slice(0, 2))), '700');
    assert.equal(modeOf(join(dir, sha256.slice(0, 2), sha256)), '600');
  });
});
