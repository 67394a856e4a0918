import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { createServices } from '../../src/services.js';
import { createIssue, createProduct, createRelease } from '../helpers/factories.js';
import { describeEachDialect, type Client } from '../helpers/harness.js';
import { capturingDatabase } from '../helpers/query-plans.js';

const MISSING = '01900000-0000-7000-8000-000000000000';

const statusOf = async (api: Client, id: string) => (await api.get(`/api/v1/issues/${id}`)).body.data.status;

describeEachDialect('POST /api/v1/releases', (ctx) => {
  it('creates a published release, links its issues and marks them released', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const done = await createIssue(a.api, product.id, { status: 'done' });
    const pending = await createIssue(a.api, product.id, { status: 'pending' });
    const res = await a.api.post('/api/v1/releases', {
      product_id: product.id, title: '  Autumn  ', description: 'Fixes', version: '1.2.0', issue_ids: [done.id, pending.id, done.id],
    });
    assert.equal(res.status, 201, res.text);
    const release = res.body.data;
    assert.equal(release.title, 'Autumn');
    assert.equal(release.description, 'Fixes');
    assert.equal(release.version, '1.2.0');
    assert.equal(release.workspace_id, a.id);
    assert.equal(release.product_id, product.id);
    assert.deepEqual(release.product, { id: product.id, name: product.name });
    assert.equal(release.linked_issues_count, 2);
    assert.equal(release.released_at, release.created_at);
    assert.deepEqual(
      release.issues.map((issue: { id: string }) => issue.id).sort(),
      [done.id, pending.id].sort(),
    );
    assert.ok(release.issues.every((issue: { status: string }) => issue.status === 'released'));
    assert.equal(await statusOf(a.api, done.id), 'released');
    assert.equal(await statusOf(a.api, pending.id), 'released');
  });

  it('takes issues by shortcode too, in any case, an issue named both ways shipped once [ext]', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const done = await createIssue(a.api, product.id, { status: 'done' });
    const pending = await createIssue(a.api, product.id, { status: 'pending' });
    const res = await a.api.post('/api/v1/releases', {
      product_id: product.id, title: 'By shortcode', issue_ids: [done.shortcode, pending.shortcode.toLowerCase(), done.id],
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.linked_issues_count, 2);
    assert.deepEqual(res.body.data.issues.map((issue: { id: string }) => issue.id).sort(), [done.id, pending.id].sort());
    assert.equal(await statusOf(a.api, pending.id), 'released');
  });

  it('creates a draft with released_at null and an empty release without issue_ids', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const draft = await a.api.post('/api/v1/releases', { product_id: product.id, title: 'Draft', released_at: null });
    assert.equal(draft.status, 201);
    assert.equal(draft.body.data.released_at, null);
    assert.equal(draft.body.data.linked_issues_count, 0);
    assert.deepEqual(draft.body.data.issues, []);
    const dated = await a.api.post('/api/v1/releases', { product_id: product.id, title: 'Dated', released_at: '2026-01-02T03:04:05+01:00' });
    assert.equal(dated.body.data.released_at, '2026-01-02T02:04:05.000Z');
  });

  it('rejects the whole request when any issue id is not an issue of the product, changing nothing', async () => {
    const { a, b } = ctx();
    const product = await createProduct(a.api);
    const otherProduct = await createProduct(a.api);
    const mine = await createIssue(a.api, product.id, { status: 'done' });
    const otherIssue = await createIssue(a.api, otherProduct.id, { status: 'done' });
    const foreign = await createIssue(b.api, (await createProduct(b.api)).id, { status: 'done' });
    const before = (await a.api.get(`/api/v1/releases?product_id=${product.id}`)).body.pagination.total;
    for (const stranger of [otherIssue.id, foreign.id, MISSING, otherIssue.shortcode, foreign.shortcode, 'ZZZ-999']) {
      const res = await a.api.post('/api/v1/releases', { product_id: product.id, title: 'Bad', issue_ids: [mine.id, stranger] });
      assert.equal(res.status, 400, stranger);
      assert.ok(res.body.fields.issue_ids);
    }
    assert.equal(await statusOf(a.api, mine.id), 'done');
    assert.equal(await statusOf(b.api, foreign.id), 'done');
    assert.equal((await a.api.get(`/api/v1/releases?product_id=${product.id}`)).body.pagination.total, before);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['a missing product_id', { product_id: undefined }, 'product_id'],
    ['an unknown product_id', { product_id: MISSING }, 'product_id'],
    ['a missing title', { title: undefined }, 'title'],
    ['a blank title', { title: ' ' }, 'title'],
    ['a title over 500 characters', { title: 'x'.repeat(501) }, 'title'],
    ['a version over 100 characters', { version: 'v'.repeat(101) }, 'version'],
    ['a malformed issue id', { issue_ids: ['nope'] }, 'issue_ids'],
    ['an issue id that is neither a UUID nor a shortcode', { issue_ids: ['APP 1'] }, 'issue_ids'],
    ['issue_ids that is not an array', { issue_ids: MISSING }, 'issue_ids'],
    ['a malformed released_at', { released_at: 'yesterday' }, 'released_at'],
    ['an unknown field', { tag: 'x' }, 'tag'],
  ];
  for (const [what, patch, field] of invalid) {
    it(`rejects ${what}`, async () => {
      const { a } = ctx();
      const product = await createProduct(a.api);
      const res = await a.api.post('/api/v1/releases', { product_id: product.id, title: 'R', ...patch });
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.fields?.[field], res.text);
    });
  }

  it('rejects another workspace\'s product', async () => {
    const { a, b } = ctx();
    const product = await createProduct(a.api);
    const res = await b.api.post('/api/v1/releases', { product_id: product.id, title: 'R' });
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.product_id);
  });

  it('is forbidden to read-only keys', async () => {
    const { a, client } = ctx();
    const product = await createProduct(a.api);
    assert.equal((await client(a.readOnlyKey).post('/api/v1/releases', { product_id: product.id, title: 'R' })).status, 403);
  });

  // A release's cost to the database does not grow with its issues: their status, tallies, details
  // and events are each read or written in one statement for all of them.
  it('ships 10 issues in a handful of statements, as many as it takes to ship one', async () => {
    const { a, database, databaseUrl } = ctx();
    const product = await createProduct(a.api);
    const members = (await a.api.get('/api/v1/members')).body.data as { id: string }[];
    const issues = [];
    for (let i = 0; i < 11; i++) {
      const status = ['pending', 'in_progress', 'icebox', 'done', 'dismissed'][i % 5];
      const priority = ['low', 'normal', 'high', 'urgent'][i % 4];
      issues.push(await createIssue(a.api, product.id, { status, priority, assignee_id: i % 2 ? members[0]!.id : null }));
    }
    const counting = capturingDatabase(databaseUrl, database);
    const services = createServices(counting);
    const app = await buildApp({ database: counting, services });
    const statementsOfRelease = async (issueIds: string[]) => {
      counting.sent.length = 0;
      const res = await app.inject({
        method: 'POST', url: '/api/v1/releases', headers: { authorization: `Bearer ${a.key}` },
        payload: { product_id: product.id, title: 'Counted', issue_ids: issueIds },
      });
      assert.equal(res.statusCode, 201, res.body);
      return [...counting.sent];
    };
    try {
      const one = await statementsOfRelease([issues[0].id]);
      const ten = await statementsOfRelease(issues.slice(1).map((issue) => issue.id));
      assert.equal(ten.length, one.length, `1 issue:\n${one.join('\n')}\n10 issues:\n${ten.join('\n')}`);
      // 12 on SQLite; PostgreSQL adds the issues' locks (one statement), the product's advisory lock and a NOTIFY for each event insert.
      const transaction = ten.slice(ten.indexOf('begin') + 1, ten.indexOf('commit'));
      assert.ok(transaction.length <= 15, `${transaction.length} statements in the transaction:\n${transaction.join('\n')}`);
    } finally {
      await services.live.close();
      await app.close();
      await counting.close();
    }
    for (const issue of issues) assert.equal(await statusOf(a.api, issue.id), 'released');
  });

  it('keeps links consistent when concurrent releases name the same issues', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issues = await Promise.all([1, 2, 3].map(() => createIssue(a.api, product.id, { status: 'done' })));
    const ids = issues.map((issue) => issue.id);
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => a.api.post('/api/v1/releases', { product_id: product.id, title: `R${n}`, issue_ids: ids })),
    );
    for (const res of results) {
      assert.equal(res.status, 201);
      assert.equal(res.body.data.linked_issues_count, 3);
    }
    for (const id of ids) assert.equal(await statusOf(a.api, id), 'released');
  });
});

describeEachDialect('GET /api/v1/releases and /releases/{id}', (ctx) => {
  it('lists newest first, filters by product and paginates', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const other = await createProduct(a.api);
    const made = [];
    for (const title of ['one', 'two', 'three']) {
      made.push(await createRelease(a.api, product.id, { title }));
    }
    await createRelease(a.api, other.id, { title: 'elsewhere' });
    const res = await a.api.get(`/api/v1/releases?product_id=${product.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.map((r: { title: string }) => r.title), ['three', 'two', 'one']);
    assert.deepEqual(res.body.pagination, { total: 3, limit: 50, offset: 0 });
    assert.equal(res.body.data[0].issues, undefined);
    const page = await a.api.get(`/api/v1/releases?product_id=${product.id}&limit=1&offset=1`);
    assert.deepEqual(page.body.data.map((r: { id: string }) => r.id), [made[1].id]);
    assert.equal(page.body.pagination.total, 3);
  });

  it('rejects a malformed product_id filter', async () => {
    const res = await ctx().a.api.get('/api/v1/releases?product_id=abc');
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.product_id);
  });

  it('shows a release with its issues', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id, { status: 'done' });
    const created = await createRelease(a.api, product.id, { title: 'R', issue_ids: [issue.id] });
    const res = await a.api.get(`/api/v1/releases/${created.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.issues, [{ id: issue.id, title: issue.title, status: 'released', priority: 'normal' }]);
    assert.equal(res.body.data.linked_issues_count, 1);
  });

  for (const id of [MISSING, 'not-a-uuid']) {
    it(`answers 404 for ${id}`, async () => {
      assert.equal((await ctx().a.api.get(`/api/v1/releases/${id}`)).status, 404);
    });
  }

  it('isolates workspaces', async () => {
    const { a, b } = ctx();
    const product = await createProduct(a.api);
    const created = await createRelease(a.api, product.id, { title: 'Secret' });
    assert.equal((await b.api.get(`/api/v1/releases/${created.id}`)).status, 404);
    assert.equal((await b.api.patch(`/api/v1/releases/${created.id}`, { title: 'Mine' })).status, 404);
    const listed = await b.api.get('/api/v1/releases?limit=200');
    assert.ok(listed.body.data.every((r: { id: string }) => r.id !== created.id));
  });
});

describeEachDialect('PATCH /api/v1/releases/{id} [ext]', (ctx) => {
  it('updates fields, returns to draft and publishes again', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const created = await createRelease(a.api, product.id, { title: 'R' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const draft = await a.api.patch(`/api/v1/releases/${created.id}`, { released_at: null, title: ' Renamed ', version: '2.0' });
    assert.equal(draft.status, 200);
    assert.equal(draft.body.data.released_at, null);
    assert.equal(draft.body.data.title, 'Renamed');
    assert.equal(draft.body.data.version, '2.0');
    assert.ok(draft.body.data.updated_at > created.updated_at);
    const published = await a.api.patch(`/api/v1/releases/${created.id}`, { released_at: '2026-12-01T00:00:00.000Z' });
    assert.equal(published.body.data.released_at, '2026-12-01T00:00:00.000Z');
  });

  it('leaves updated_at alone when nothing changes', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const created = await createRelease(a.api, product.id, { title: 'Same', version: '1' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await a.api.patch(`/api/v1/releases/${created.id}`, { title: 'Same', version: '1' });
    assert.equal(res.body.data.updated_at, created.updated_at);
  });

  it('validates and answers 404 before validating', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const created = await createRelease(a.api, product.id, { title: 'R' });
    const bad = await a.api.patch(`/api/v1/releases/${created.id}`, { title: '' });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fields.title);
    const unknown = await a.api.patch(`/api/v1/releases/${created.id}`, { issue_ids: [] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.fields.issue_ids, 'unknown field');
    assert.equal((await a.api.patch(`/api/v1/releases/${MISSING}`, { title: '' })).status, 404);
  });

  it('is forbidden to read-only keys', async () => {
    const { a, client } = ctx();
    assert.equal((await client(a.readOnlyKey).patch(`/api/v1/releases/${MISSING}`, { title: 'x' })).status, 403);
  });
});
