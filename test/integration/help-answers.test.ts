// Answers from the help center (docs/help-center.md, "Answers"): GET /widget/v1/{key}/answers and
// GET /api/v1/conversations/{id}/suggested-articles, by words (the lexical matcher) and by meaning
// (an embedding model), passages kept in step with the article write path, the chat model's
// grounded answer, and the visitors' events the self-service counts read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmbeddingDetector, type Embedder } from '../../src/dedup/embedding-detector.js';
import { memoryStore } from '../../src/dedup/eval/memory-store.js';
import { PASSAGE_MAX } from '../../src/domain/help-center/passages.js';
import { assertInvalid, assertNotFound } from '../helpers/answers.js';
import { completion, startChatCompletionsServer, type ChatCompletionsServer } from '../helpers/chat-completions-server.js';
import { DIALECTS } from '../helpers/databases.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { createTestContext, describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const PASSWORD = 'To reset your password, open Settings, then Security, and choose **Reset password**. We email you a link that works for one hour.';
const REFUND = 'Refunds go back to the card you paid with within five working days. Ask for one from the Billing page of your account.';

async function article(api: Client, productId: string, title: string, body: string, status = 'published'): Promise<any> {
  const res = await api.post('/api/v1/articles', { product_id: productId, title, body, status });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const ask = (ctx: TestContext, widgetKey: string, q: string, client: Client = ctx.client(null)) =>
  client.get(widgetPath(widgetKey, `/answers?q=${encodeURIComponent(q)}`));

/** The ids of the articles an answer lists, best first. */
const idsOf = (res: { status: number; body: any; text: string }): string[] => {
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((found: any) => found.article.id);
};

describeEachDialect('help center answers by words [ext]', (ctx) => {
  it('finds the published article whose passage answers the question, with its passage, excerpt and public URL; no answer text without a chat model', async () => {
    const product = await widgetProduct(ctx());
    const password = await article(ctx().a.api, product.id, 'Reset your password', PASSWORD);
    await article(ctx().a.api, product.id, 'Refunds', REFUND);
    await article(ctx().a.api, product.id, 'Reset your password (draft)', PASSWORD, 'draft');
    const res = await ask(ctx(), product.widget_key, 'How do I reset my password?');
    assert.deepEqual(idsOf(res), [password.id]);
    const [found] = res.body.data;
    assert.deepEqual(found.article, {
      id: password.id, title: 'Reset your password', slug: password.slug, excerpt: password.excerpt,
      url: `http://localhost:80/help/${product.help_slug}/articles/${password.slug}?locale=en`,
    });
    assert.equal(found.passage, 'To reset your password, open Settings, then Security, and choose Reset password. We email you a link that works for one hour.');
    assert.ok(found.score >= 0.4 && found.score <= 1, String(found.score));
    assert.equal(res.body.answer, null);
  });

  it('answers nothing when no passage clears the threshold', async () => {
    const product = await widgetProduct(ctx());
    await article(ctx().a.api, product.id, 'Reset your password', PASSWORD);
    assert.deepEqual((await ask(ctx(), product.widget_key, 'Do you ship parcels to Norway?')).body, { data: [], answer: null });
  });

  it('cuts long articles into passages of at most 400 characters and shows the one that matches', async () => {
    const product = await widgetProduct(ctx());
    const filler = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} talks about the dashboard layout and its widgets.`).join('\n\n');
    const long = await article(ctx().a.api, product.id, 'Everything about accounts', `${filler}\n\nTo delete your account, write to privacy@example.com from its address.`);
    const res = await ask(ctx(), product.widget_key, 'delete account privacy');
    assert.deepEqual(idsOf(res), [long.id]);
    assert.ok(res.body.data[0].passage.length <= PASSAGE_MAX);
    assert.match(res.body.data[0].passage, /To delete your account/);
  });

  it('keeps passages in step with edits, unpublishing, publishing and deleting', async () => {
    const product = await widgetProduct(ctx());
    const found = (q: string) => ask(ctx(), product.widget_key, q).then(idsOf);
    const item = await article(ctx().a.api, product.id, 'Exports', 'Export your invoices as CSV from the Billing page.');
    assert.deepEqual(await found('export invoices csv'), [item.id]);
    await ctx().a.api.patch(`/api/v1/articles/${item.id}`, { body: 'Download your receipts as PDF from the Documents page.' });
    assert.deepEqual(await found('export invoices csv'), []);
    assert.deepEqual(await found('download receipts pdf'), [item.id]);
    await ctx().a.api.patch(`/api/v1/articles/${item.id}`, { status: 'draft' });
    assert.deepEqual(await found('download receipts pdf'), []);
    await ctx().a.api.patch(`/api/v1/articles/${item.id}`, { status: 'published' });
    assert.deepEqual(await found('download receipts pdf'), [item.id]);
    assert.equal((await ctx().a.api.delete(`/api/v1/articles/${item.id}`)).status, 204);
    assert.deepEqual(await found('download receipts pdf'), []);
    const rows = await ctx().database.db.selectFrom('article_passages').select('article_id').where('article_id', '=', item.id).execute();
    assert.deepEqual(rows, []);
  });

  it('shows one article per translation group and at most five, best first', async () => {
    const product = await widgetProduct(ctx());
    const original = await article(ctx().a.api, product.id, 'Reset your password', PASSWORD);
    const res = await ctx().a.api.post('/api/v1/articles', { product_id: product.id, title: 'Reset your password', body: PASSWORD, locale: 'en-GB', translation_of: original.id, status: 'published' });
    assert.equal(res.status, 201, res.text);
    for (let i = 0; i < 6; i++) await article(ctx().a.api, product.id, `Password rules ${i}`, `A password needs ${8 + i} characters; reset it from Settings.`);
    const answer = await ask(ctx(), product.widget_key, 'reset password settings');
    assert.equal(answer.body.data.length, 5);
    assert.equal(answer.body.data.filter((f: any) => [original.id, res.body.data.id].includes(f.article.id)).length, 1);
    const scores = answer.body.data.map((f: any) => f.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  });

  it('validates q', async () => {
    const product = await widgetProduct(ctx());
    assertInvalid(await ctx().client(null).get(widgetPath(product.widget_key, '/answers')), 'q');
    assertInvalid(await ask(ctx(), product.widget_key, '   '), 'q');
    assertInvalid(await ask(ctx(), product.widget_key, 'x'.repeat(501)), 'q');
    assertInvalid(await ctx().client(null).get(widgetPath(product.widget_key, '/answers?q=a&extra=1')), 'extra');
  });

  it('answers 404 for an unknown widget key and a help center that is off, 403 for a disabled widget', async () => {
    assertNotFound(await ask(ctx(), 'wk_unknownunknownunknown00', 'password'));
    const off = await widgetProduct(ctx());
    await ctx().a.api.patch(`/api/v1/products/${off.id}`, { help_center: false });
    assertNotFound(await ask(ctx(), off.widget_key, 'password'));
    const disabled = await widgetProduct(ctx(), { enabled: false });
    assert.equal((await ask(ctx(), disabled.widget_key, 'password')).status, 403);
  });

  it('never shows another product\'s or another workspace\'s articles', async () => {
    const product = await widgetProduct(ctx());
    const sibling = await createProduct(ctx().a.api);
    await article(ctx().a.api, sibling.id, 'Reset your password', PASSWORD);
    const foreign = await createProduct(ctx().b.api);
    await article(ctx().b.api, foreign.id, 'Reset your password', PASSWORD);
    assert.deepEqual(idsOf(await ask(ctx(), product.widget_key, 'reset my password')), []);
  });

  it('suggests articles for a conversation from its title and its contact\'s latest message, to read-only keys too', async () => {
    const product = await createProduct(ctx().a.api);
    const password = await article(ctx().a.api, product.id, 'Reset your password', PASSWORD);
    await article(ctx().a.api, product.id, 'Refunds', REFUND);
    const conversation = await importConversation(ctx().a.api, product.id, { title: 'Password', body: 'Hello, how can I reset my password?' });
    for (const client of [ctx().a.api, ctx().client(ctx().a.readOnlyKey)]) {
      const res = await client.get(`/api/v1/conversations/${conversation.id}/suggested-articles`);
      assert.deepEqual(idsOf(res), [password.id]);
      assert.match(res.body.data[0].article.url, new RegExp(`/help/${product.help_slug}/articles/${password.slug}\\?locale=en$`));
    }
    assert.deepEqual(idsOf(await ctx().a.api.get(`/api/v1/items/${conversation.id}/suggested-articles`)), [password.id]);
    await ctx().a.api.patch(`/api/v1/products/${product.id}`, { help_center: false });
    assert.deepEqual(idsOf(await ctx().a.api.get(`/api/v1/conversations/${conversation.id}/suggested-articles`)), []);
  });

  it('answers 404 for an unknown, malformed or foreign conversation', async () => {
    assertNotFound(await ctx().a.api.get('/api/v1/conversations/0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0000/suggested-articles'));
    assertNotFound(await ctx().a.api.get('/api/v1/conversations/not-a-uuid/suggested-articles'));
    const foreign = await importConversation(ctx().b.api, (await createProduct(ctx().b.api)).id, { body: 'password' });
    assertNotFound(await ctx().a.api.get(`/api/v1/conversations/${foreign.id}/suggested-articles`));
    assert.equal((await ctx().client(null).get(`/api/v1/conversations/${foreign.id}/suggested-articles`)).status, 401);
  });

  it('records each visitor session\'s searches and answers shown, and counts the self-served', async () => {
    const product = await widgetProduct(ctx());
    await article(ctx().a.api, product.id, 'Reset your password', PASSWORD);
    const served = await startSession(ctx(), product.widget_key);
    const writer = await startSession(ctx(), product.widget_key);
    const start = new Date().toISOString();
    await ask(ctx(), product.widget_key, 'reset password', visitor(ctx(), served.token));
    await ask(ctx(), product.widget_key, 'parcels to Norway', visitor(ctx(), served.token));
    await ask(ctx(), product.widget_key, 'reset password', visitor(ctx(), writer.token));
    await ask(ctx(), product.widget_key, 'reset password');
    const started = await visitor(ctx(), writer.token).post(widgetPath(product.widget_key, '/conversations'), { body: 'The link expired.' });
    assert.equal(started.status, 201, started.text);

    const rows = await ctx().database.db.selectFrom('help_events').select(['kind', 'session_id']).where('product_id', '=', product.id).execute();
    assert.equal(rows.filter((r) => r.kind === 'search').length, 4);
    assert.equal(rows.filter((r) => r.kind === 'answer_shown').length, 3);
    const window = { workspaceId: ctx().a.id, productId: product.id, from: start, to: new Date(Date.now() + 60_000).toISOString() };
    const later = new Date(Date.now() + 31 * 60_000).toISOString();
    const { helpEventRepository } = await import('../../src/db/repositories/help-center/help-event.repository.js');
    const events = helpEventRepository(ctx().database.db);
    assert.deepEqual(await events.selfService({ ...window, now: later }), {
      searches: 4, articles_viewed: 0, answers_shown: 3, self_served: 1, conversations_after_article: 1,
    });
    // Before the 30 minutes are over, nobody is self-served yet; another workspace counts nothing.
    assert.equal((await ctx().services.helpEvents.selfService(window)).self_served, 0);
    assert.equal((await events.selfService({ ...window, workspaceId: ctx().b.id, productId: null, now: later })).searches, 0);
  });
});

/** Words of a few concepts, in English and Spanish: each concept one dimension (a stand-in for a multilingual model). */
const CONCEPTS = [['password', 'contraseña', 'reset', 'restablecer'], ['refund', 'refunds', 'reembolso', 'card', 'tarjeta'], ['ship', 'parcels', 'envío', 'norway']];

function conceptEmbedder(embedded: string[]): Embedder {
  return {
    name: 'test:concepts', model: 'test-concepts',
    async embed(texts) {
      embedded.push(...texts);
      return texts.map((text) => {
        const words = text.toLowerCase().split(/[^\p{L}]+/u);
        return Float32Array.from([...CONCEPTS.map((concept) => words.filter((w) => concept.includes(w)).length), 0.01]);
      });
    },
    close: async () => {},
  };
}

const embedded: string[] = [];
const logger = { info() {}, warn() {} };

describeEachDialect('help center answers by meaning [ext]', (ctx) => {
  it('finds an English article for a Spanish question, and embeds each passage once, when published', async () => {
    const product = await widgetProduct(ctx());
    const password = await article(ctx().a.api, product.id, 'Reset your password', PASSWORD);
    const stored = () => ctx().database.db.selectFrom('article_passages').select(['model', 'dimension']).where('article_id', '=', password.id).execute();
    await waitFor(async () => (await stored()).every((row) => row.model === 'test-concepts' && Number(row.dimension) === 4));
    const draft = await article(ctx().a.api, product.id, 'Refunds', REFUND, 'draft');
    const before = embedded.length;
    assert.deepEqual(idsOf(await ask(ctx(), product.widget_key, '¿Cómo restablezco mi contraseña?')), [password.id]);
    assert.deepEqual(idsOf(await ask(ctx(), product.widget_key, '¿Cómo restablecer la contraseña?')), [password.id]);
    // The two questions, and no passage again.
    assert.equal(embedded.length - before, 2);
    assert.deepEqual(idsOf(await ask(ctx(), product.widget_key, 'envío a Norway')), []);
    await ctx().a.api.patch(`/api/v1/articles/${draft.id}`, { status: 'published' });
    assert.deepEqual(idsOf(await ask(ctx(), product.widget_key, 'quiero un reembolso en mi tarjeta')), [draft.id]);
  });

  it('re-embeds only the passages an edit changed', async () => {
    const product = await widgetProduct(ctx());
    const item = await article(ctx().a.api, product.id, 'Account', `${PASSWORD}\n\n${'Layout words only here. '.repeat(14)}`);
    const vectors = () => ctx().database.db.selectFrom('article_passages').select(['position', 'text', 'model']).where('article_id', '=', item.id).orderBy('position').execute();
    await waitFor(async () => (await vectors()).every((row) => row.model === 'test-concepts'));
    assert.equal((await vectors()).length, 2);
    const before = embedded.length;
    const billing = `${REFUND} ${'Billing words only here. '.repeat(11).trim()}`;
    await ctx().a.api.patch(`/api/v1/articles/${item.id}`, { body: `${PASSWORD}\n\n${billing}` });
    await waitFor(async () => (await vectors()).every((row) => row.model === 'test-concepts'));
    assert.equal((await vectors()).length, 2);
    assert.deepEqual(embedded.slice(before), [`Account\n${billing}`]);
  });
}, { detector: createEmbeddingDetector({ embedder: conceptEmbedder(embedded), store: memoryStore(), threshold: 0.99, logger }) });

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const dialect of DIALECTS) {
  describe(`help center answers by a chat model [ext] [${dialect}]`, () => {
    let llm: ChatCompletionsServer;
    let ctx: Awaited<ReturnType<typeof createTestContext>>;
    let product: any;
    let password: any;
    let refund: any;
    before(async () => {
      llm = await startChatCompletionsServer();
      ctx = await createTestContext(dialect, { summaries: { llm: { baseUrl: llm.baseUrl, model: 'qwen2.5:7b-instruct', apiKey: null, timeoutMs: 2_000 } } });
      product = await widgetProduct(ctx);
      password = await article(ctx.a.api, product.id, 'Reset your password', PASSWORD);
      refund = await article(ctx.a.api, product.id, 'Reset your card for refunds', REFUND);
    });
    after(async () => {
      await ctx?.close();
      await llm?.close();
    });
    const answerJson = (answer: string | null, citations: unknown[]) => completion(JSON.stringify({ answer, citations }));

    it('writes the answer from the passages only and cites the articles it drew from', async () => {
      llm.reset();
      const found = await ask(ctx, product.widget_key, 'reset password');
      const first = found.body.data[0].article.id;
      llm.script(answerJson('Open Settings, then Security, and choose Reset password.', [1]));
      const res = await ask(ctx, product.widget_key, 'reset password');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.answer, { text: 'Open Settings, then Security, and choose Reset password.', citations: [first] });
      assert.ok([password.id, refund.id].includes(first));
      const request = llm.requests.at(-1)!;
      assert.match(request.body.messages[0].content, /only the numbered passages/);
      assert.match(request.body.messages[1].content, /\[1\] .*\n.*Question: reset password$/s);
      assert.equal(request.body.response_format.json_schema.name, 'help_center_answer');
    });

    for (const [what, answer] of [
      ['a malformed answer', completion('this is not JSON')],
      ['JSON of another shape', completion(JSON.stringify({ text: 'Open Settings.' }))],
      ['a citation of a passage it was not given', answerJson('Open Settings.', [7])],
      ['an answer citing nothing', answerJson('Open Settings.', [])],
      ['a declined answer', answerJson(null, [])],
      ['a server error', { status: 500, json: { error: { message: 'boom', type: 'server_error', param: null, code: null } } }],
    ] as const) {
      it(`shows the passages without an answer after ${what}, never an error`, async () => {
        llm.reset();
        llm.script(answer, answer);
        const res = await ask(ctx, product.widget_key, 'reset password');
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.answer, null);
        assert.ok(res.body.data.length > 0);
      });
    }

    it('asks the model nothing when no passage clears the threshold', async () => {
      llm.reset();
      assert.deepEqual((await ask(ctx, product.widget_key, 'parcels to Norway')).body, { data: [], answer: null });
      assert.equal(llm.requests.length, 0);
    });
  });
}
