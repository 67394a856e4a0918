// Triage by itself (docs/triage.md, "When it runs"): the contact's first message asks for a triage
// job in its transaction; the job runner (the server's dispatcher) runs it after the summary, once
// per conversation, within 10 s of the message. A short chat's summary and draft say what is broken,
// not the chat's greeting again (docs/triage.md, "Summaries").
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { eventually } from '../helpers/events.js';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { CSV_ISSUE, CSV_REPEAT, conversationFrom, UNRELATED } from '../helpers/triage.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const WITHIN_MS = 10_000;

const suggestionsOf = async (api: Client, conversationId: string): Promise<any[]> =>
  (await api.get(`/api/v1/conversations/${conversationId}/suggestions`)).body.data;

/** The conversation's suggestions once it has one whose status is `status`, and how long that took. */
async function suggested(api: Client, conversationId: string, status = 'open'): Promise<{ suggestions: any[]; ms: number }> {
  const started = performance.now();
  const suggestions = await eventually(() => suggestionsOf(api, conversationId), (list) => list.some((s) => s.status === status), `a suggestion ${status}`);
  return { suggestions, ms: performance.now() - started };
}

/** The conversation's summary and triage jobs (its search fold is the search tests' business). */
const jobsLeft = async (ctx: TestContext, conversationId: string) =>
  (await ctx.database.db.selectFrom('conversation_jobs').select('kind').where('conversation_id', '=', conversationId)
    .where('kind', 'in', ['summary', 'triage']).execute()).map((job) => job.kind);

/** Waits until the conversation has no job left: every run it asked for is done. */
const settled = (ctx: TestContext, conversationId: string) => eventually(() => jobsLeft(ctx, conversationId), (kinds) => kinds.length === 0, 'no job left');

describeEachDialect('triage after the contact\'s first message', (ctx) => {
  before(() => ctx().services.webhookDispatcher.start());

  it('suggests linking a widget chat that repeats an open issue, within 10 s, and only once however often the visitor writes', async () => {
    const { api } = ctx().a;
    const product = await widgetProduct(ctx());
    const csv = await createIssue(api, product.id, CSV_ISSUE);
    const session = await startSession(ctx(), product.widget_key, { name: 'Ada' });
    const ada = visitor(ctx(), session.token);
    const chat = await ada.post(widgetPath(product.widget_key, '/conversations'), { title: CSV_REPEAT.title, body: CSV_REPEAT.body });
    assert.equal(chat.status, 201, chat.text);
    const { suggestions, ms } = await suggested(api, chat.body.data.id);
    assert.ok(ms < WITHIN_MS, `${ms} ms`);
    assert.deepEqual(suggestions.map((s) => [s.kind, s.issue?.id]), [['link', csv.id]]);
    const more = await ada.post(widgetPath(product.widget_key, `/conversations/${chat.body.data.id}/messages`), { body: 'Still crashing today.' });
    assert.equal(more.status, 201, more.text);
    assert.deepEqual(await jobsLeft(ctx(), chat.body.data.id), ['summary'], 'a later message asks for a summary, not for triage');
    await settled(ctx(), chat.body.data.id);
    assert.equal((await suggestionsOf(api, chat.body.data.id)).length, 1);
  });

  it('drafts an issue described by the conversation\'s summary', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const conversation = await conversationFrom(api, product.id, UNRELATED);
    const { suggestions } = await suggested(api, conversation.id);
    const summary = (await api.get(`/api/v1/conversations/${conversation.id}`)).body.data.ai_summary;
    assert.ok(summary, 'summarized before triage');
    assert.deepEqual(suggestions.map((s) => [s.kind, s.title, s.description]), [['create', UNRELATED.title, summary]]);
  });

  it('summarizes a short widget chat without its greeting and thanks, and drafts an issue titled by what is broken', async () => {
    const { api } = ctx().a;
    const product = await widgetProduct(ctx());
    const session = await startSession(ctx(), product.widget_key, { name: 'Ada' });
    const body = "Hi, since this morning I can't log in with Google. I get a 403 error and the whole team is locked out. Thanks!";
    const chat = await visitor(ctx(), session.token).post(widgetPath(product.widget_key, '/conversations'), { body });
    assert.equal(chat.status, 201, chat.text);
    assert.ok(body.startsWith(chat.body.data.title), 'a widget chat is titled by its first line, cut to 80 characters');
    const { suggestions } = await suggested(api, chat.body.data.id);
    const summary = (await api.get(`/api/v1/conversations/${chat.body.data.id}`)).body.data.ai_summary;
    assert.equal(summary, "Since this morning I can't log in with Google. I get a 403 error and the whole team is locked out.");
    const [draft] = suggestions;
    assert.equal(draft.kind, 'create');
    assert.equal(draft.title, 'I get a 403 error and the whole team is locked out');
    assert.ok(draft.title.length <= 80);
    assert.equal(draft.description, summary);
  });

  it('accepts at once when the product\'s triage is auto: the issue is made, AI-generated, and linked', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api, { triage: 'auto' });
    const conversation = await conversationFrom(api, product.id, UNRELATED);
    const { suggestions, ms } = await suggested(api, conversation.id, 'accepted');
    assert.ok(ms < WITHIN_MS, `${ms} ms`);
    const issue = (await api.get(`/api/v1/issues/${suggestions[0].issue.id}`)).body.data;
    assert.equal(issue.is_ai_generated, true);
    assert.deepEqual(issue.linked_conversations.map((c: any) => c.id), [conversation.id]);
  });

  it('suggests nothing when the product\'s triage is off, and its job ends all the same', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api, { triage: 'off' });
    const conversation = await conversationFrom(api, product.id, UNRELATED);
    await settled(ctx(), conversation.id);
    assert.deepEqual(await suggestionsOf(api, conversation.id), []);
  });

  it('is not asked for by an import without a message, nor by an agent\'s reply', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const conversation = await importConversation(api, product.id, { title: 'A call we took' });
    const reply = await api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'We called you back.' });
    assert.equal(reply.status, 201, reply.text);
    assert.deepEqual(await jobsLeft(ctx(), conversation.id), []);
  });
}, { webhooks: { pollIntervalMs: 20 }, summaries: { debounceMs: 100, llm: null } });
