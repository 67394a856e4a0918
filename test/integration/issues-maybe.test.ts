import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DetectionError, type DuplicateDetector } from '../../src/dedup/detector.js';
import { createProduct, createRelease, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';

const MAYBE = '/api/v1/issues/maybe';

const issueCount = async (api: Client, productId: string) =>
  (await api.get(`/api/v1/issues?product_id=${productId}&limit=1`)).body.pagination.total as number;

const sourcesOf = (ctx: TestContext, issueId: string) =>
  ctx.database.db
    .selectFrom('issue_api_sources')
    .select(['issue_id', 'api_key_id', 'title', 'description', 'matched_existing', 'score', 'detector'])
    .where('issue_id', '=', issueId)
    .orderBy('created_at')
    .execute();

describeEachDialect('POST /api/v1/issues/maybe (lexical matcher)', (ctx) => {
  it('creates an issue when nothing matches and records the call as its source', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const res = await a.api.post(MAYBE, {
      product_id: product.id, title: 'Login button unresponsive on iOS', description: 'Tapping it does nothing', priority: 'high',
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.matched_existing, false);
    assert.match(res.body.api_source_id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.data.priority, 'high');
    assert.equal(res.body.data.sources_count, 1);
    assert.equal(res.body.data.is_ai_generated, false);
    const [source] = await sourcesOf(ctx(), res.body.data.id);
    assert.equal(source.matched_existing, 0);
    assert.equal(source.detector, 'lexical');
    assert.equal(source.title, 'Login button unresponsive on iOS');
    assert.equal(source.description, 'Tapping it does nothing');
  });

  it('returns the existing issue for the same report with small edits, ignoring create-only fields', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const first = await a.api.post(MAYBE, { product_id: product.id, title: 'Export to CSV crashes the app', description: 'Every time on large reports' });
    assert.equal(first.status, 201);
    const again = await a.api.post(MAYBE, {
      product_id: product.id, title: 'export to csv crashes the app!', description: 'Every time on large reports.',
      status: 'in_progress', priority: 'urgent', assignee_id: 'me',
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.matched_existing, true);
    assert.equal(again.body.data.id, first.body.data.id);
    assert.equal(again.body.data.status, 'pending');
    assert.equal(again.body.data.priority, 'normal');
    assert.equal(again.body.data.assignee_id, null);
    assert.equal(again.body.data.sources_count, 2);
    assert.notEqual(again.body.api_source_id, first.body.api_source_id);
    const sources = await sourcesOf(ctx(), first.body.data.id);
    assert.deepEqual(sources.map((s) => s.matched_existing), [0, 1]);
    assert.ok(typeof sources[1].score === 'number' && sources[1].score > 0);
    assert.equal((await a.api.get(`/api/v1/issues/${first.body.data.id}`)).body.data.sources_count, 2);
  });

  it('does not merge different problems', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    await a.api.post(MAYBE, { product_id: product.id, title: 'Password reset email never arrives' });
    const other = await a.api.post(MAYBE, { product_id: product.id, title: 'Invoice PDF shows the wrong currency' });
    assert.equal(other.status, 201);
  });

  it('compares only pending, in_progress and icebox issues of the same product', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const otherProduct = await createProduct(a.api);
    const title = 'Dark mode resets after restart';
    const original = (await a.api.post(MAYBE, { product_id: product.id, title })).body.data;
    assert.equal((await a.api.post(MAYBE, { product_id: otherProduct.id, title })).status, 201);

    await a.api.patch(`/api/v1/issues/${original.id}`, { status: 'icebox' });
    assert.equal((await a.api.post(MAYBE, { product_id: product.id, title })).body.data.id, original.id);

    for (const status of ['done', 'dismissed']) {
      await a.api.patch(`/api/v1/issues/${original.id}`, { status });
      const res = await a.api.post(MAYBE, { product_id: product.id, title: `${title} ${status}` });
      assert.equal(res.status, 201);
      await a.api.patch(`/api/v1/issues/${res.body.data.id}`, { status: 'dismissed' });
    }
    await a.api.patch(`/api/v1/issues/${original.id}`, { status: 'done' });
    await createRelease(a.api, product.id, { title: 'R', issue_ids: [original.id] });
    const afterRelease = await a.api.post(MAYBE, { product_id: product.id, title });
    assert.equal(afterRelease.status, 201);
    assert.notEqual(afterRelease.body.data.id, original.id);
  });

  it('sees issues created by POST /issues and titles changed by PATCH', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const direct = (await a.api.post('/api/v1/issues', { product_id: product.id, title: 'Search ignores accents' })).body.data;
    assert.equal((await a.api.post(MAYBE, { product_id: product.id, title: 'Search ignores accents' })).body.data.id, direct.id);
    await a.api.patch(`/api/v1/issues/${direct.id}`, { title: 'Notifications arrive twice' });
    assert.equal((await a.api.post(MAYBE, { product_id: product.id, title: 'Notifications arrive twice' })).body.data.id, direct.id);
  });

  it('serializes racing identical calls: 20 at once create exactly one issue', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const body = { product_id: product.id, title: 'App freezes when uploading a photo', description: 'Since version 3.2' };
    const results = await Promise.all(Array.from({ length: 20 }, () => a.api.post(MAYBE, body)));
    assert.deepEqual(results.map((r) => r.status).sort(), [201, ...Array(19).fill(200)].sort());
    assert.equal(new Set(results.map((r) => r.body.data.id)).size, 1);
    assert.equal(await issueCount(a.api, product.id), 1);
    assert.equal((await sourcesOf(ctx(), results[0].body.data.id)).length, 20);
  });

  it('links conversation_id to the created and to the matched issue [ext]', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const first = await importConversation(a.api, product.id);
    const second = await importConversation(a.api, product.id);
    const created = await a.api.post(MAYBE, { product_id: product.id, title: 'Cart empties itself', conversation_id: first.id });
    assert.deepEqual(created.body.data.linked_conversations.map((c: { id: string }) => c.id), [first.id]);
    const matched = await a.api.post(MAYBE, { product_id: product.id, title: 'Cart empties itself', conversation_id: second.id });
    assert.equal(matched.status, 200);
    assert.deepEqual(matched.body.data.linked_conversations.map((c: { id: string }) => c.id).sort(), [first.id, second.id].sort());
  });

  it('rejects a conversation of another product or workspace, writing nothing', async () => {
    const { a, b } = ctx();
    const product = await createProduct(a.api);
    const elsewhere = await importConversation(a.api, (await createProduct(a.api)).id);
    const foreign = await importConversation(b.api, (await createProduct(b.api)).id);
    for (const conversationId of [elsewhere.id, foreign.id, '01900000-0000-7000-8000-000000000000']) {
      const res = await a.api.post(MAYBE, { product_id: product.id, title: 'T', conversation_id: conversationId });
      assert.equal(res.status, 400);
      assert.ok(res.body.fields.conversation_id);
    }
    assert.equal(await issueCount(a.api, product.id), 0);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['a missing title', { title: undefined }, 'title'],
    ['a blank title', { title: '  ' }, 'title'],
    ['a title over 500 characters', { title: 'z'.repeat(501) }, 'title'],
    ['status released', { status: 'released' }, 'status'],
    ['an unknown priority', { priority: 'meh' }, 'priority'],
    ['an assignee of no member', { assignee_id: '01900000-0000-7000-8000-000000000000' }, 'assignee_id'],
    ['a malformed conversation_id', { conversation_id: 'c1' }, 'conversation_id'],
    ['an unknown field', { severity: 1 }, 'severity'],
  ];
  for (const [what, patch, field] of invalid) {
    it(`rejects ${what}`, async () => {
      const { a } = ctx();
      const product = await createProduct(a.api);
      const res = await a.api.post(MAYBE, { product_id: product.id, title: 'Valid', ...patch });
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.fields[field], res.text);
      assert.equal(await issueCount(a.api, product.id), 0);
    });
  }

  it('rejects another workspace\'s product and is forbidden to read-only keys', async () => {
    const { a, b, client } = ctx();
    const product = await createProduct(a.api);
    const foreign = await b.api.post(MAYBE, { product_id: product.id, title: 'T' });
    assert.equal(foreign.status, 400);
    assert.ok(foreign.body.fields.product_id);
    assert.equal((await client(a.readOnlyKey).post(MAYBE, { product_id: product.id, title: 'T' })).status, 403);
  });

  it('has no deprecated alias', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    // The path is the alias of GET /issues/{id}: other methods serve it, POST does not.
    const res = await a.api.post('/api/v1/actions/maybe', { product_id: product.id, title: 'T' });
    assert.equal(res.status, 405);
    assert.ok(!String(res.headers.allow).includes('POST'), String(res.headers.allow));
  });
});

/** A detector that fails the way a provider outage does. */
const failingDetector: DuplicateDetector = {
  name: 'failing',
  threshold: 0.5,
  prepare: async (report) => ({ text: report.title, detector: 'failing' }),
  decide: async () => {
    throw new DetectionError('provider down');
  },
  indexIssue: async () => {},
  close: async () => {},
};

describeEachDialect('POST /api/v1/issues/maybe when detection fails', (ctx) => {
  it('answers 500 internal_error and writes nothing', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const conversation = await importConversation(a.api, product.id);
    const res = await a.api.post(MAYBE, { product_id: product.id, title: 'Anything', conversation_id: conversation.id });
    assert.equal(res.status, 500);
    assert.equal(res.body.error_code, 'internal_error');
    assert.match(res.body.detail, /duplicate detection failed/);
    assert.match(res.body.detail, /POST \/api\/v1\/issues/);
    assert.doesNotMatch(res.body.detail, /provider down/);
    assert.equal(await issueCount(a.api, product.id), 0);
    const sources = await ctx().database.db.selectFrom('issue_api_sources').select('id').execute();
    assert.equal(sources.length, 0);
    assert.equal((await a.api.get(`/api/v1/conversations/${conversation.id}`)).status, 200);
  });

  it('still creates through POST /issues, which bypasses detection', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    assert.equal((await a.api.post('/api/v1/issues', { product_id: product.id, title: 'Anything' })).status, 201);
  });
}, { detector: failingDetector });
