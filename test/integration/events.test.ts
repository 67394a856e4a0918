// Every committed change records its event in the same transaction (docs/events.md): the right
// type, the resource as its GET detail shows it, `previous` on *.updated; nothing for a write that
// fails or changes nothing.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createIssue, createProduct, createRelease, importConversation } from '../helpers/factories.js';
import { recorded } from '../helpers/events.js';
import { describeEachDialect, type ApiResponse } from '../helpers/harness.js';

describeEachDialect('events recorded by writes', (ctx) => {
  it('product.created and product.updated carry the product and the changed fields\' old values', async () => {
    const { api, id: workspaceId } = ctx().a;
    let product: any;
    const [created] = await recorded(ctx(), async () => (product = await createProduct(api, { name: 'Evented' })));
    assert.equal(created.type, 'product.created');
    assert.equal(created.workspace_id, workspaceId);
    assert.equal(created.payload.type, 'product.created');
    assert.match(created.payload.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(created.payload.data, (await api.get(`/api/v1/products/${product.id}`)).body.data);

    const events = await recorded(ctx(), () => api.patch(`/api/v1/products/${product.id}`, { name: 'Evented 2', widget_config: { color: '#123456' } }));
    assert.deepEqual(events.map((e) => e.type), ['product.updated']);
    const { data } = events[0].payload;
    const { previous, ...resource } = data;
    assert.deepEqual(resource, (await api.get(`/api/v1/products/${product.id}`)).body.data);
    assert.deepEqual(previous, { name: 'Evented', widget_config: null, updated_at: product.updated_at });
  });

  it('records nothing for a PATCH that changes nothing, or a write that fails', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const issue = await createIssue(api, product.id);
    const none = await recorded(ctx(), async () => {
      await api.patch(`/api/v1/issues/${issue.id}`, { title: issue.title });
      await api.patch(`/api/v1/products/${product.id}`, { name: product.name });
      assert.equal((await api.post('/api/v1/issues', { product_id: product.id, title: '' })).status, 400);
      const other = await createProduct(api);
      // Fails inside its transaction: the slug is taken.
      assert.equal((await api.patch(`/api/v1/products/${product.id}`, { slug: other.slug })).status, 400);
    });
    assert.deepEqual(none.map((e) => e.type), ['product.created']);
  });

  it('issue.created and issue.updated carry the issue as GET shows it', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    let issue: any;
    const [created] = await recorded(ctx(), async () => (issue = await createIssue(api, product.id, { priority: 'high' })));
    assert.equal(created.type, 'issue.created');
    assert.deepEqual(created.payload.data, (await api.get(`/api/v1/issues/${issue.id}`)).body.data);

    const [updated, ...rest] = await recorded(ctx(), () => api.patch(`/api/v1/issues/${issue.shortcode}`, { status: 'in_progress', priority: 'urgent' }));
    assert.equal(rest.length, 0);
    assert.equal(updated.type, 'issue.updated');
    const { previous, ...resource } = updated.payload.data;
    assert.deepEqual(resource, (await api.get(`/api/v1/issues/${issue.id}`)).body.data);
    assert.deepEqual(previous, { status: 'pending', priority: 'high', updated_at: issue.updated_at });
  });

  it('records a link and an unlink as issue.updated with the conversations it had, and a repeated link as nothing', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const issue = await createIssue(api, product.id);
    const conversation = await importConversation(api, product.id);
    const [linked] = await recorded(ctx(), () => api.post(`/api/v1/issues/${issue.id}/conversations`, { conversation_id: conversation.id }));
    assert.equal(linked.type, 'issue.updated');
    assert.deepEqual(linked.payload.data.previous, { linked_conversations: [] });
    assert.deepEqual(linked.payload.data.linked_conversations.map((c: { id: string }) => c.id), [conversation.id]);
    assert.deepEqual(await recorded(ctx(), () => api.post(`/api/v1/issues/${issue.id}/conversations`, { conversation_id: conversation.id })), []);
    const [unlinked] = await recorded(ctx(), () => api.delete(`/api/v1/issues/${issue.id}/conversations/${conversation.id}`));
    assert.deepEqual(unlinked.payload.data.previous.linked_conversations.map((c: { id: string }) => c.id), [conversation.id]);
    assert.deepEqual(unlinked.payload.data.linked_conversations, []);
  });

  it('conversation.created, message.created and conversation.updated', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    let conversation: any;
    const imported = await recorded(ctx(), async () => (conversation = await importConversation(api, product.id, { body: 'It broke.' })));
    assert.deepEqual(imported.map((e) => e.type), ['conversation.created', 'message.created']);
    assert.deepEqual(imported[0].payload.data, (await api.get(`/api/v1/conversations/${conversation.id}`)).body.data);
    assert.deepEqual(imported[1].payload.data, { ...conversation.messages[0], conversation_id: conversation.id });

    const [reply] = await recorded(ctx(), () => api.post(`/api/v1/conversations/${conversation.id}/messages`, { body: 'On it.' }));
    assert.equal(reply.type, 'message.created');
    assert.equal(reply.payload.data.body, 'On it.');
    assert.equal(reply.payload.data.conversation_id, conversation.id);

    const before = (await api.get(`/api/v1/conversations/${conversation.id}`)).body.data;
    const [updated] = await recorded(ctx(), () => api.patch(`/api/v1/conversations/${conversation.id}`, { status: 'resolved' }));
    assert.equal(updated.type, 'conversation.updated');
    const { previous, ...resource } = updated.payload.data;
    assert.deepEqual(resource, (await api.get(`/api/v1/conversations/${conversation.id}`)).body.data);
    assert.deepEqual(previous, { status: 'open', updated_at: before.updated_at });
  });

  it('a published release records release.created, release.published and each shipped issue\'s update', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const issues = [await createIssue(api, product.id, { status: 'done' }), await createIssue(api, product.id, { status: 'done' })];
    let release: any;
    const events = await recorded(ctx(), async () => (release = await createRelease(api, product.id, { issue_ids: issues.map((i) => i.id) })));
    assert.deepEqual(events.map((e) => e.type).sort(), ['issue.updated', 'issue.updated', 'release.created', 'release.published']);
    const detail = (await api.get(`/api/v1/releases/${release.id}`)).body.data;
    for (const event of events.filter((e) => e.type.startsWith('release.'))) assert.deepEqual(event.payload.data, detail);
    for (const event of events.filter((e) => e.type === 'issue.updated')) {
      assert.equal(event.payload.data.status, 'released');
      assert.equal(event.payload.data.previous.status, 'done');
    }
  });

  it('a draft records release.created only, and release.published when it gets its date', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    let draft: any;
    assert.deepEqual((await recorded(ctx(), async () => (draft = await createRelease(api, product.id, { released_at: null })))).map((e) => e.type), ['release.created']);
    const retitled = await recorded(ctx(), () => api.patch(`/api/v1/releases/${draft.id}`, { title: 'Renamed draft' }));
    assert.deepEqual(retitled.map((e) => e.type), ['release.updated']);
    assert.equal(retitled[0].payload.data.previous.title, draft.title);
    const published = await recorded(ctx(), () => api.patch(`/api/v1/releases/${draft.id}`, { released_at: '2026-11-23T09:00:00.000Z' }));
    assert.deepEqual(published.map((e) => e.type), ['release.updated', 'release.published']);
    assert.equal(published[0].payload.data.previous.released_at, null);
    const again = await recorded(ctx(), () => api.patch(`/api/v1/releases/${draft.id}`, { released_at: '2026-11-24T09:00:00.000Z' }));
    assert.deepEqual(again.map((e) => e.type), ['release.updated'], 'a new date on a published release is an update');
  });

  it('the deduplicating create records issue.created with its source and link, and a match with a new link as issue.updated', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    const conversation = await importConversation(api, product.id);
    const created = await recorded(ctx(), () => api.post('/api/v1/issues/maybe', { product_id: product.id, title: 'Export button does nothing', conversation_id: conversation.id }));
    assert.deepEqual(created.map((e) => e.type), ['issue.created']);
    assert.equal(created[0].payload.data.sources_count, 1);
    assert.equal(created[0].payload.data.linked_conversations.length, 1);

    const second = await importConversation(api, product.id);
    const matched = await recorded(ctx(), () => api.post('/api/v1/issues/maybe', { product_id: product.id, title: 'Export button does nothing', conversation_id: second.id }));
    assert.deepEqual(matched.map((e) => e.type), ['issue.updated']);
    assert.equal(matched[0].payload.data.linked_conversations.length, 2);
  });

  it('records one event per write under 200 concurrent writes', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api);
    let results: ApiResponse[] = [];
    const events = await recorded(ctx(), async () => {
      results = await Promise.all(Array.from({ length: 200 }, (_, i) => api.post('/api/v1/issues', { product_id: product.id, title: `Concurrent ${i}` })));
    });
    assert.ok(results.every((res) => res.status === 201));
    assert.equal(events.length, 200);
    assert.deepEqual(new Set(events.map((e) => e.payload.data.id)), new Set(results.map((res) => res.body.data.id)));
  });

  it('keeps each workspace\'s events its own', async () => {
    const { a, b } = ctx();
    const events = await recorded(ctx(), async () => {
      await createProduct(a.api);
      await createProduct(b.api);
    });
    assert.deepEqual(events.map((e) => e.workspace_id), [a.id, b.id]);
  });
});
