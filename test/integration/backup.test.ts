// `loopdesk backup FILE` under load: writers keep the real server busy while the backup is taken;
// a second server started on the copy serves every write acknowledged before the backup began,
// the copy passes SQLite's integrity check, and an existing file is never overwritten. On
// PostgreSQL the command explains pg_dump and pg_restore instead.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { snapshotProblems } from '../helpers/journal-check.js';
import { runCli } from '../helpers/processes.js';
import { startServer } from '../helpers/server-process.js';
import { prepareLoad, startWriteLoad } from '../helpers/write-load.js';

const WORKERS = 8;
const ACKNOWLEDGED_BEFORE_BACKUP = 150;
const ACKNOWLEDGED_AFTER_BACKUP = 50;

describe('loopdesk backup [sqlite]', () => {
  it('copies the live database under concurrent writes: every write acknowledged before it began is in the copy, which a server serves', async (t) => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const file = `${databaseUrl.slice('sqlite:'.length)}.backup`;
    const first = await startServer({ databaseUrl, firstStart: true });
    t.after(() => first.process.stop());
    const key = first.bootstrapKey()!;
    const load = startWriteLoad(await prepareLoad(first.baseUrl, key), WORKERS);
    t.after(() => load.stop());
    await load.acknowledged(ACKNOWLEDGED_BEFORE_BACKUP);

    const startedAt = performance.now();
    const result = await runCli(['backup', file, '--json'], { DATABASE_URL: databaseUrl });
    const finishedAt = performance.now();
    await load.acknowledged(load.journal.acknowledged.length + ACKNOWLEDGED_AFTER_BACKUP);
    await load.stop();
    const { journal } = load;
    assert.deepEqual(journal.failed, [], 'the writes went on, answered, during the backup');
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report, { file, bytes: statSync(file).size, integrity: 'ok', duration_ms: report.duration_ms });

    const before = { acknowledged: journal.acknowledged.filter((w) => w.answeredAt < startedAt), unknown: [], failed: [] };
    const during = journal.acknowledged.filter((w) => w.sentAt < finishedAt && w.answeredAt > startedAt).length;
    const copy = createDatabase(`sqlite:${file}`, { pgPoolSize: 2, sqliteCacheMb: 8, createIfMissing: false });
    try {
      assert.deepEqual((await sql<{ integrity_check: string }>`pragma integrity_check`.execute(copy.db)).rows, [{ integrity_check: 'ok' }]);
      assert.deepEqual(await snapshotProblems(copy.db, before), []);
    } finally {
      await copy.close();
    }

    const second = await startServer({ databaseUrl: `sqlite:${file}` });
    t.after(() => second.process.stop());
    assert.equal(second.bootstrapKey(), null, 'the copy is no empty database');
    const issue = before.acknowledged.find((w) => w.kind === 'issue')!.response.data;
    const res = await fetch(`${second.baseUrl}/api/v1/issues/${issue.shortcode}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200, 'the server on the copy serves the data with the same key');
    assert.equal((await res.json()).data.id, issue.id);
    t.diagnostic(`backup under load: ${before.acknowledged.length} writes acknowledged before it verified in the copy; ${during} writes answered while it ran (${report.duration_ms} ms)`);
  });

  it('never overwrites a file: exit 1 with one line, the file untouched', async () => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const env = { DATABASE_URL: databaseUrl };
    assert.equal((await runCli(['migrate'], env)).code, 0);
    const file = `${databaseUrl.slice('sqlite:'.length)}.backup`;
    assert.equal((await runCli(['backup', file], env)).code, 0);
    const bytes = readFileSync(file);
    const again = await runCli(['backup', file], env);
    assert.equal(again.code, 1);
    assert.equal(again.stdout, '');
    assert.equal(again.stderr, `loopdesk: ${file} exists; a backup never overwrites a file: name a new one\n`);
    assert.deepEqual(readFileSync(file), bytes);
  });

  it('names a SQLite file that does not exist instead of backing up an empty database', async () => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const result = await runCli(['backup', `${databaseUrl.slice('sqlite:'.length)}.backup`], { DATABASE_URL: databaseUrl });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^loopdesk: no database at .*; set DATABASE_URL\n$/);
  });
});

if (DIALECTS.includes('postgres')) {
  describe('loopdesk backup [postgres]', () => {
    it('explains the pg_dump and pg_restore procedure and exits 2, writing nothing', async () => {
      const databaseUrl = await freshDatabaseUrl('postgres');
      const file = `${(await freshDatabaseUrl('sqlite')).slice('sqlite:'.length)}.backup`;
      const result = await runCli(['backup', file], { DATABASE_URL: databaseUrl });
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /pg_dump --format=custom .* "\$DATABASE_URL"\n/);
      assert.match(result.stderr, /pg_restore --no-owner/);
      assert.throws(() => statSync(file), { code: 'ENOENT' });
    });
  });
}
