// Release announcements through a kill -9: the server dies while both emails of the release wait
// for the SMTP server's answer to DATA (the system messages already posted); after the restart
// each email is sent again once its lease runs out, and the release ends with exactly 2 accepted
// emails and 4 system messages. The count is reported.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { announcedIn, buildScenario, mailTo, publishScenario, systemMessages } from '../helpers/announcements.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { eventually } from '../helpers/events.js';
import { httpClient } from '../helpers/http-client.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';
import { startSmtpReceiver } from '../helpers/smtp-receiver.js';

async function jobStatuses(databaseUrl: string): Promise<string[]> {
  const database = createDatabase(databaseUrl);
  try {
    const rows = await database.db.selectFrom('announcement_jobs').select(['kind', 'status']).orderBy('kind').execute();
    return rows.map((row) => `${row.kind} ${row.status}`);
  } finally {
    await database.close();
  }
}

for (const dialect of DIALECTS) {
  describe(`release announcements through a kill -9 [${dialect}]`, () => {
    it('ends with exactly 2 emails when the server dies between the system messages and the emails', async (t) => {
      const smtp = await startSmtpReceiver();
      const databaseUrl = await freshDatabaseUrl(dialect);
      // An email's lease is the SMTP timeout + 5 s: the restarted server sends it again 6 s after the claim.
      const env = {
        LOOPDESK_WEBHOOK_POLL_MS: '50', LOOPDESK_SMTP_TIMEOUT_MS: '1000', LOOPDESK_SMTP_URL: smtp.url, LOOPDESK_MAIL_FROM: 'support@acme.test',
      };
      let second: RunningServer | undefined;
      const first = await startServer({ databaseUrl, firstStart: true, env });
      t.after(async () => {
        first.kill('SIGKILL');
        second?.kill('SIGKILL');
        await smtp.close();
      });
      const key = first.bootstrapKey()!;
      const firstApi = httpClient(first.baseUrl, key);
      const scenario = await buildScenario(firstApi, 'Crash');

      smtp.answer(() => ({ hold: true }));
      await publishScenario(firstApi, scenario);
      await announcedIn(firstApi, scenario.conversations);
      await smtp.waitUntil(() => smtp.held === 2, 'both emails waiting for the answer to DATA');
      first.kill('SIGKILL');
      assert.equal((await first.process.exited).signal, 'SIGKILL');
      assert.deepEqual(await jobStatuses(databaseUrl), ['email pending', 'email pending', ...Array(4).fill('message done')]);

      smtp.answer(() => ({ accept: true }));
      second = await startServer({ databaseUrl, env });
      const api = httpClient(second.baseUrl, key);
      await eventually(() => jobStatuses(databaseUrl), (statuses) => statuses.every((status) => status.endsWith('done')), 'every job done', 30_000);
      const messages = await Promise.all(scenario.conversations.map((id) => systemMessages(api, id)));
      assert.deepEqual(messages.map((list) => list.length), [1, 1, 1, 1], 'the system messages were not posted again');
      await second.process.stop();

      const emails = mailTo(smtp.accepted, scenario.ada).length + mailTo(smtp.accepted, scenario.bob).length;
      assert.equal(smtp.accepted.length, 2, 'exactly 2 emails accepted');
      assert.equal(emails, 2, 'one to Ada, one to Bob');
      t.diagnostic(
        `announcements kill -9 [${dialect}]: ${smtp.attempts.length} messages reached DATA (${smtp.held} held at the kill, never answered); ` +
          `${smtp.accepted.length} emails accepted after the restart, 0 duplicates`,
      );
    });
  });
}
