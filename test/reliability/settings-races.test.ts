// Settings writes racing each other, with many requests in flight at once, round after round: a
// key created for a member while the member is removed, admins removing each other, owners
// demoting each other, an admin demoted while creating keys, a member removed while its issues
// are edited and shipped. Every decision is taken on rows
// the deciding transaction holds (src/domain/accounts/accounts-lock.ts), so no interleaving
// widens anyone's power, no answer is a 500, and a workspace always keeps an owner.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import type { ApiResponse, Client, TestContext } from '../helpers/harness.js';
import { describeEachDialect } from '../helpers/harness.js';
import { createIssue, createProduct, importConversation } from '../helpers/factories.js';
import { integrityProblems } from '../helpers/integrity.js';
import { manualClock } from '../helpers/manual-clock.js';
import { issueRepository } from '../../src/db/repositories/issue.repository.js';
import { inTransaction } from '../../src/domain/shared/unit-of-work.js';
import { newPerson } from '../helpers/sessions.js';

const ROUNDS = [1, 2, 3, 4, 5];
const KEYS_IN_FLIGHT = 20;
const ISSUES_OF_REMOVED = 12;

async function keyOf(context: TestContext, memberId: string): Promise<Client> {
  const res = await context.a.api.post('/api/v1/api-keys', { member_id: memberId });
  assert.equal(res.status, 201, res.text);
  return context.client(res.body.data.key);
}

const statusesOf = (answers: ApiResponse[]) => answers.map((res) => `${res.status} ${res.body?.error_code ?? ''}`.trim()).join(', ');

describeEachDialect('settings writes racing each other', (ctx) => {
  for (const round of ROUNDS) {
    it(`never lets a key outlive its member removed meanwhile, nor widen into a key without a member (round ${round})`, async () => {
      const admin = await newPerson(ctx(), ctx().a, 'admin');
      const adminApi = await keyOf(ctx(), admin.member.id);
      const target = await newPerson(ctx(), ctx().a);
      const [removal, ...creates] = await Promise.all([
        adminApi.delete(`/api/v1/members/${target.member.id}`),
        ...Array.from({ length: KEYS_IN_FLIGHT }, () => adminApi.post('/api/v1/api-keys', { member_id: target.member.id })),
      ]);
      assert.equal(removal.status, 204, removal.text);
      const refused = creates.filter((res) => res.status === 400);
      assert.ok(refused.every((res) => res.body.fields?.member_id), statusesOf(refused));
      const created = creates.filter((res) => res.status === 201);
      assert.equal(created.length + refused.length, KEYS_IN_FLIGHT, statusesOf(creates));
      for (const res of created) {
        const me = await ctx().client(res.body.data.key).get('/api/v1/me');
        assert.equal(me.status, 401, `a key made for a removed member acts as nobody: ${me.text}`);
      }
      const keys = (await ctx().a.api.get('/api/v1/api-keys?limit=200')).body.data as { member_id: string | null }[];
      assert.ok(keys.every((key) => key.member_id !== target.member.id), 'none of its keys is listed as working');
      assert.equal((await adminApi.patch(`/api/v1/members/${admin.member.id}`, { role: 'owner' })).status, 403, 'the admin is still no owner');
    });

    it(`lets one of two admins removing each other win, and the loser's request fail (round ${round})`, async () => {
      const [first, second] = [await newPerson(ctx(), ctx().a, 'admin'), await newPerson(ctx(), ctx().a, 'admin')];
      const answers = await Promise.all([
        first.app.delete(`/api/v1/members/${second.member.id}`),
        second.app.delete(`/api/v1/members/${first.member.id}`),
      ]);
      assert.deepEqual(answers.map((res) => res.status).sort(), [204, 401], statusesOf(answers));
      const ids = ((await ctx().a.api.get('/api/v1/members?limit=200')).body.data as { id: string }[]).map((m) => m.id);
      assert.equal([first.member.id, second.member.id].filter((id) => ids.includes(id)).length, 1, 'exactly one of them is left');
    });

    it(`keeps an owner when two owners demote each other at once (round ${round})`, async () => {
      const workspace = ctx().b;
      const [first, second] = [await newPerson(ctx(), workspace, 'owner'), await newPerson(ctx(), workspace, 'owner')];
      await workspace.api.patch(`/api/v1/members/${workspace.owner.id}`, { role: 'admin' });
      const answers = await Promise.all([
        first.app.patch(`/api/v1/members/${second.member.id}`, { role: 'agent' }),
        second.app.patch(`/api/v1/members/${first.member.id}`, { role: 'agent' }),
      ]);
      assert.deepEqual(answers.map((res) => res.status).sort(), [200, 403], statusesOf(answers));
      const owners = ((await workspace.api.get('/api/v1/members?limit=200')).body.data as { role: string }[]).filter((m) => m.role === 'owner');
      assert.equal(owners.length, 1);
      // Hand the workspace back to its fixture owner for the next round.
      const remaining = answers[0].status === 200 ? first : second;
      assert.equal((await remaining.app.patch(`/api/v1/members/${workspace.owner.id}`, { role: 'owner' })).status, 200);
      for (const person of [first, second]) await workspace.api.delete(`/api/v1/members/${person.member.id}`);
    });

    it(`loses no edit or release of the issues of a member removed meanwhile, and keeps their tallies (round ${round})`, async () => {
      const { api } = ctx().a;
      const target = await newPerson(ctx(), ctx().a);
      const product = await createProduct(api, { name: `Removal race ${round}` });
      const issues = await Promise.all(Array.from({ length: ISSUES_OF_REMOVED }, (_, i) =>
        createIssue(api, product.id, { title: `Assigned ${i}`, assignee_id: target.member.id, status: i % 2 ? 'done' : 'pending' }),
      ));
      const [edited, shipped] = [issues.filter((_, i) => i % 2 === 0), issues.filter((_, i) => i % 2 === 1)];
      const answers = await Promise.all([
        api.delete(`/api/v1/members/${target.member.id}`),
        ...edited.map((issue, i) => api.patch(`/api/v1/issues/${issue.id}`, { title: `Edited ${i}`, status: 'in_progress' })),
        api.post('/api/v1/releases', { product_id: product.id, title: `Removal race ${round}`, issue_ids: shipped.map((issue) => issue.id) }),
      ]);
      assert.ok(answers.every((res) => res.status < 300), statusesOf(answers));
      const after = new Map(((await api.get(`/api/v1/issues?product_id=${product.id}&limit=100`)).body.data as any[]).map((issue) => [issue.id, issue]));
      for (const [i, issue] of edited.entries()) {
        assert.deepEqual([after.get(issue.id).title, after.get(issue.id).status, after.get(issue.id).assignee_id], [`Edited ${i}`, 'in_progress', null]);
      }
      for (const issue of shipped) assert.deepEqual([after.get(issue.id).status, after.get(issue.id).assignee_id], ['released', null]);
      assert.deepEqual(await integrityProblems(ctx().database.db), []);
    });

    it(`assigns no issue or conversation to a member removed meanwhile, and keeps their tallies (round ${round})`, async () => {
      const { api } = ctx().a;
      const target = await newPerson(ctx(), ctx().a);
      const product = await createProduct(api, { name: `Assignment race ${round}` });
      const issues = await Promise.all(Array.from({ length: ISSUES_OF_REMOVED }, (_, i) => createIssue(api, product.id, { title: `Unassigned ${i}` })));
      const conversations = await Promise.all(Array.from({ length: ISSUES_OF_REMOVED / 2 }, (_, i) => importConversation(api, product.id, { title: `Chat ${i}` })));
      const answers = await Promise.all([
        ...issues.slice(0, ISSUES_OF_REMOVED / 2).map((issue) => api.patch(`/api/v1/issues/${issue.id}`, { assignee_id: target.member.id })),
        api.delete(`/api/v1/members/${target.member.id}`),
        ...issues.slice(ISSUES_OF_REMOVED / 2).map((issue) => api.patch(`/api/v1/issues/${issue.id}`, { assignee_id: target.member.id })),
        ...conversations.map((conversation) => api.patch(`/api/v1/conversations/${conversation.id}`, { assignee_id: target.member.id })),
      ]);
      const refused = answers.filter((res) => res.status === 400);
      assert.ok(answers.every((res) => res.status < 300 || (res.status === 400 && res.body.fields?.assignee_id)), statusesOf(answers));
      const after = ((await api.get(`/api/v1/issues?product_id=${product.id}&limit=100`)).body.data as any[]);
      assert.deepEqual(after.filter((issue) => issue.assignee_id !== null).map((issue) => issue.title), [], `${refused.length} refused`);
      assert.deepEqual(await integrityProblems(ctx().database.db), []);
    });

    it(`gives an admin demoted meanwhile no settings write after the demotion committed (round ${round})`, async () => {
      const admin = await newPerson(ctx(), ctx().a, 'admin');
      const agent = await newPerson(ctx(), ctx().a);
      const [demotion, ...creates] = await Promise.all([
        ctx().a.api.patch(`/api/v1/members/${admin.member.id}`, { role: 'agent' }),
        ...Array.from({ length: KEYS_IN_FLIGHT }, () => admin.app.post('/api/v1/api-keys', { member_id: agent.member.id })),
      ]);
      assert.equal(demotion.status, 200, demotion.text);
      assert.ok(creates.every((res) => res.status === 201 || res.status === 403), statusesOf(creates));
      const demotedAt = Date.parse(demotion.headers.date as string);
      for (const res of creates.filter((r) => r.status === 201)) {
        assert.ok(Date.parse(res.body.data.created_at) <= demotedAt + 1000, 'made before the demotion');
      }
      assert.equal((await admin.app.post('/api/v1/api-keys', { member_id: agent.member.id })).status, 403);
    });
  }
});

/** On PostgreSQL, resolves once a statement of the test's database waits for a lock another transaction holds. */
async function someoneWaitsForALock(context: TestContext): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`
      .execute(context.database.db);
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const clock = manualClock();

describeEachDialect('a member removed while one of their issues is being written', (ctx) => {
  it('waits for the issue\'s lock, keeps that write, and stamps the unassignment after it', async () => {
    const { api, id: workspaceId } = ctx().a;
    const target = await newPerson(ctx(), ctx().a);
    const product = await createProduct(api, { name: 'Removal waits' });
    const issue = await createIssue(api, product.id, { title: 'Before', assignee_id: target.member.id });
    let holding!: () => void;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    let stamp = '';
    // A PATCH of the issue, its lock taken, not committed until the removal has started.
    const writer = inTransaction(ctx().database.db, async (work) => {
      await ctx().services.issueWrites.lock(work, [issue.id]);
      holding();
      await released;
      clock.advance(1_000);
      stamp = clock.now();
      const current = (await issueRepository(ctx().database.db).findById(workspaceId, issue.id, work.tx))!;
      await ctx().services.issueWrites.update(work, current, { title: 'Written under the lock', status: 'in_progress', updated_at: stamp });
    });
    await held;
    const removal = api.delete(`/api/v1/members/${target.member.id}`);
    // SQLite: the removal cannot begin while the writer's transaction holds the file's write lock.
    if (ctx().dialect === 'postgres') await someoneWaitsForALock(ctx());
    release();
    await writer;
    assert.equal((await removal).status, 204);

    const after = (await api.get(`/api/v1/issues/${issue.id}`)).body.data;
    assert.deepEqual([after.title, after.status, after.assignee_id], ['Written under the lock', 'in_progress', null]);
    assert.ok(after.updated_at >= stamp, `the unassignment (${after.updated_at}) is stamped no earlier than the write it waited for (${stamp})`);
    assert.deepEqual(await integrityProblems(ctx().database.db), []);
  });
}, { clock });
