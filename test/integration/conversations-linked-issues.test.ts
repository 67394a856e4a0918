// [ext] linked_issues on a conversation's detail (docs/api.md "Conversations and messages"): the
// issues it is linked to, in link order, from one query that is scoped to the workspace on both
// the link and the issue.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createIssue, createProduct, importConversation, linkConversation } from '../helpers/factories.js';
import { describeEachDialect } from '../helpers/harness.js';

const BASE = '/api/v1/conversations';
const summary = (issue: any) => ({ id: issue.id, shortcode: issue.shortcode, title: issue.title, status: issue.status });

describeEachDialect('linked_issues on GET /api/v1/conversations/{id} [ext]', (ctx) => {
  const arrange = async () => {
    const product = await createProduct(ctx().a.api);
    const conversation = await importConversation(ctx().a.api, product.id, { body: 'The export is empty.' });
    return { product, conversation };
  };
  const linkedIssues = async (id: string) => {
    const res = await ctx().a.api.get(`${BASE}/${id}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data.linked_issues;
  };

  it('is empty on a new conversation, in the import\'s answer and afterwards', async () => {
    const { conversation } = await arrange();
    assert.deepEqual(conversation.linked_issues, []);
    assert.deepEqual(await linkedIssues(conversation.id), []);
  });

  it('lists each linked issue once, in the order they were linked, with its current status', async () => {
    const { product, conversation } = await arrange();
    const first = await createIssue(ctx().a.api, product.id, { title: 'CSV export writes no rows' });
    const second = await createIssue(ctx().a.api, product.id, { status: 'in_progress' });
    await linkConversation(ctx().a.api, second.id, conversation.id);
    await linkConversation(ctx().a.api, first.id, conversation.id);
    await linkConversation(ctx().a.api, first.id, conversation.id);
    assert.deepEqual(await linkedIssues(conversation.id), [summary(second), summary(first)]);

    const done = (await ctx().a.api.patch(`/api/v1/issues/${first.id}`, { status: 'done' })).body.data;
    assert.deepEqual(await linkedIssues(conversation.id), [summary(second), summary(done)]);
  });

  it('drops an unlinked issue and leaves other conversations\' links alone', async () => {
    const { product, conversation } = await arrange();
    const other = await importConversation(ctx().a.api, product.id);
    const issue = await createIssue(ctx().a.api, product.id);
    await linkConversation(ctx().a.api, issue.id, conversation.id);
    await linkConversation(ctx().a.api, issue.id, other.id);
    const res = await ctx().a.api.delete(`/api/v1/issues/${issue.id}/conversations/${conversation.id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await linkedIssues(conversation.id), []);
    assert.deepEqual(await linkedIssues(other.id), [summary(issue)]);
  });

  it('carries the links in the conversation.updated event too', async () => {
    const { product, conversation } = await arrange();
    const issue = await createIssue(ctx().a.api, product.id);
    await linkConversation(ctx().a.api, issue.id, conversation.id);
    await ctx().a.api.patch(`${BASE}/${conversation.id}`, { status: 'in_progress' });
    const { db } = ctx().database;
    const events = await db.selectFrom('events').select('payload').where('workspace_id', '=', ctx().a.id).where('type', '=', 'conversation.updated').execute();
    const event = events.map((e) => JSON.parse(e.payload).data).find((data) => data.id === conversation.id);
    assert.deepEqual(event.linked_issues, [summary(issue)]);
  });

  it('never shows another workspace\'s issue, even through a link row written past the API', async () => {
    const { product, conversation } = await arrange();
    const own = await createIssue(ctx().a.api, product.id);
    await linkConversation(ctx().a.api, own.id, conversation.id);
    const foreign = await createIssue(ctx().b.api, (await createProduct(ctx().b.api)).id);
    const { db } = ctx().database;
    // A's conversation linked to B's issue, under each workspace's id in turn: neither may surface.
    for (const workspaceId of [ctx().a.id, ctx().b.id]) {
      const link = { issue_id: foreign.id, conversation_id: conversation.id, workspace_id: workspaceId, created_at: new Date().toISOString() };
      await db.insertInto('issue_conversations').values(link).execute();
      assert.deepEqual(await linkedIssues(conversation.id), [summary(own)], `a link row under ${workspaceId === ctx().a.id ? 'A' : 'B'}`);
      await db.deleteFrom('issue_conversations').where('issue_id', '=', foreign.id).execute();
    }
    assert.equal((await ctx().b.api.get(`${BASE}/${conversation.id}`)).status, 404);
  });
});
