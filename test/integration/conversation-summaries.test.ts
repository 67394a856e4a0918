// Conversation summaries (docs/triage.md) through the API and the widget: every conversation with
// a contact message gets an ai_summary within 10 s of its latest contact message, refreshed once
// after a burst of them (the debounce), never for an agent's reply; each change is one
// conversation.updated with previous.ai_summary; the jobs survive a restart and a dead process's
// lease; a chat model writes the summary when configured and the extractive summarizer takes over
// when it fails; a run that fails leaves the summary as it was.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SUMMARY_DEFAULTS, WEBHOOK_DEFAULTS } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { conversationJobRepository } from '../../src/db/repositories/conversation-job.repository.js';
import { createConversationJobQueue } from '../../src/domain/conversations/conversation-jobs.js';
import { createConversationSummaries } from '../../src/domain/conversations/conversation-summary.service.js';
import { createConversationWrites } from '../../src/domain/conversations/conversation.writes.js';
import { createConversationJobRunner, JOB_RETRY_SCHEDULE_MS } from '../../src/events/conversation-job-runner.js';
import { conversationRepository } from '../../src/db/repositories/conversation.repository.js';
import { attachmentRepository } from '../../src/db/repositories/attachment.repository.js';
import { emailJobRepository } from '../../src/db/repositories/email-job.repository.js';
import { issueRepository } from '../../src/db/repositories/issue.repository.js';
import { messageRepository } from '../../src/db/repositories/message.repository.js';
import { memberRepository } from '../../src/db/repositories/member.repository.js';
import { createServices } from '../../src/services.js';
import { completion, serverError, startChatCompletionsServer, summaryCompletion, type ChatCompletionsServer } from '../helpers/chat-completions-server.js';
import { DIALECTS } from '../helpers/databases.js';
import { eventually } from '../helpers/events.js';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { createTestContext, describeEachDialect, TEST_SCRYPT, type Client, type TestContext } from '../helpers/harness.js';
import { calendarRepository } from '../../src/db/repositories/service-levels/calendar.repository.js';
import { slaClockRepository } from '../../src/db/repositories/service-levels/sla-clock.repository.js';
import { slaPolicyRepository } from '../../src/db/repositories/service-levels/sla-policy.repository.js';
import { createClockMeasures } from '../../src/domain/service-levels/clock-values.js';
import { createSlaClocks } from '../../src/domain/service-levels/sla-clocks.js';
import { manualClock } from '../helpers/manual-clock.js';
import { webhookPayloadChecker } from '../helpers/openapi-check.js';
import { solvedAltcha, startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const REPORT = 'Hello! Since this morning the mobile app crashes when I open the camera. The camera crash happens on Android 14 and on iOS 17. Thanks!';
const REPORT_SUMMARY = 'Since this morning the mobile app crashes when I open the camera. The camera crash happens on Android 14 and on iOS 17.';
const FAST = { webhooks: { pollIntervalMs: 20 } };

const summaryOf = async (api: Client, id: string): Promise<string | null> => (await api.get(`/api/v1/conversations/${id}`)).body.data.ai_summary;

/** The conversation's summary once `done` holds for it (by default: once it has one). */
const summarized = (api: Client, id: string, done: (summary: string | null) => boolean = (summary) => summary !== null) =>
  eventually(() => summaryOf(api, id), done, 'summarized');

/** The conversation.updated payloads of a conversation that changed its summary, oldest first. */
async function summaryEvents(ctx: Pick<TestContext, 'database'>, conversationId: string): Promise<any[]> {
  const rows = await ctx.database.db.selectFrom('events').select('payload').where('type', '=', 'conversation.updated').orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => JSON.parse(row.payload)).filter((payload) => payload.data.id === conversationId && 'ai_summary' in payload.data.previous);
}

/** The conversation's summary job, when there is one (its triage job is triage's tests' business). */
const jobsOf = (ctx: Pick<TestContext, 'database'>, conversationId: string) =>
  ctx.database.db.selectFrom('conversation_jobs').selectAll().where('conversation_id', '=', conversationId).where('kind', '=', 'summary').execute();

/** A visitor of a new widget product: its key and a client posting under /widget/v1/{key}. */
async function widgetVisitor(ctx: TestContext) {
  const product = await widgetProduct(ctx);
  const session = await startSession(ctx, product.widget_key, { name: 'Ada' });
  const client = visitor(ctx, session.token);
  return { product, post: (path: string, body: unknown) => client.post(widgetPath(product.widget_key, path), body), get: (path: string) => client.get(widgetPath(product.widget_key, path)) };
}

describeEachDialect('conversation summaries', (ctx) => {
  before(() => ctx().services.webhookDispatcher.start());

  it('summarizes a widget chat within 10 s of the contact\'s message, in the contact\'s own words, never shown to the visitor', async () => {
    const ada = await widgetVisitor(ctx());
    const started = performance.now();
    const res = await ada.post('/conversations', { body: REPORT });
    assert.equal(res.status, 201);
    assert.equal(await summarized(ctx().a.api, res.body.data.id), REPORT_SUMMARY);
    const latencyMs = performance.now() - started;
    assert.ok(latencyMs < 10_000, `${latencyMs} ms`);
    assert.ok(!('ai_summary' in (await ada.get(`/conversations/${res.body.data.id}`)).body.data));
    assert.deepEqual(await jobsOf(ctx(), res.body.data.id), [], 'a finished job leaves no row');
  });

  it('summarizes a form\'s conversation and an import with a first message; an import without one has nothing to summarize', async () => {
    const { api } = ctx().a;
    const product = await widgetProduct(ctx(), { proof_of_work: true });
    const form = await ctx().client(null).post(widgetPath(product.widget_key, '/forms'), {
      title: 'Invoices', body: 'Our invoices show the wrong VAT rate. The VAT rate on invoices is 19% instead of 7%.', altcha: await solvedAltcha(ctx(), product.widget_key),
    });
    assert.equal(form.status, 201, form.text);
    const imported = await importConversation(api, product.id, { body: 'Exports time out for large reports.', contact: { email: 'bo@example.com' } });
    const empty = await importConversation(api, product.id);
    // A short message is never given back whole: its least telling sentence without numbers goes.
    assert.equal(await summarized(api, form.body.data.id), 'The VAT rate on invoices is 19% instead of 7%.');
    assert.equal(await summarized(api, imported.id), 'Exports time out for large reports.');
    assert.deepEqual(await jobsOf(ctx(), empty.id), []);
    assert.equal(await summaryOf(api, empty.id), null);
  });

  it('prefers the sentences about what the product\'s open issues are about', async () => {
    const { api } = ctx().a;
    const body = 'The dashboard looks different since Monday. The colors changed too. The calendar sync copies every meeting.';
    const calendar = await createProduct(api);
    await createIssue(api, calendar.id, { title: 'Calendar sync copies meetings twice' });
    const withIssue = await importConversation(api, calendar.id, { body });
    const withoutIssue = await importConversation(api, (await createProduct(api)).id, { body });
    assert.equal(await summarized(api, withIssue.id), 'The calendar sync copies every meeting.');
    assert.equal(await summarized(api, withoutIssue.id), 'The dashboard looks different since Monday.');
  });

  it('records one conversation.updated with previous.ai_summary, the conversation as GET shows it, as the OpenAPI document describes', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const conversation = await importConversation(api, product.id, { body: REPORT });
    await summarized(api, conversation.id);
    const [event] = await summaryEvents(ctx(), conversation.id);
    webhookPayloadChecker((await api.get('/api/v1/openapi.json')).body)(event);
    const { previous, ...data } = event.data;
    const now = (await api.get(`/api/v1/conversations/${conversation.id}`)).body.data;
    assert.deepEqual(data, now);
    assert.deepEqual(previous, { ai_summary: null, updated_at: conversation.updated_at });
    assert.ok(now.updated_at > conversation.updated_at, 'a new summary is an effective change');
  });

  it('keeps other workspaces apart: a summary is written to its own conversation only', async () => {
    const theirs = await importConversation(ctx().b.api, (await createProduct(ctx().b.api)).id, { body: 'The login page is blank.' });
    assert.equal(await summarized(ctx().b.api, theirs.id), 'The login page is blank.');
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${theirs.id}`)).status, 404);
  });
}, { ...FAST, summaries: { debounceMs: 100 } });

const clock = manualClock();
const DEBOUNCE_MS = 2_000;

describeEachDialect('summary debounce (the services\' clock)', (ctx) => {
  before(() => ctx().services.webhookDispatcher.start());

  it('refreshes once after three quick contact messages, from the summary before them', async () => {
    const ada = await widgetVisitor(ctx());
    const { id } = (await ada.post('/conversations', { body: 'The export button does nothing.' })).body.data;
    const [job] = await jobsOf(ctx(), id);
    assert.equal(Date.parse(job.next_attempt_at!) - Date.parse(clock.now()), DEBOUNCE_MS);
    clock.advance(DEBOUNCE_MS);
    const first = await summarized(ctx().a.api, id);
    assert.equal(first, 'The export button does nothing.');

    for (const body of ['The export button does nothing in Safari either.', 'Exporting to CSV from the export menu works.', 'Only the export button fails.']) {
      assert.equal((await ada.post(`/conversations/${id}/messages`, { body })).status, 201);
      clock.advance(DEBOUNCE_MS / 4);
    }
    assert.equal(await summaryOf(ctx().a.api, id), first, 'not before the debounce has passed since the last message');
    clock.advance(DEBOUNCE_MS);
    const refreshed = await summarized(ctx().a.api, id, (summary) => summary !== first);
    assert.match(refreshed!, /Only the export button fails\./);
    assert.deepEqual(await jobsOf(ctx(), id), [], 'nothing left to run: no later event can come');
    const events = await summaryEvents(ctx(), id);
    assert.deepEqual(events.map((event) => [event.data.previous.ai_summary, event.data.ai_summary]), [[null, first], [first, refreshed]]);
  });

  it('asks for nothing on an agent\'s reply', async () => {
    const { api } = ctx().a;
    const conversation = await importConversation(api, (await createProduct(api)).id, { body: 'Refunds take two weeks.' });
    clock.advance(DEBOUNCE_MS);
    await summarized(api, conversation.id);
    assert.equal((await api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'We are looking into the refunds.' })).status, 201);
    assert.deepEqual(await jobsOf(ctx(), conversation.id), []);
    assert.equal((await summaryEvents(ctx(), conversation.id)).length, 1);
  });
}, { ...FAST, clock, summaries: { debounceMs: DEBOUNCE_MS } });

/** Another server process on the context's database, as main.ts builds it: services (with the test clock) whose dispatcher runs. */
function anotherProcess(ctx: TestContext, overrides: Parameters<typeof createServices>[1] = {}) {
  const database = createDatabase(ctx.databaseUrl);
  const services = createServices(database, {
    clock, webhooks: { ...WEBHOOK_DEFAULTS, pollIntervalMs: 20 }, passwordHashing: TEST_SCRYPT, summaries: { ...SUMMARY_DEFAULTS, debounceMs: DEBOUNCE_MS }, ...overrides,
  });
  services.webhookDispatcher.start();
  return {
    services,
    async stop() {
      await services.webhookDispatcher.stop(0);
      await database.close();
    },
  };
}

describeEachDialect('summary jobs across processes', (ctx) => {
  it('survives a restart: a job left in the table is run by the next process', async () => {
    const { api } = ctx().a;
    const conversation = await importConversation(api, (await createProduct(api)).id, { body: 'Push notifications arrive twice.' });
    assert.equal((await jobsOf(ctx(), conversation.id)).length, 1, 'asked for in the message\'s transaction');
    clock.advance(DEBOUNCE_MS);
    const next = anotherProcess(ctx());
    try {
      assert.equal(await summarized(api, conversation.id), 'Push notifications arrive twice.');
    } finally {
      await next.stop();
    }
  });

  it('runs a job claimed by a process that died once its lease runs out', async () => {
    const { api } = ctx().a;
    const conversation = await importConversation(api, (await createProduct(api)).id, { body: 'Dark mode resets after login.' });
    clock.advance(DEBOUNCE_MS);
    const leaseMs = 30_000;
    const jobs = conversationJobRepository(ctx().database.db, ctx().database.dialect);
    const [claimed] = await ctx().database.db.transaction().execute((tx) =>
      jobs.claimDue('summary', clock.now(), new Date(Date.parse(clock.now()) + leaseMs).toISOString(), 10, tx));
    assert.equal(claimed.conversation_id, conversation.id);
    const next = anotherProcess(ctx());
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(await summaryOf(api, conversation.id), null, 'not while the lease holds');
      clock.advance(leaseMs);
      assert.equal(await summarized(api, conversation.id), 'Dark mode resets after login.');
    } finally {
      await next.stop();
    }
  });

  it('summarizes each conversation once when two processes share the database', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await importConversation(api, product.id, { body: `Sync number ${i} fails on the sync page.` })).id);
    const processes = [anotherProcess(ctx()), anotherProcess(ctx())];
    try {
      clock.advance(DEBOUNCE_MS);
      for (const id of ids) await summarized(api, id);
      await Promise.all(processes.map((process) => process.services.webhookDispatcher.stop(5_000)));
      for (const id of ids) assert.equal((await summaryEvents(ctx(), id)).length, 1, id);
    } finally {
      await Promise.all(processes.map((process) => process.stop()));
    }
  });

  it('leaves the summary as it was when a run fails, and retries it later', async () => {
    const { api } = ctx().a;
    const conversation = await importConversation(api, (await createProduct(api)).id, { body: 'Search ignores accents.' });
    const { db, dialect } = ctx().database;
    const jobs = conversationJobRepository(db, dialect);
    const conversations = conversationRepository(db);
    const messages = messageRepository(db);
    const failing = createConversationJobRunner({
      db, jobs, clock, onError: (error) => assert.fail(String(error)), random: () => 0,
      handlers: {
        summary: {
          leaseMs: 30_000,
          run: createConversationSummaries({
            db, clock, conversations, messages, issues: issueRepository(db),
            jobs: createConversationJobQueue({ dialect, clock, jobs, delays: { summary: DEBOUNCE_MS, triage: 0, search: 0 } }),
            writes: createConversationWrites({
              conversations, messages, attachments: attachmentRepository(db), emailJobs: emailJobRepository(db, dialect), outbox: ctx().services.outbox,
              jobs: { request: async () => {}, requestAt: async () => {} }, tags: { retag: async () => {} }, contacts: { seen: async () => {} }, members: memberRepository(db), dialect, clock,
              notify: { assigned: async () => {}, messageAdded: async () => {} },
              assignment: { forNew: async () => 'none', wait: async () => {}, unwait: async () => {} }, onFreed: () => {},
              serviceLevels: createSlaClocks({
                slaClocks: slaClockRepository(db), slaPolicies: slaPolicyRepository(db), calendars: calendarRepository(db),
                measures: createClockMeasures({ slaPolicies: slaPolicyRepository(db), calendars: calendarRepository(db), defaultCalendar: null }),
              }),
            }),
            summarizer: { summarize: async () => Promise.reject(new Error('summarizer down')) },
          }).run,
        },
        // Earlier tests' triage, fold and wake jobs may be due on this clock: claimed and left to their lease.
        triage: { leaseMs: 30_000, run: async () => {} },
        search: { leaseMs: 30_000, run: async () => {} },
        wake: { leaseMs: 30_000, run: async () => {} },
      },
    });
    clock.advance(DEBOUNCE_MS);
    await failing.run();
    await eventually(async () => (await jobsOf(ctx(), conversation.id))[0], (job) => job.attempts === 1, 'failed once');
    const [job] = await jobsOf(ctx(), conversation.id);
    assert.deepEqual([job.status, job.last_error, Date.parse(job.next_attempt_at!) - Date.parse(clock.now())], ['pending', 'summarizer down', JOB_RETRY_SCHEDULE_MS[0]]);
    assert.equal(await summaryOf(api, conversation.id), null);
    assert.deepEqual(await summaryEvents(ctx(), conversation.id), []);
    await failing.stop(5_000);
  });
}, { clock, summaries: { debounceMs: DEBOUNCE_MS } });

for (const dialect of DIALECTS) {
  describe(`summaries by a chat model [${dialect}]`, () => {
    let llm: ChatCompletionsServer;
    let ctx: Awaited<ReturnType<typeof createTestContext>>;
    before(async () => {
      llm = await startChatCompletionsServer({ apiKey: 'sk-loopdesk-test' });
      ctx = await createTestContext(dialect, {
        ...FAST,
        summaries: { debounceMs: 50, llm: { baseUrl: llm.baseUrl, model: 'qwen2.5:7b-instruct', apiKey: 'sk-loopdesk-test', timeoutMs: 2_000 } },
      });
      ctx.services.webhookDispatcher.start();
    });
    after(async () => {
      await ctx?.close();
      await llm?.close();
    });

    it('writes the model\'s summary, asked with the contact\'s messages', async () => {
      llm.script(summaryCompletion('La app se cierra al abrir la cámara en Android 14.', 'La app se cierra al abrir la cámara'));
      const conversation = await importConversation(ctx.a.api, (await createProduct(ctx.a.api)).id, {
        title: 'Cámara', body: 'Hola. La app se cierra cuando abro la cámara. Uso Android 14.',
      });
      assert.equal(await summarized(ctx.a.api, conversation.id), 'La app se cierra al abrir la cámara en Android 14.');
      const [request] = llm.requests;
      assert.equal(request.body.model, 'qwen2.5:7b-instruct');
      assert.match(request.body.messages[1].content, /La app se cierra cuando abro la cámara/);
    });

    it('falls back to the extractive summary when the model answers malformed JSON or fails every time; the writes never notice', async () => {
      const { api } = ctx.a;
      // Triage off: its headline would ask the same model about the same text, and the count is the summary's.
      const product = await createProduct(api, { triage: 'off' });
      llm.script(completion('{"summary": "unfinished'));
      const malformed = await importConversation(api, product.id, { body: 'Hi. The invoice PDF is empty. The invoice PDF has no pages.' });
      assert.equal(await summarized(api, malformed.id), 'The invoice PDF is empty. The invoice PDF has no pages.');

      // Every answer a 500 that asks for no wait: three attempts, then the extractive summary.
      llm.otherwise(() => ({ ...serverError(), headers: { 'retry-after-ms': '1' } }));
      llm.reset();
      const failing = await importConversation(api, product.id, { body: 'Two-factor codes never arrive.' });
      assert.equal(await summarized(api, failing.id), 'Two-factor codes never arrive.');
      // Counted for this conversation only: the first one's summary may still be retried.
      assert.equal(llm.requests.filter((request) => JSON.stringify(request.body).includes('Two-factor codes')).length, 3);
      const reply = await ctx.a.api.post(`/api/v1/conversations/${failing.id}/messages`, { body: 'Thanks, checking.' });
      assert.equal(reply.status, 201);
    });
  });
}
