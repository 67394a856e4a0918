// pagination.total of GET /issues comes from issue_tallies (migration 0005), kept by every issue
// write. After random and concurrent creates, PATCHes, releases and deduplicating creates, every
// filter's total must equal the issues it lists, and the tallies must equal a count of the issues.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Migrator } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { freshDatabaseUrl } from '../helpers/databases.js';
import { createIssue, createIssueMaybe, createProduct, createRelease } from '../helpers/factories.js';
import { describeEachDialect, unique, type Client } from '../helpers/harness.js';
import { integrityProblems } from '../helpers/integrity.js';

const STATUSES = ['pending', 'in_progress', 'icebox', 'done', 'released', 'dismissed'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];

/** A deterministic pseudo-random sequence (mulberry32), so a failure replays. */
function randomFrom(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

/** Every issue of the workspace, read page by page. */
async function allIssues(api: Client): Promise<any[]> {
  const issues: any[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api.get(`/api/v1/issues?limit=200&offset=${offset}`);
    assert.equal(page.status, 200, page.text);
    issues.push(...page.body.data);
    if (page.body.data.length < 200) return issues;
  }
}

describeEachDialect('pagination.total of GET /api/v1/issues (issue tallies)', (ctx) => {
  it('equals the matching issues after random creates, PATCHes, releases and deduplicating creates', async () => {
    const { a, b, services } = ctx();
    const random = randomFrom(20261121);
    const agent = await services.admin.createMember({ workspaceId: a.id, name: 'Tally Agent', role: 'agent' });
    const assignees = [a.owner.id, agent.id, null];
    const products = [await createProduct(a.api, { name: unique('Tally') }), await createProduct(a.api, { name: unique('Tally') })];
    await createIssue(b.api, (await createProduct(b.api, { name: unique('Other') })).id, { title: 'Elsewhere' });

    const ids: { id: string; product_id: string }[] = [];
    for (let step = 0; step < 120; step++) {
      const roll = random.next();
      if (roll < 0.35 || ids.length < 5) {
        const issue = await createIssue(a.api, random.pick(products).id, {
          title: unique('Tallied'), status: random.pick(STATUSES),
          priority: random.pick(PRIORITIES), assignee_id: random.pick(assignees),
        });
        ids.push(issue);
      } else if (roll < 0.8) {
        const body: Record<string, unknown> = {};
        if (random.next() < 0.6) body.status = random.pick(STATUSES);
        if (random.next() < 0.5) body.priority = random.pick(PRIORITIES);
        if (random.next() < 0.5) body.assignee_id = random.pick(assignees);
        if (random.next() < 0.2) body.title = unique('Renamed');
        const res = await a.api.patch(`/api/v1/issues/${random.pick(ids).id}`, body);
        assert.equal(res.status, 200, res.text);
      } else if (roll < 0.9) {
        const product = random.pick(products);
        const ofProduct = ids.filter((issue) => issue.product_id === product.id).slice(-4).map((issue) => issue.id);
        await createRelease(a.api, product.id, { title: unique('Release'), issue_ids: ofProduct });
      } else {
        const { data: issue } = await createIssueMaybe(a.api, random.pick(products).id, {
          title: random.next() < 0.5 ? 'Checkout button does nothing' : unique('Fresh report'),
          priority: random.pick(PRIORITIES),
        });
        if (!ids.some((known) => known.id === issue.id)) ids.push(issue);
      }
    }

    const everything = await allIssues(a.api);
    assert.equal(everything.length, ids.length);
    const filters: { query: string; keep: (issue: any) => boolean }[] = [
      { query: '', keep: () => true },
      { query: 'status=pending,in_progress', keep: (i) => ['pending', 'in_progress'].includes(i.status) },
      { query: 'status=released', keep: (i) => i.status === 'released' },
      { query: 'priority=urgent,low', keep: (i) => ['urgent', 'low'].includes(i.priority) },
      { query: 'assignee_id=none', keep: (i) => i.assignee_id === null },
      { query: `assignee_id=${agent.id},none`, keep: (i) => i.assignee_id === agent.id || i.assignee_id === null },
      { query: 'assignee_id=me&status=done,dismissed', keep: (i) => i.assignee_id === a.owner.id && ['done', 'dismissed'].includes(i.status) },
      { query: `product_id=${products[1].id}&priority=normal`, keep: (i) => i.product_id === products[1].id && i.priority === 'normal' },
      { query: `product_id=${products[0].id}&status=icebox&assignee_id=${a.owner.id}`, keep: (i) => i.product_id === products[0].id && i.status === 'icebox' && i.assignee_id === a.owner.id },
    ];
    for (const { query, keep } of filters) {
      const page = await a.api.get(`/api/v1/issues?limit=1&${query}`);
      assert.equal(page.status, 200, page.text);
      assert.equal(page.body.pagination.total, everything.filter(keep).length, `total for "${query}"`);
    }
    assert.equal((await b.api.get('/api/v1/issues')).body.pagination.total, 1, 'another workspace counts only its own');
    assert.deepEqual(await integrityProblems(ctx().database.db), []);
  });

  it('stays exact under concurrent PATCHes, creates and releases of one product', async () => {
    const { a } = ctx();
    const product = await createProduct(a.api, { name: unique('Race') });
    const issues = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        createIssue(a.api, product.id, { title: unique('Race'), status: STATUSES[i % 4], priority: PRIORITIES[i % 4] })),
    );
    // Opposite moves between the same tally rows, the shape that deadlocks writers that lock
    // rows in different orders.
    const writes = [
      ...issues.slice(0, 16).map((issue, i) =>
        a.api.patch(`/api/v1/issues/${issue.id}`, { status: STATUSES[(i + 1) % 4], priority: PRIORITIES[(i + 3) % 4] })),
      ...Array.from({ length: 8 }, (_, i) =>
        a.api.post('/api/v1/issues', { product_id: product.id, title: unique('Racing'), status: STATUSES[i % 4] })),
      a.api.post('/api/v1/releases', { product_id: product.id, title: 'Race release', issue_ids: issues.slice(16, 24).map((issue) => issue.id) }),
    ];
    for (const res of await Promise.all(writes)) assert.ok(res.status === 200 || res.status === 201, res.text);
    const listed = await a.api.get(`/api/v1/issues?product_id=${product.id}&status=released`);
    assert.equal(listed.body.pagination.total, listed.body.data.length);
    assert.equal((await a.api.get(`/api/v1/issues?product_id=${product.id}`)).body.pagination.total, 32);
    assert.deepEqual(await integrityProblems(ctx().database.db), []);
  });

  it('migration 0005 counts the issues that existed before it', async () => {
    const { dialect } = ctx();
    const database = createDatabase(await freshDatabaseUrl(dialect));
    try {
      const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations(database.dialect.columnTypes, database.dialect.name) } });
      const before = await migrator.migrateTo('0004_bench_indexes');
      assert.equal(before.error, undefined);
      const { db } = database;
      const workspace = { id: '01900000-0000-7000-8000-00000000aa01', name: 'Old', created_at: '2026-01-01T00:00:00.000Z' };
      await db.insertInto('workspaces').values(workspace).execute();
      const product = {
        id: '01900000-0000-7000-8000-00000000aa02', workspace_id: workspace.id, name: 'Old', slug: 'old', issue_prefix: 'OLD',
        widget_key: 'w', product_key: 'p', widget_config: null, domain: null, created_at: workspace.created_at, updated_at: workspace.created_at,
      };
      // A product as migration 0004 knew it: today's row type has columns added since (triage).
      await db.insertInto('products').values(product as never).execute();
      const statuses = ['pending', 'pending', 'done', 'pending'];
      await db.insertInto('issues').values(statuses.map((status, i) => ({
        id: `01900000-0000-7000-8000-00000000ab0${i}`, workspace_id: workspace.id, product_id: product.id, shortcode: `OLD-${i + 1}`,
        title: `Old ${i}`, description: null, status, priority: 'normal', assignee_id: null, resolution_comment: null, is_ai_generated: 0,
        created_at: workspace.created_at, updated_at: workspace.created_at,
      })) as never).execute();
      await database.migrate();
      const tallies = await db.selectFrom('issue_tallies').select(['status', 'assignee_key', 'issue_count']).orderBy('status').execute();
      assert.deepEqual(tallies.map((row) => ({ ...row, issue_count: Number(row.issue_count) })), [
        { status: 'done', assignee_key: '', issue_count: 1 },
        { status: 'pending', assignee_key: '', issue_count: 3 },
      ]);
    } finally {
      await database.close();
    }
  });
});
