// Release announcements (docs/events.md) by a real server process, mailing a real SMTP server in
// the test process: on publish, one system message per linked conversation and one email per
// contact with an address; a draft announces when it is dated; republishing and retitling
// announce nothing again; a refused email is retried; without SMTP only the messages; another
// workspace's conversations and contacts are never announced to.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { createServices } from '../../src/services.js';
import { announcedIn, buildScenario, expectedMessages, mailTo, publishScenario, systemMessages, type Scenario } from '../helpers/announcements.js';
import { DIALECTS, freshDatabaseUrl } from '../helpers/databases.js';
import { createIssue, createProduct, createRelease, importConversation, linkConversation } from '../helpers/factories.js';
import type { Client } from '../helpers/harness.js';
import { httpClient } from '../helpers/http-client.js';
import { startServer, type RunningServer } from '../helpers/server-process.js';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver.js';

const FROM = 'Acme Support <support@acme.test>';
const FAST = { LOOPDESK_WEBHOOK_POLL_MS: '50', LOOPDESK_WEBHOOK_RETRY_SCHEDULE_MS: '50,100', LOOPDESK_SMTP_TIMEOUT_MS: '2000' };

/** A workspace of the server's database besides the first-start one, and a client of its key. */
async function otherWorkspace(databaseUrl: string, server: RunningServer): Promise<Client> {
  const database = createDatabase(databaseUrl);
  try {
    const { admin } = createServices(database);
    const workspace = await admin.createWorkspace('Other');
    const owner = await admin.createMember({ workspaceId: workspace.id, name: 'Other Owner', role: 'owner', email: 'owner@other.test' });
    return httpClient(server.baseUrl, (await admin.createKey({ workspaceId: workspace.id, memberId: owner.id })).key);
  } finally {
    await database.close();
  }
}

/** A conversation of its own product with one issue, and a published release of that issue: a marker the dispatcher reaches after what was written before it. */
async function publishMarker(api: Client, tag: string, email: string): Promise<string> {
  const product = await createProduct(api, { name: `Marker ${tag}` });
  const issue = await createIssue(api, product.id, { title: `Marker ${tag}` });
  const conversation = await importConversation(api, product.id, { contact: { email } });
  await linkConversation(api, issue.id, conversation.id);
  await createRelease(api, product.id, { title: 'Marker', issue_ids: [issue.id] });
  await announcedIn(api, [conversation.id]);
  return conversation.id;
}

const dated = (release: any) => release.released_at !== null;

for (const dialect of DIALECTS) {
  describe(`release announcements [${dialect}]`, () => {
    let smtp: SmtpReceiver;
    let server: RunningServer;
    let api: Client;
    let databaseUrl: string;
    let scenario: Scenario;
    let release: any;

    before(async () => {
      smtp = await startSmtpReceiver();
      databaseUrl = await freshDatabaseUrl(dialect);
      server = await startServer({ databaseUrl, firstStart: true, env: { ...FAST, LOOPDESK_SMTP_URL: smtp.url, LOOPDESK_MAIL_FROM: FROM } });
      api = httpClient(server.baseUrl, server.bootstrapKey()!);
    });
    after(async () => {
      server?.kill('SIGKILL');
      await smtp?.close();
    });

    it('posts one system message per linked conversation and mails each contact with an email once', async () => {
      scenario = await buildScenario(api, 'Mobile');
      release = await publishScenario(api, scenario);
      const messages = await announcedIn(api, scenario.conversations);
      assert.deepEqual(messages.map((list) => list.map((message) => message.body)), expectedMessages(scenario).map((text) => [text]));
      for (const [message] of messages) {
        assert.equal(message.sender_id, release.id);
        assert.equal(message.sender_name, 'Acme Mobile App');
      }
      assert.deepEqual(await systemMessages(api, scenario.unannounced), [], 'a conversation linked to none of its issues');

      await smtp.waitUntil(() => mailTo(smtp.accepted, scenario.ada).length + mailTo(smtp.accepted, scenario.bob).length === 2, '2 emails');
      const [ada] = mailTo(smtp.accepted, scenario.ada);
      const [bob] = mailTo(smtp.accepted, scenario.bob);
      assert.deepEqual(ada.mail.to && !Array.isArray(ada.mail.to) && ada.mail.to.value, [{ name: 'Ada Lovelace', address: scenario.ada }]);
      assert.deepEqual(ada.mail.from?.value, [{ name: 'Acme Support', address: 'support@acme.test' }]);
      for (const { mail } of [ada, bob]) assert.equal(mail.subject, 'Shipped in Acme Mobile App 2.4.0');
      assert.equal(
        ada.mail.text,
        'Hello Ada Lovelace,\n\nGood news: what you asked us about has shipped in Acme Mobile App 2.4.0 — November fixes:\n\n' +
          '- Export crashes\n- Sync is slow\n\nThank you for telling us.\n',
      );
      assert.match(bob.mail.text ?? '', /^- Export crashes\n- Dark mode <beta> & more$/m, "Bob's two issues, in the release's order");
      assert.match(String(bob.mail.html), /<li>Export crashes<\/li><li>Dark mode &lt;beta&gt; &amp; more<\/li>/, 'the HTML part escapes titles');

      for (const id of scenario.conversations) {
        assert.equal((await api.get(`/api/v1/conversations/${id}`)).body.data.status, 'open', 'statuses do not change');
      }
    });

    it('[ext] never mails or announces the team\'s internal notes', async () => {
      const noted = await buildScenario(api, 'Notes');
      const note = 'Internal: Ada threatened to churn, handle with care';
      for (const id of noted.conversations) assert.equal((await api.post(`/api/v1/conversations/${id}/notes`, { body: note })).status, 201);
      await publishScenario(api, noted);
      const messages = await announcedIn(api, noted.conversations);
      assert.deepEqual(messages.map((list) => list.map((message) => message.body)), expectedMessages(noted).map((text) => [text]));
      await smtp.waitUntil(() => mailTo(smtp.accepted, noted.ada).length + mailTo(smtp.accepted, noted.bob).length === 2, '2 emails');
      for (const { mail } of [...mailTo(smtp.accepted, noted.ada), ...mailTo(smtp.accepted, noted.bob)]) {
        assert.ok(![mail.subject, mail.text, mail.html].some((part) => String(part ?? '').includes('Internal')), String(mail.text));
      }
    });

    it('announces nothing again when the release is retitled or republished', async () => {
      assert.equal((await api.patch(`/api/v1/releases/${release.id}`, { title: 'November fixes, retitled' })).status, 200);
      assert.equal((await api.patch(`/api/v1/releases/${release.id}`, { released_at: null })).status, 200);
      const republished = await api.patch(`/api/v1/releases/${release.id}`, { released_at: new Date().toISOString() });
      assert.ok(dated(republished.body.data), republished.text);
      await publishMarker(api, 'republish', 'marker-republish@example.com');
      await smtp.waitUntil(() => mailTo(smtp.accepted, 'marker-republish@example.com').length === 1, 'the marker mailed');

      const messages = await Promise.all(scenario.conversations.map((id) => systemMessages(api, id)));
      assert.deepEqual(messages.map((list) => list.length), [1, 1, 1, 1]);
      assert.equal(mailTo(smtp.accepted, scenario.ada).length + mailTo(smtp.accepted, scenario.bob).length, 2);
    });

    it('announces a draft when PATCH gives it a date, not before', async () => {
      const draftScenario = await buildScenario(api, 'Draft');
      const draft = await publishScenario(api, draftScenario, { released_at: null });
      await publishMarker(api, 'draft', 'marker-draft@example.com');
      const before = await Promise.all(draftScenario.conversations.map((id) => systemMessages(api, id)));
      assert.deepEqual(before.map((list) => list.length), [0, 0, 0, 0], 'a draft announces nothing');
      assert.equal(mailTo(smtp.accepted, draftScenario.ada).length, 0);

      assert.equal((await api.patch(`/api/v1/releases/${draft.id}`, { released_at: new Date().toISOString() })).status, 200);
      const messages = await announcedIn(api, draftScenario.conversations);
      assert.deepEqual(messages.map((list) => list.map((message) => message.body)), expectedMessages(draftScenario).map((text) => [text]));
      await smtp.waitUntil(() => mailTo(smtp.accepted, draftScenario.ada).length + mailTo(smtp.accepted, draftScenario.bob).length === 2, '2 emails');
    });

    it('retries an email the SMTP server refuses (451) and sends it once it accepts', async () => {
      const address = 'retry@example.com';
      smtp.answer((received, attempt) => (received.recipients.includes(address) && attempt === 1 ? { refuse: 451 } : { accept: true }));
      await publishMarker(api, 'retry', address);
      await smtp.waitUntil(() => mailTo(smtp.accepted, address).length === 1, 'the retry accepted');
      assert.equal(smtp.attempts.filter((received) => received.recipients.includes(address)).length, 2, 'refused once, accepted once');
      smtp.answer(() => ({ accept: true }));
    });

    it("never announces to another workspace's conversations and contacts", async () => {
      const other = await otherWorkspace(databaseUrl, server);
      const otherScenario = await buildScenario(other, 'Mobile');
      const ours = await buildScenario(api, 'Isolation');
      await publishScenario(api, ours);
      await announcedIn(api, ours.conversations);
      await smtp.waitUntil(() => mailTo(smtp.accepted, ours.ada).length === 1 && mailTo(smtp.accepted, ours.bob).length === 1, 'our 2 emails');
      await publishMarker(api, 'isolation', 'marker-isolation@example.com');
      const theirs = await Promise.all([...otherScenario.conversations, otherScenario.unannounced].map((id) => systemMessages(other, id)));
      assert.deepEqual(theirs.map((list) => list.length), [0, 0, 0, 0, 0]);
      // The other workspace's contacts share the first scenario's addresses: still only the first release's emails.
      assert.equal(mailTo(smtp.accepted, otherScenario.ada).length, 1);
    });
  });

  describe(`release announcements without SMTP [${dialect}]`, () => {
    let server: RunningServer;
    after(() => server?.kill('SIGKILL'));

    it('posts the system messages and creates no email', async () => {
      const databaseUrl = await freshDatabaseUrl(dialect);
      server = await startServer({ databaseUrl, firstStart: true, env: FAST });
      const api = httpClient(server.baseUrl, server.bootstrapKey()!);
      const scenario = await buildScenario(api, 'Unmailed');
      await publishScenario(api, scenario);
      const messages = await announcedIn(api, scenario.conversations);
      assert.deepEqual(messages.map((list) => list.map((message) => message.body)), expectedMessages(scenario).map((text) => [text]));
      const database = createDatabase(databaseUrl);
      try {
        const jobs = await database.db.selectFrom('announcement_jobs').select(['kind', 'status']).execute();
        assert.deepEqual(jobs.map((job) => `${job.kind} ${job.status}`), Array(4).fill('message done'));
      } finally {
        await database.close();
      }
    });
  });
}
