import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createIssue, createProduct } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';

const MISSING = '01900000-0000-7000-8000-000000000000';

describeEachDialect('POST /api/v1/issues', (ctx) => {
  it('creates an issue with defaults and the first shortcode of the prefix', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api, { issue_prefix: 'NEW' });
    const res = await a.api.post('/api/v1/issues', { product_id: product.id, title: '  Crash on start  ' });
    assert.equal(res.status, 201);
    const issue = res.body.data;
    assert.equal(issue.shortcode, 'NEW-1');
    assert.equal(issue.title, 'Crash on start');
    assert.equal(issue.product_id, product.id);
    assert.equal(issue.description, null);
    assert.equal(issue.status, 'pending');
    assert.equal(issue.priority, 'normal');
    assert.equal(issue.assignee_id, null);
    assert.equal(issue.resolution_comment, null);
    assert.equal(issue.is_ai_generated, false);
    assert.deepEqual(issue.linked_conversations, []);
    assert.match(issue.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(issue.created_at, issue.updated_at);

    const second = await createIssue(a.api, product.id);
    assert.equal(second.shortcode, 'NEW-2');
  });

  it('takes status, priority, description and an assignee', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id, {
      description: 'Steps: open the app', status: 'in_progress', priority: 'urgent', assignee_id: a.owner.id,
    });
    assert.equal(issue.description, 'Steps: open the app');
    assert.equal(issue.status, 'in_progress');
    assert.equal(issue.priority, 'urgent');
    assert.equal(issue.assignee_id, a.owner.id);
  });

  it('accepts assignee_id "me" [ext]', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id, { assignee_id: 'me' });
    assert.equal(issue.assignee_id, a.owner.id);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['a missing product_id', { product_id: undefined }, 'product_id'],
    ['a malformed product_id', { product_id: 'nope' }, 'product_id'],
    ['an unknown product_id', { product_id: MISSING }, 'product_id'],
    ['a missing title', { title: undefined }, 'title'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a title over 500 characters', { title: 'x'.repeat(501) }, 'title'],
    ['a non-string title', { title: 42 }, 'title'],
    ['an unknown status', { status: 'open' }, 'status'],
    ['an unknown priority', { priority: 'critical' }, 'priority'],
    ['an assignee of no member', { assignee_id: MISSING }, 'assignee_id'],
    ['a malformed assignee', { assignee_id: 'bob' }, 'assignee_id'],
    ['an unknown field', { severity: 'high' }, 'severity'],
  ];
  for (const [what, patch, field] of invalid) {
    it(`rejects ${what}`, async () => {
      const { a } = ctx();
      const product = await createProduct(a.api);
      const body = { product_id: product.id, title: 'Valid title', ...patch };
      const res = await a.api.post('/api/v1/issues', body);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields?.[field], `fields.${field} in ${res.text}`);
    });
  }

  it('accepts a title of exactly 500 characters after trimming', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id, { title: ` ${'y'.repeat(500)} ` });
    assert.equal(issue.title.length, 500);
  });

  it('rejects "me" for a key without a member', async () => {
    const { a, client } = ctx();
    const product = await createProduct(a.api);
    const res = await client(a.memberlessKey).post('/api/v1/issues', { product_id: product.id, title: 'T', assignee_id: 'me' });
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.assignee_id);
  });

  it('rejects another workspace\'s product and member', async () => {
    const { a, b } = ctx();
    const productA = await createProduct(a.api);
    const productB = await createProduct(b.api);
    const foreignProduct = await b.api.post('/api/v1/issues', { product_id: productA.id, title: 'T' });
    assert.equal(foreignProduct.status, 400);
    assert.ok(foreignProduct.body.fields.product_id);
    const foreignAssignee = await b.api.post('/api/v1/issues', { product_id: productB.id, title: 'T', assignee_id: a.owner.id });
    assert.equal(foreignAssignee.status, 400);
    assert.ok(foreignAssignee.body.fields.assignee_id);
  });

  it('is forbidden to read-only keys', async () => {
    const { a, client } = ctx();
    const product = await createProduct(a.api);
    const res = await client(a.readOnlyKey).post('/api/v1/issues', { product_id: product.id, title: 'T' });
    assert.equal(res.status, 403);
  });

  it('numbers 30 concurrent creates without duplicates or gaps', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const created = await Promise.all(Array.from({ length: 30 }, () => createIssue(a.api, product.id)));
    const numbers = created.map((issue) => Number(issue.shortcode.split('-')[1])).sort((x, y) => x - y);
    assert.deepEqual(numbers, Array.from({ length: 30 }, (_, i) => i + 1));
  });
});

describeEachDialect('shortcodes and prefixes', (ctx) => {
  it('keeps existing shortcodes when the prefix changes, and numbers new ones under the new prefix', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api, { issue_prefix: 'OLD' });
    const first = await createIssue(a.api, product.id);
    await a.api.patch(`/api/v1/products/${product.id}`, { issue_prefix: 'NW' });
    const second = await createIssue(a.api, product.id);
    assert.equal(first.shortcode, 'OLD-1');
    assert.equal(second.shortcode, 'NW-1');
    assert.equal((await a.api.get('/api/v1/issues/OLD-1')).body.data.id, first.id);
  });

  it('continues the count when another product takes a freed prefix', async () => {
    const { a } = ctx();
    const first = await createProduct(a.api, { issue_prefix: 'FRE' });
    await createIssue(a.api, first.id);
    await createIssue(a.api, first.id);
    await a.api.patch(`/api/v1/products/${first.id}`, { issue_prefix: 'FR2' });
    const second = await createProduct(a.api, { issue_prefix: 'FRE' });
    const issue = await createIssue(a.api, second.id);
    assert.equal(issue.shortcode, 'FRE-3');
  });

  it('numbers per workspace: the same prefix starts at 1 in another workspace', async () => {
    const { a, b } = ctx();
    const productA = await createProduct(a.api, { issue_prefix: 'WSP' });
    const productB = await createProduct(b.api, { issue_prefix: 'WSP' });
    await createIssue(a.api, productA.id);
    assert.equal((await createIssue(b.api, productB.id)).shortcode, 'WSP-1');
  });
});

describeEachDialect('GET /api/v1/issues/{id}', (ctx) => {
  it('finds an issue by UUID and by shortcode in any case', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api, { issue_prefix: 'GET' });
    const issue = await createIssue(a.api, product.id);
    for (const ref of [issue.id, issue.id.toUpperCase(), 'GET-1', 'get-1', 'Get-1']) {
      const res = await a.api.get(`/api/v1/issues/${ref}`);
      assert.equal(res.status, 200, ref);
      assert.equal(res.body.data.id, issue.id);
      assert.deepEqual(res.body.data.linked_conversations, []);
      assert.equal(res.body.data.linked_conversations_count, undefined);
    }
  });

  for (const ref of [MISSING, 'GET-999', 'not-an-id', 'ABCD-1', 'GET-0', 'GET-01']) {
    it(`answers 404 for ${ref}`, async () => {
      const res = await ctx().a.api.get(`/api/v1/issues/${ref}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.error_code, 'not_found');
    });
  }

  it('hides another workspace\'s issue by UUID and by shortcode', async () => {
    const { a, b } = ctx();
    const product = await createProduct(a.api, { issue_prefix: 'HID' });
    const issue = await createIssue(a.api, product.id);
    assert.equal((await b.api.get(`/api/v1/issues/${issue.id}`)).status, 404);
    assert.equal((await b.api.get(`/api/v1/issues/${issue.shortcode}`)).status, 404);
  });
});

describeEachDialect('PATCH /api/v1/issues/{id}', (ctx) => {
  const later = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('moves along the flow and records a resolution comment', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id);
    await later();
    const started = await a.api.patch(`/api/v1/issues/${issue.id}`, { status: 'in_progress' });
    assert.equal(started.status, 200);
    assert.equal(started.body.data.status, 'in_progress');
    assert.ok(started.body.data.updated_at > issue.updated_at);
    const done = await a.api.patch(`/api/v1/issues/${issue.shortcode.toLowerCase()}`, { status: 'done', resolution_comment: 'Fixed' });
    assert.equal(done.body.data.status, 'done');
    assert.equal(done.body.data.resolution_comment, 'Fixed');
  });

  it('is permissive: any status from any status', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id, { status: 'dismissed' });
    for (const status of ['released', 'pending', 'icebox', 'done', 'in_progress', 'dismissed']) {
      const res = await a.api.patch(`/api/v1/issues/${issue.id}`, { status });
      assert.equal(res.body.data.status, status);
    }
  });

  it('leaves updated_at alone when nothing changes', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id, { priority: 'high' });
    await later();
    const res = await a.api.patch(`/api/v1/issues/${issue.id}`, { priority: 'high', title: issue.title, description: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.updated_at, issue.updated_at);
    const empty = await a.api.patch(`/api/v1/issues/${issue.id}`, {});
    assert.equal(empty.body.data.updated_at, issue.updated_at);
  });

  it('clears description and resolution_comment with "" or null', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id, { description: 'text' });
    await a.api.patch(`/api/v1/issues/${issue.id}`, { resolution_comment: 'note' });
    const cleared = await a.api.patch(`/api/v1/issues/${issue.id}`, { description: '', resolution_comment: null });
    assert.equal(cleared.body.data.description, null);
    assert.equal(cleared.body.data.resolution_comment, null);
    await a.api.patch(`/api/v1/issues/${issue.id}`, { description: 'again', resolution_comment: 'again' });
    const clearedToo = await a.api.patch(`/api/v1/issues/${issue.id}`, { description: null, resolution_comment: '' });
    assert.equal(clearedToo.body.data.description, null);
    assert.equal(clearedToo.body.data.resolution_comment, null);
  });

  it('assigns with a member id or "me" and unassigns with null', async () => {
    const { a, services } = ctx();
    const agent = await services.admin.createMember({ workspaceId: a.id, name: 'Agent', role: 'agent' });
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id);
    assert.equal((await a.api.patch(`/api/v1/issues/${issue.id}`, { assignee_id: agent.id })).body.data.assignee_id, agent.id);
    assert.equal((await a.api.patch(`/api/v1/issues/${issue.id}`, { assignee_id: 'me' })).body.data.assignee_id, a.owner.id);
    assert.equal((await a.api.patch(`/api/v1/issues/${issue.id}`, { assignee_id: null })).body.data.assignee_id, null);
  });

  it('trims the title and rejects blank or long titles', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id);
    assert.equal((await a.api.patch(`/api/v1/issues/${issue.id}`, { title: '  New title ' })).body.data.title, 'New title');
    for (const title of ['  ', 'x'.repeat(501)]) {
      const res = await a.api.patch(`/api/v1/issues/${issue.id}`, { title });
      assert.equal(res.status, 400);
      assert.ok(res.body.fields.title);
    }
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['an unknown status', { status: 'closed' }, 'status'],
    ['an unknown priority', { priority: 'p1' }, 'priority'],
    ['a foreign assignee', { assignee_id: MISSING }, 'assignee_id'],
    ['an unknown field', { shortcode: 'X-1' }, 'shortcode'],
    ['a numeric description', { description: 5 }, 'description'],
  ];
  for (const [what, body, field] of invalid) {
    it(`rejects ${what}`, async () => {
      const { a } = ctx();
      const product = await createProduct(a.api);
      const issue = await createIssue(a.api, product.id);
      const res = await a.api.patch(`/api/v1/issues/${issue.id}`, body);
      assert.equal(res.status, 400);
      assert.ok(res.body.fields[field], res.text);
    });
  }

  it('answers 404 for a missing issue even with an invalid body', async () => {
    const res = await ctx().a.api.patch(`/api/v1/issues/${MISSING}`, { status: 'bogus' });
    assert.equal(res.status, 404);
  });

  it('cannot touch another workspace\'s issue', async () => {
    const { a, b } = ctx();
    const product = await createProduct(a.api);
    const issue = await createIssue(a.api, product.id);
    assert.equal((await b.api.patch(`/api/v1/issues/${issue.id}`, { title: 'Hijacked' })).status, 404);
    assert.equal((await a.api.get(`/api/v1/issues/${issue.id}`)).body.data.title, issue.title);
  });

  it('is forbidden to read-only keys, even for missing issues', async () => {
    const { a, client } = ctx();
    assert.equal((await client(a.readOnlyKey).patch(`/api/v1/issues/${MISSING}`, { status: 'done' })).status, 403);
  });
});

describeEachDialect('GET /api/v1/issues', (ctx) => {
  let product: { id: string };
  let other: { id: string };
  let agentId: string;
  let made: Record<string, any>[] = [];

  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((issue) => issue.id);
  const expected = (filter: (issue: Record<string, any>) => boolean) =>
    made.filter(filter).map((issue) => issue.id).reverse();

  async function seed(context: TestContext) {
    const { a, services } = context;
    product = await createProduct(a.api);
    other = await createProduct(a.api);
    agentId = (await services.admin.createMember({ workspaceId: a.id, name: 'Lister', role: 'agent' })).id;
    made = [];
    const specs = [
      { status: 'pending', priority: 'low' },
      { status: 'in_progress', priority: 'high', assignee_id: a.owner.id },
      { status: 'done', priority: 'urgent', assignee_id: agentId },
      { status: 'pending', priority: 'high', assignee_id: agentId },
      { status: 'icebox', priority: 'normal' },
      { status: 'dismissed', priority: 'low', assignee_id: a.owner.id },
    ];
    for (const spec of specs) made.push(await createIssue(a.api, product.id, spec));
    await createIssue(a.api, other.id);
  }

  it('lists newest first with linked_conversations_count and pagination', async () => {
    await seed(ctx());
    const res = await ctx().a.api.get(`/api/v1/issues?product_id=${product.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res), expected(() => true));
    assert.ok(res.body.data.every((issue: Record<string, unknown>) => issue.linked_conversations_count === 0 && !('linked_conversations' in issue)));
    assert.deepEqual(res.body.pagination, { total: 6, limit: 50, offset: 0 });

    const page = await ctx().a.api.get(`/api/v1/issues?product_id=${product.id}&limit=2&offset=2`);
    assert.deepEqual(ids(page), expected(() => true).slice(2, 4));
    assert.deepEqual(page.body.pagination, { total: 6, limit: 2, offset: 2 });
  });

  it('filters by status, priority and assignee alone and combined', async () => {
    const { a } = ctx();
    const base = `/api/v1/issues?product_id=${product.id}`;
    const cases: [string, (issue: Record<string, any>) => boolean][] = [
      ['status=pending', (i) => i.status === 'pending'],
      ['status=pending,%20in_progress,', (i) => ['pending', 'in_progress'].includes(i.status)],
      ['priority=high', (i) => i.priority === 'high'],
      ['priority=low,urgent', (i) => ['low', 'urgent'].includes(i.priority)],
      [`assignee_id=${agentId}`, (i) => i.assignee_id === agentId],
      ['assignee_id=none', (i) => i.assignee_id === null],
      ['assignee_id=me', (i) => i.assignee_id === a.owner.id],
      [`assignee_id=none,${agentId}`, (i) => i.assignee_id === null || i.assignee_id === agentId],
      [`status=pending&priority=high&assignee_id=${agentId}`, (i) => i.status === 'pending' && i.priority === 'high' && i.assignee_id === agentId],
      [`assignee_id=${MISSING}`, () => false],
    ];
    for (const [query, filter] of cases) {
      const res = await a.api.get(`${base}&${query}`);
      assert.equal(res.status, 200, query);
      assert.deepEqual(ids(res), expected(filter), query);
      assert.equal(res.body.pagination.total, expected(filter).length, query);
    }
  });

  it('filters by product across the workspace', async () => {
    const res = await ctx().a.api.get(`/api/v1/issues?product_id=${other.id}`);
    assert.equal(res.body.pagination.total, 1);
    assert.equal((await ctx().a.api.get(`/api/v1/issues?product_id=${MISSING}`)).body.pagination.total, 0);
  });

  for (const [query, field] of [
    ['status=pending,closed', 'status'], ['priority=p0', 'priority'], ['assignee_id=bob', 'assignee_id'],
    ['product_id=xyz', 'product_id'], ['limit=500', 'limit'], ['offset=x', 'offset'],
  ]) {
    it(`rejects ${query}`, async () => {
      const res = await ctx().a.api.get(`/api/v1/issues?${query}`);
      assert.equal(res.status, 400);
      assert.ok(res.body.fields[field], res.text);
    });
  }

  it('names the bad value of a filter', async () => {
    const res = await ctx().a.api.get('/api/v1/issues?status=pending,closed');
    assert.match(res.body.fields.status, /closed/);
  });

  it('rejects assignee_id=me for a key without a member', async () => {
    const res = await ctx().client(ctx().a.memberlessKey).get('/api/v1/issues?assignee_id=me');
    assert.equal(res.status, 400);
    assert.ok(res.body.fields.assignee_id);
  });

  it('never lists another workspace\'s issues', async () => {
    const { a, b } = ctx();
    const res = await b.api.get('/api/v1/issues?limit=200');
    const mine = new Set(made.map((issue) => issue.id));
    assert.ok(res.body.data.every((issue: { id: string }) => !mine.has(issue.id)));
    assert.equal((await b.api.get(`/api/v1/issues?product_id=${product.id}`)).body.pagination.total, 0);
    assert.ok((await a.api.get('/api/v1/issues')).body.pagination.total >= 7);
  });

  it('is readable with a read-only key', async () => {
    assert.equal((await ctx().client(ctx().a.readOnlyKey).get('/api/v1/issues')).status, 200);
  });
});

describeEachDialect('deprecated /api/v1/actions', (ctx) => {
  it('answers like /issues with Deprecation and Link headers', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api, { issue_prefix: 'ACT' });
    const created = await a.api.post('/api/v1/actions', { product_id: product.id, title: 'Via alias' });
    assert.equal(created.status, 201);
    assert.equal(created.headers.deprecation, 'true');
    assert.equal(created.headers.link, '</api/v1/issues>; rel="successor-version"');

    const got = await a.api.get('/api/v1/actions/act-1');
    assert.equal(got.status, 200);
    assert.equal(got.headers.link, '</api/v1/issues/act-1>; rel="successor-version"');
    assert.deepEqual(got.body, (await a.api.get('/api/v1/issues/act-1')).body);

    const patched = await a.api.patch(`/api/v1/actions/${created.body.data.id}`, { priority: 'high' });
    assert.equal(patched.body.data.priority, 'high');
    assert.equal(patched.headers.deprecation, 'true');

    const listed = await a.api.get(`/api/v1/actions?product_id=${product.id}`);
    assert.deepEqual(listed.body, (await a.api.get(`/api/v1/issues?product_id=${product.id}`)).body);

    const missing = await a.api.get(`/api/v1/actions/${MISSING}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.deprecation, 'true');
  });

  it('does not add the headers to /issues', async () => {
    const res = await ctx().a.api.get('/api/v1/issues');
    assert.equal(res.headers.deprecation, undefined);
  });

  it('is marked deprecated in openapi.json', async () => {
    const doc = (await ctx().a.api.get('/api/v1/openapi.json')).body;
    for (const method of ['get', 'post']) assert.equal(doc.paths['/api/v1/actions'][method].deprecated, true);
    for (const method of ['get', 'patch']) assert.equal(doc.paths['/api/v1/actions/{id}'][method].deprecated, true);
    assert.equal(doc.paths['/api/v1/issues'].get.deprecated, undefined);
  });
});
