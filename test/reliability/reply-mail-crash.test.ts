// An agent's reply by mail through a kill -9 (docs/email.md, "Replies by mail"): the server dies
// while the SMTP server holds its answer to the reply's DATA; after the restart the reply is sent
// again once its lease runs out, with the same Message-ID, and ends `sent` with exactly one mail
// accepted. The reply itself is never posted twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { INBOUND_DOMAIN, mailSample } from '../helpers/email.js';
import { eventually } from '../helpers/events.js';
import { httpClient } from '../helpers/http-client.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';
import { startSmtpReceiver } from '../helpers/smtp-receiver.js';

async function replyJobStatuses(databaseUrl: string): Promise<string[]> {
  const database = createDatabase(databaseUrl);
  try {
    return (await database.db.selectFrom('email_jobs').select('status').where('kind', '=', 'reply').execute()).map((row) => row.status);
  } finally {
    await database.close();
  }
}

for (const dialect of DIALECTS) {
  describe(`a reply by mail through a kill -9 [${dialect}]`, () => {
    it('is mailed exactly once, with the same Message-ID, when the server dies waiting for the SMTP server', async (t) => {
      const smtp = await startSmtpReceiver();
      const databaseUrl = await freshDatabaseUrl(dialect);
      // A reply's lease is the SMTP timeout + 5 s: the restarted server sends it again 6 s after the claim.
      const env = {
        LOOPDESK_WEBHOOK_POLL_MS: '50', LOOPDESK_SMTP_TIMEOUT_MS: '1000', LOOPDESK_SMTP_URL: smtp.url,
        LOOPDESK_MAIL_FROM: 'Acme Support <support@acme.test>', LOOPDESK_INBOUND_DOMAIN: INBOUND_DOMAIN,
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
      const product = (await firstApi.post('/api/v1/products', { name: 'Acme' })).body.data;
      const inbound = await fetch(`${first.baseUrl}/api/v1/inbound/email?product_id=${product.id}`, {
        method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'message/rfc822' }, body: new Uint8Array(mailSample('multipart-alternative')),
      });
      assert.equal(inbound.status, 202, await inbound.clone().text());
      const conversationId = (await inbound.json()).data.conversation_id;

      smtp.answer(() => ({ hold: true }));
      const reply = (await firstApi.post(`/api/v1/conversations/${conversationId}/messages`, { body: 'Could you try clearing your cache?' })).body.data;
      await smtp.waitUntil(() => smtp.held === 1, 'the reply waiting for the answer to DATA');
      first.kill('SIGKILL');
      assert.equal((await first.process.exited).signal, 'SIGKILL');
      assert.deepEqual(await replyJobStatuses(databaseUrl), ['pending']);

      smtp.answer(() => ({ accept: true }));
      second = await startServer({ databaseUrl, env });
      const api = httpClient(second.baseUrl, key);
      await eventually(() => replyJobStatuses(databaseUrl), (statuses) => statuses.every((status) => status === 'done'), 'the reply job done', 30_000);
      const messages = (await api.get(`/api/v1/conversations/${conversationId}`)).body.data.messages;
      assert.deepEqual(messages.map((message: { sender_type: string }) => message.sender_type), ['contact', 'agent'], 'the reply was not posted again');
      assert.deepEqual(messages[1].delivery, { status: 'sent', error: null });
      await second.process.stop();

      assert.equal(smtp.accepted.length, 1, 'exactly one mail accepted');
      const messageIds = smtp.attempts.map((attempt) => attempt.mail.messageId);
      assert.deepEqual([...new Set(messageIds)], [`<${reply.id}@acme.test>`], 'every attempt carries the reply\'s own Message-ID');
      t.diagnostic(
        `reply kill -9 [${dialect}]: ${smtp.attempts.length} attempts reached DATA (${smtp.held} held at the kill, never answered); ` +
          `${smtp.accepted.length} accepted after the restart, 0 duplicates`,
      );
    });
  });
}
