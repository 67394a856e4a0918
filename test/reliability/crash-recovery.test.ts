// Nothing acknowledged is lost: the real server under concurrent writes is killed with SIGKILL
// and restarted on the same database; every write that got a 2xx is there and intact, and no
// change was half applied. On PostgreSQL only the server dies; the database stays up.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { journalProblems } from '../helpers/journal-check.js';
import { startServer } from '../helpers/server-process.js';
import { prepareLoad, startWriteLoad } from '../helpers/write-load.js';

const WORKERS = 12;
// Kill once this many writes were acknowledged (or after the time limit, whichever comes first).
const ACKNOWLEDGED_BEFORE_KILL = 400;
const LOAD_LIMIT_MS = 8_000;

for (const dialect of DIALECTS) {
  describe(`SIGKILL during concurrent writes [${dialect}]`, () => {
    it('loses no acknowledged write and leaves no half-applied change', async (t) => {
      const databaseUrl = await freshDatabaseUrl(dialect);
      const first = await startServer({ databaseUrl, firstStart: true });
      t.after(() => first.kill('SIGKILL'));
      const key = first.bootstrapKey()!;
      const load = startWriteLoad(await prepareLoad(first.baseUrl, key), WORKERS);
      await Promise.race([load.acknowledged(ACKNOWLEDGED_BEFORE_KILL), new Promise((resolve) => setTimeout(resolve, LOAD_LIMIT_MS))]);

      first.kill('SIGKILL');
      await load.stop();
      assert.equal((await first.process.exited).signal, 'SIGKILL');
      const { journal } = load;
      assert.deepEqual(journal.failed, [], 'every answer before the kill was a 2xx');

      const second = await startServer({ databaseUrl });
      t.after(() => second.process.stop());
      assert.equal(second.bootstrapKey(), null, 'a restart does not bootstrap again');
      const issue = journal.acknowledged.find((w) => w.kind === 'issue')!.response.data;
      const res = await fetch(`${second.baseUrl}/api/v1/issues/${issue.shortcode}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200, 'the restarted server serves the data with the same key');

      const database = createDatabase(databaseUrl);
      try {
        assert.deepEqual(await journalProblems(database.db, journal), []);
      } finally {
        await database.close();
      }
      t.diagnostic(
        `crash [${dialect}]: ${journal.acknowledged.length} acknowledged writes verified after SIGKILL ` +
          `(${journal.unknown.length} in flight with unknown outcome)`,
      );
    });
  });
}
