// An operator opens a backup (or a copy into a SQLite file) with the SQLite their distribution
// ships, not only with the server's: SQLite 3.36.0 (older than any Loopdesk promises, 3.37) and
// the machine's own (Debian 12's 3.40.1, as its `sqlite3` and Python read files) list the schema,
// read every table and view with the rows the server's SQLite counts, and read the search texts as
// it does, ordering included. The one exception is the full-text index itself once its
// `secure-delete` has deleted (docs/operations.md, "Which SQLite reads a backup"): it needs 3.42.
// Migration 0027 gives the view the form they parse and the same rows as 0023's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { Migrator, sql, type Kysely } from 'kysely';
import { backUp } from '../../src/db/backup.js';
import { copyDatabase } from '../../src/db/copy.js';
import { createDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { createTestContext } from '../helpers/harness.js';
import { insertOldProduct } from '../helpers/old-database.js';
import { findOldSqlite, OLD_SQLITE_VERSION, systemSqlite, type SqliteReader } from '../helpers/old-sqlite.js';
import { seedWorkspace } from '../helpers/workspace-seed.js';

const OPTIONS = { pgPoolSize: 2, sqliteCacheMb: 8 };
/** The first SQLite that reads an FTS5 index whose `secure-delete` has deleted (its format 5). */
const SECURE_DELETE_FORMAT_SINCE = [3, 42, 0];

const oldSqlite = findOldSqlite();
if ('problem' in oldSqlite && process.env.CI) throw new Error(`the backup reader tests need SQLite ${OLD_SQLITE_VERSION}: ${oldSqlite.problem}`);
const readers: [string, SqliteReader][] = [['the machine\'s SQLite', systemSqlite], ...('read' in oldSqlite ? [['the pinned older SQLite', oldSqlite.read] as [string, SqliteReader]] : [])];

const olderThan = (version: string, [major, minor, patch]: number[]) => {
  const [a, b, c] = version.split('.').map(Number);
  return a !== major ? a < major : b !== minor ? b < minor : c < patch;
};

/** What the server's SQLite reads in the file: each table's and view's rows, the search texts, and the full-text index's format. */
function readWithServersSqlite(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare(`select name from sqlite_schema where type in ('table', 'view') order by name`).pluck().all() as string[];
    return {
      objects: Object.fromEntries(names.map((name) => [name, { rows: (db.prepare(`select count(*) from "${name}"`).pluck().get() as number) }])),
      searchTexts: db.prepare('select doc_id, title, body from search_texts order by doc_id').raw().all(),
      indexFormat: Number(db.prepare(`select v from search_index_config where k = 'version'`).pluck().get()),
    };
  } finally {
    db.close();
  }
}

/** A SQLite file holding every kind of resource written through the API on `dialect`: a backup of it, or a copy into SQLite. */
async function sqliteFileOf(dialect: 'sqlite' | 'postgres'): Promise<string> {
  const context = await createTestContext(dialect);
  const file = join(mkdtempSync(join(tmpdir(), 'loopdesk-readers-')), 'loopdesk.db');
  try {
    const ids = await seedWorkspace(context.a, 'A', 1, context);
    // Messages folded into their conversations, and a title changed: the index deletes words (securely).
    await context.database.db.transaction().execute((tx) => context.database.dialect.fullText.foldAll(tx));
    const renamed = await context.a.api.patch(`/api/v1/issues/${ids.issue[0]}`, { title: 'Export fails on large spreadsheets' });
    assert.equal(renamed.status, 200, renamed.text);
    if (dialect === 'sqlite') {
      await backUp(context.database, file);
    } else {
      const target = createDatabase(`sqlite:${file}`, OPTIONS);
      try {
        assert.equal((await copyDatabase(context.database, target)).matches, true);
      } finally {
        await target.close();
      }
    }
  } finally {
    await context.close();
  }
  return file;
}

for (const dialect of DIALECTS) {
  describe(`older SQLite reads ${dialect === 'sqlite' ? 'a backup' : 'a copy of PostgreSQL into a SQLite file'} [${dialect}]`, { skip: 'problem' in oldSqlite ? oldSqlite.problem : false }, () => {
    it('lists the schema, reads every table and view with the rows the server counts, and the search texts as the server reads them', async (t) => {
      const file = await sqliteFileOf(dialect);
      const expected = readWithServersSqlite(file);
      assert.ok(expected.objects.messages.rows > 0 && expected.searchTexts.length > 0, 'the file holds conversations and their search texts');
      if (dialect === 'sqlite') assert.equal(expected.indexFormat, 5, 'the index has deleted with secure-delete on');
      for (const [name, read] of readers) {
        const reading = await read(file);
        assert.equal(reading.schema_error, undefined, `${name} (${reading.version}) parses the schema`);
        const unreadableIndex = expected.indexFormat === 5 && olderThan(reading.version, SECURE_DELETE_FORMAT_SINCE);
        const objects = { ...expected.objects, ...(unreadableIndex ? { search_index: { error: 'invalid fts5 file format (found 5, expected 4) - run \'rebuild\'' } } : {}) };
        assert.deepEqual(reading.objects, objects, `${name} (${reading.version}) reads every table and view`);
        assert.deepEqual(reading.search_texts, expected.searchTexts, `${name} (${reading.version}) reads the search texts as the server does`);
        t.diagnostic(`${name} ${reading.version}: ${Object.keys(reading.objects).length} tables and views read${unreadableIndex ? ', all but the full-text index' : ''}`);
      }
      const tables = await promisify(execFile)('sqlite3', ['-readonly', file, '.tables']).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' && !process.env.CI) return null;
        throw error;
      });
      // `.tables` prints columns, so the names' order in the text follows how many tables there are.
      if (tables) for (const table of ['conversations', 'messages']) assert.match(tables.stdout, new RegExp(`\\b${table}\\b`), 'the machine\'s sqlite3 lists the tables');
    });
  });
}

describe('migration 0027: the view search_texts in a form SQLite 3.36 parses [sqlite]', () => {
  it('reads the same rows as 0023\'s view, a conversation\'s folded messages by (created_at, id), and its down step brings 0023\'s back', async (t) => {
    const url = await freshDatabaseUrl('sqlite');
    const database = createDatabase(url, OPTIONS);
    t.after(() => database.close());
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations(database.dialect.columnTypes, 'sqlite') } });
    assert.equal((await migrator.migrateTo('0025_conversation_suggestions_index')).error, undefined);

    const workspaceId = newId();
    const productId = newId();
    const conversationId = newId();
    const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    await insertOldProduct(database.db, { workspaceId, productId, createdAt: at(0) });
    // The schema as of 0025, not as the app's types say it is now.
    const oldDb = database.db as unknown as Kysely<any>;
    await oldDb.insertInto('conversations').values({
      id: conversationId, workspace_id: workspaceId, product_id: productId, type: 'ticket', source: 'chat', status: 'open', priority: 'normal',
      title: 'Invoice question', upvotes: 0, tags: '[]', created_at: at(0), updated_at: at(0),
    }).execute();
    // Written out of order: by time, and two at the same minute, whose ids then order them.
    const [low, high] = [newId(), newId()].sort();
    const messages = [
      { id: newId(), body: 'third: the corrected pdf please', created_at: at(30) },
      { id: high, body: 'second b: same minute, the higher id', created_at: at(20) },
      { id: newId(), body: 'first: the invoice shows the wrong vat number', created_at: at(10) },
      { id: low, body: 'second a: same minute, the lower id', created_at: at(20) },
    ];
    await oldDb.insertInto('messages').values(messages.map((message) => ({
      ...message, workspace_id: workspaceId, conversation_id: conversationId, sender_type: 'contact', sender_id: newId(), internal: 0,
    }))).execute();
    await database.db.transaction().execute((tx) => database.dialect.fullText.foldAll(tx));

    const texts = async () => (await sql<{ doc_id: number; title: string; body: string }>`select doc_id, title, body from search_texts order by doc_id`.execute(database.db)).rows;
    const before = await texts();
    const ordered = [...messages].sort((x, y) => x.created_at.localeCompare(y.created_at) || x.id.localeCompare(y.id)).map((message) => message.body).join('\n');
    assert.deepEqual(before.map((row) => [row.title, row.body]), [['Invoice question', ordered]]);

    assert.equal((await migrator.migrateTo('0027_portable_search_texts')).error, undefined);
    assert.deepEqual(await texts(), before);
    for (const [name, read] of readers) {
      const reading = await read(url.slice('sqlite:'.length));
      assert.deepEqual(reading.search_texts, before.map((row) => [row.doc_id, row.title, row.body]), `${name} (${reading.version}) orders them alike`);
    }
    const view = (await sql<{ sql: string }>`select sql from sqlite_schema where name = 'search_texts'`.execute(database.db)).rows[0].sql;
    assert.doesNotMatch(view, /group_concat\([^()]*order by/i, 'no ORDER BY inside an aggregate (SQLite 3.44)');

    assert.equal((await migrator.migrateTo('0025_conversation_suggestions_index')).error, undefined);
    assert.deepEqual(await texts(), before);
    assert.equal((await migrator.migrateToLatest()).error, undefined);
  });
});
