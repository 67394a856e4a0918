// Suggestions (docs/triage.md): a conversation's list, the triage queue, accept (link, redirect,
// create with edits) and dismiss, with their validation, isolation, read-only keys and events.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { apiKeyIdOf, createIssue, createProduct } from '../helpers/factories.js';
import { describeEachDialect, type TestContext } from '../helpers/harness.js';
import {
  assertPayloadsDocumented, conversationFrom, CSV_ISSUE, CSV_PARAPHRASE, CSV_REPEAT, eventsOf, sourcesOf, triage, UNRELATED,
} from '../helpers/triage.js';

const MISSING = '01900000-0000-7000-8000-000000000000';

/** A product with the CSV issue, and a link and a create suggestion for two of its conversations. */
async function suggestions(c: TestContext) {
  const { api } = c.a;
  const product = await createProduct(api);
  const csv = await createIssue(api, product.id, CSV_ISSUE);
  const repeat = await conversationFrom(api, product.id, CSV_REPEAT);
  const paraphrase = await conversationFrom(api, product.id, CSV_PARAPHRASE, { priority: 'high' });
  return { api, product, csv, repeat, paraphrase, link: await triage(api, repeat.id), create: await triage(api, paraphrase.id) };
}

describeEachDialect('GET /api/v1/conversations/{id}/suggestions [ext]', (ctx) => {
  it('lists the conversation\'s suggestions of every status, oldest first, a page at a time', async () => {
    const { api, repeat, link } = await suggestions(ctx());
    await api.post(`/api/v1/suggestions/${link.id}/dismiss`);
    const second = await triage(api, repeat.id);
    const res = await api.get(`/api/v1/conversations/${repeat.id}/suggestions`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.map((s: any) => [s.id, s.status]), [[link.id, 'dismissed'], [second.id, 'open']]);
    assert.deepEqual(res.body.pagination, { total: 2, limit: 50, offset: 0 });
    const page = await api.get(`/api/v1/conversations/${repeat.id}/suggestions?limit=1&offset=1`);
    assert.deepEqual(page.body.data.map((s: any) => s.id), [second.id]);
    assert.deepEqual(page.body.pagination, { total: 2, limit: 1, offset: 1 });
  });

  it('answers 404 for an unknown, malformed or other workspace\'s conversation, and 400 for a bad page', async () => {
    const { a, b } = ctx();
    const { repeat } = await suggestions(ctx());
    for (const id of [MISSING, 'nope']) assert.equal((await a.api.get(`/api/v1/conversations/${id}/suggestions`)).status, 404);
    assert.equal((await b.api.get(`/api/v1/conversations/${repeat.id}/suggestions`)).status, 404);
    for (const query of ['limit=0', 'limit=201', 'offset=-1']) {
      const res = await a.api.get(`/api/v1/conversations/${repeat.id}/suggestions?${query}`);
      assert.equal(res.status, 400);
      assert.ok(res.body.fields[query.split('=')[0]]);
    }
    assert.equal((await ctx().client(a.readOnlyKey).get(`/api/v1/conversations/${repeat.id}/suggestions`)).status, 200);
  });
});

describeEachDialect('GET /api/v1/suggestions (the triage queue) [ext]', (ctx) => {
  it('lists open suggestions by default, oldest first, filtered by status, product_id and kind', async () => {
    const { a, b } = ctx();
    const first = await suggestions(ctx());
    const second = await suggestions(ctx());
    await createIssue(b.api, (await createProduct(b.api)).id, CSV_ISSUE);
    await a.api.post(`/api/v1/suggestions/${second.create.id}/dismiss`);
    const ids = async (query = '') => {
      const res = await a.api.get(`/api/v1/suggestions${query}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.pagination.total, res.body.data.length);
      return res.body.data.map((s: any) => s.id);
    };
    assert.deepEqual(await ids(), [first.link.id, first.create.id, second.link.id]);
    assert.deepEqual(await ids('?status=dismissed'), [second.create.id]);
    assert.deepEqual(await ids('?status=open,%20dismissed,'), [first.link.id, first.create.id, second.link.id, second.create.id]);
    assert.deepEqual(await ids(`?product_id=${second.product.id}&status=open,dismissed`), [second.link.id, second.create.id]);
    assert.deepEqual(await ids('?kind=create'), [first.create.id]);
    assert.deepEqual(await ids('?status=accepted'), []);
    assert.deepEqual(await ids(`?product_id=${MISSING}`), []);
    const page = await a.api.get('/api/v1/suggestions?limit=2&offset=1');
    assert.deepEqual(page.body.pagination, { total: 3, limit: 2, offset: 1 });
    assert.deepEqual(page.body.data.map((s: any) => s.id), [first.create.id, second.link.id]);
  });

  it('never lists another workspace\'s suggestions', async () => {
    const { a, b } = ctx();
    const theirs = await suggestions(ctx());
    assert.equal((await b.api.get('/api/v1/suggestions')).body.pagination.total, 0);
    assert.equal((await b.api.get(`/api/v1/suggestions?product_id=${theirs.product.id}`)).body.pagination.total, 0);
    assert.ok((await a.api.get('/api/v1/suggestions')).body.pagination.total > 0);
  });

  it('refuses unknown statuses and kinds, case-sensitively, and a malformed product_id, all in one answer; and a bad page', async () => {
    const { api } = ctx().a;
    const res = await api.get('/api/v1/suggestions?status=Open&kind=merge&product_id=nope');
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.fields).sort(), ['kind', 'product_id', 'status']);
    for (const query of ['limit=0', 'limit=201', 'offset=-1']) {
      const page = await api.get(`/api/v1/suggestions?${query}`);
      assert.equal(page.status, 400);
      assert.ok(page.body.fields[query.split('=')[0]]);
    }
  });
});

describeEachDialect('POST /api/v1/suggestions/{id}/accept [ext]', (ctx) => {
  it('link: links the conversation to the issue through its write path, and records the conversation as its source', async () => {
    const c = ctx();
    const { api, csv, repeat, link } = await suggestions(c);
    let res: any;
    const events = await eventsOf(c, async () => (res = await api.post(`/api/v1/suggestions/${link.id}/accept`)));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { ...link, status: 'accepted', updated_at: res.body.data.updated_at });
    const issue = (await api.get(`/api/v1/issues/${csv.id}`)).body.data;
    assert.deepEqual(issue.linked_conversations.map((conversation: any) => conversation.id), [repeat.id]);
    assert.equal(issue.sources_count, 1);
    assert.equal(issue.is_ai_generated, false);
    assert.deepEqual(events.map((e) => e.type), ['issue.updated', 'suggestion.updated']);
    assert.deepEqual(events[0].payload.data.previous, { linked_conversations: [] });
    assert.deepEqual(events[1].payload.data.previous, { status: 'open', updated_at: link.updated_at });
    await assertPayloadsDocumented(c, events);
    const [source] = await sourcesOf(c, csv.id);
    assert.deepEqual(
      { ...source, score: null },
      { api_key_id: await apiKeyIdOf(api), member_id: c.a.owner.id, title: CSV_REPEAT.title, description: CSV_REPEAT.body, matched_existing: 1, score: null, detector: 'lexical', origin: 'triage' },
    );
    assert.equal(source.score, link.score);
  });

  it('link with issue_id: links the issue a person chose instead (the detector\'s score no longer applies)', async () => {
    const { api, product, repeat, link } = await suggestions(ctx());
    const chosen = await createIssue(api, product.id, { title: 'Exports fail', priority: 'urgent' });
    const res = await api.post(`/api/v1/suggestions/${link.id}/accept`, { issue_id: chosen.id });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.issue, { id: chosen.id, shortcode: chosen.shortcode, title: 'Exports fail', status: 'pending', priority: 'urgent' });
    assert.equal(res.body.data.score, null);
    assert.deepEqual((await api.get(`/api/v1/conversations/${repeat.id}`)).body.data.linked_issues.map((i: any) => i.id), [chosen.id]);
  });

  it('link with issue_id: takes the chosen issue\'s shortcode too, in any case', async () => {
    const { api, product, repeat, link } = await suggestions(ctx());
    const chosen = await createIssue(api, product.id, { title: 'Exports fail' });
    const res = await api.post(`/api/v1/suggestions/${link.id}/accept`, { issue_id: chosen.shortcode.toLowerCase() });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.issue.id, chosen.id);
    assert.deepEqual((await api.get(`/api/v1/conversations/${repeat.id}`)).body.data.linked_issues.map((i: any) => i.id), [chosen.id]);
  });

  it('create: creates the drafted issue (is_ai_generated), links the conversation, and records it as the source', async () => {
    const c = ctx();
    const { api, product, paraphrase, create } = await suggestions(c);
    let res: any;
    const events = await eventsOf(c, async () => (res = await api.post(`/api/v1/suggestions/${create.id}/accept`, {})));
    assert.equal(res.status, 200, res.text);
    const accepted = res.body.data;
    assert.equal(accepted.status, 'accepted');
    const issue = (await api.get(`/api/v1/issues/${accepted.issue.id}`)).body.data;
    assert.deepEqual(
      [issue.product_id, issue.title, issue.description, issue.priority, issue.status, issue.is_ai_generated, issue.sources_count],
      [product.id, CSV_PARAPHRASE.title, null, 'high', 'pending', true, 1],
    );
    assert.deepEqual(issue.linked_conversations.map((conversation: any) => conversation.id), [paraphrase.id]);
    assert.deepEqual(accepted.issue, { id: issue.id, shortcode: issue.shortcode, title: issue.title, status: 'pending', priority: 'high' });
    assert.deepEqual(events.map((e) => e.type), ['issue.created', 'suggestion.updated']);
    assert.deepEqual(events[0].payload.data, issue);
    assert.deepEqual(events[1].payload.data.previous, { status: 'open', issue: null, updated_at: create.updated_at });
    await assertPayloadsDocumented(c, events);
    assert.equal((await sourcesOf(c, issue.id))[0].origin, 'triage');
  });

  it('create: the body edits the draft first (title trimmed, "" clears the description)', async () => {
    const { api, paraphrase } = await suggestions(ctx());
    await ctx().database.db.updateTable('conversations').set({ ai_summary: 'CSV export crashes.' }).where('id', '=', paraphrase.id).execute();
    const draft = await triage(api, paraphrase.id);
    assert.equal(draft.description, 'CSV export crashes.');
    const res = await api.post(`/api/v1/suggestions/${draft.id}/accept`, { title: '  CSV export crashes on large reports ', description: '', priority: 'low' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.data.title, res.body.data.description, res.body.data.priority], ['CSV export crashes on large reports', null, 'low']);
    const issue = (await api.get(`/api/v1/issues/${res.body.data.issue.id}`)).body.data;
    assert.deepEqual([issue.title, issue.description, issue.priority], ['CSV export crashes on large reports', null, 'low']);
  });

  it('refuses bad edits, fields of the other kind and issue ids naming nothing of the product, changing nothing', async () => {
    const { a, b } = ctx();
    const { api, product, link, create } = await suggestions(ctx());
    const otherProductIssue = await createIssue(api, (await createProduct(api)).id);
    const foreignIssue = await createIssue(b.api, (await createProduct(b.api)).id);
    const cases: [any, Record<string, unknown>, string][] = [
      [create, { title: '' }, 'title'],
      [create, { title: '   ' }, 'title'],
      [create, { title: 'x'.repeat(501) }, 'title'],
      [create, { priority: 'High' }, 'priority'],
      [create, { description: 7 }, 'description'],
      [create, { colour: 'red' }, 'colour'],
      [create, { issue_id: otherProductIssue.id }, 'issue_id'],
      [link, { title: 'A title' }, 'title'],
      [link, { priority: 'low' }, 'priority'],
      [link, { issue_id: MISSING }, 'issue_id'],
      [link, { issue_id: 'ZZZ-1' }, 'issue_id'],
      [link, { issue_id: 'not an id' }, 'issue_id'],
      [link, { issue_id: otherProductIssue.shortcode }, 'issue_id'],
      [link, { issue_id: foreignIssue.shortcode }, 'issue_id'],
      [link, { issue_id: otherProductIssue.id }, 'issue_id'],
      [link, { issue_id: foreignIssue.id }, 'issue_id'],
    ];
    for (const [suggestion, body, field] of cases) {
      const res = await a.api.post(`/api/v1/suggestions/${suggestion.id}/accept`, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.error_code, 'validation_error');
      assert.ok(res.body.fields?.[field], `${JSON.stringify(body)}: fields.${field} in ${res.text}`);
    }
    const listed = (await api.get(`/api/v1/suggestions?product_id=${product.id}`)).body.data.map((s: any) => s.status);
    assert.deepEqual(listed, ['open', 'open']);
  });

  it('refuses a suggestion that is not open', async () => {
    const { api, link, create } = await suggestions(ctx());
    await api.post(`/api/v1/suggestions/${link.id}/accept`);
    await api.post(`/api/v1/suggestions/${create.id}/dismiss`);
    for (const [suggestion, status] of [[link, 'accepted'], [create, 'dismissed']]) {
      for (const action of ['accept', 'dismiss']) {
        const res = await api.post(`/api/v1/suggestions/${suggestion.id}/${action}`);
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, { error_code: 'validation_error', detail: `suggestion is already ${status}` });
      }
    }
  });

  it('answers 404 for an unknown, malformed or other workspace\'s suggestion (before a bad body), and 403 to a read-only key', async () => {
    const { a, b } = ctx();
    const { product, link, csv } = await suggestions(ctx());
    for (const id of [MISSING, 'nope']) assert.equal((await a.api.post(`/api/v1/suggestions/${id}/accept`, { title: '' })).status, 404);
    for (const action of ['accept', 'dismiss']) {
      const res = await b.api.post(`/api/v1/suggestions/${link.id}/${action}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.error_code, 'not_found');
      const readOnly = await ctx().client(a.readOnlyKey).post(`/api/v1/suggestions/${link.id}/${action}`);
      assert.equal(readOnly.status, 403);
      assert.equal(readOnly.body.error_code, 'forbidden');
    }
    assert.equal((await a.api.get(`/api/v1/issues/${csv.id}`)).body.data.linked_conversations.length, 0);
    assert.equal((await a.api.get(`/api/v1/suggestions?product_id=${product.id}`)).body.pagination.total, 2);
  });
});

describeEachDialect('POST /api/v1/suggestions/{id}/dismiss [ext]', (ctx) => {
  it('marks it dismissed and nothing else, recording suggestion.updated', async () => {
    const c = ctx();
    const { api, csv, link } = await suggestions(c);
    let res: any;
    const events = await eventsOf(c, async () => (res = await api.post(`/api/v1/suggestions/${link.id}/dismiss`)));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { ...link, status: 'dismissed', updated_at: res.body.data.updated_at });
    assert.deepEqual(events.map((e) => e.type), ['suggestion.updated']);
    assert.deepEqual(events[0].payload.data, { ...res.body.data, previous: { status: 'open', updated_at: link.updated_at } });
    await assertPayloadsDocumented(c, events);
    assert.equal((await api.get(`/api/v1/issues/${csv.id}`)).body.data.linked_conversations.length, 0);
  });

  it('answers 404 for an unknown or malformed suggestion', async () => {
    for (const id of [MISSING, 'nope']) assert.equal((await ctx().a.api.post(`/api/v1/suggestions/${id}/dismiss`)).status, 404);
  });
});

describeEachDialect('suggestion events', (ctx) => {
  it('suggestion.created carries the suggestion as the conversation\'s list shows it, and matches the document', async () => {
    const c = ctx();
    const product = await createProduct(c.a.api);
    const conversation = await conversationFrom(c.a.api, product.id, UNRELATED);
    const events = await eventsOf(c, () => triage(c.a.api, conversation.id));
    assert.deepEqual(events.map((e) => e.type), ['suggestion.created']);
    const [listed] = (await c.a.api.get(`/api/v1/conversations/${conversation.id}/suggestions`)).body.data;
    assert.deepEqual(events[0].payload.data, listed);
    await assertPayloadsDocumented(c, events);
  });
});

describeEachDialect('suggestions follow the team [ext]', (ctx) => {
  const statusesOf = async (api: TestContext['a']['api'], conversationId: string) =>
    (await api.get(`/api/v1/conversations/${conversationId}/suggestions`)).body.data.map((s: any) => s.status);

  it('linking the conversation to an issue (by shortcode) dismisses its open suggestions, with suggestion.updated', async () => {
    const c = ctx();
    const { api, product, repeat, link } = await suggestions(c);
    const other = await createIssue(api, product.id, { title: 'Exports fail' });
    let res: any;
    const events = await eventsOf(c, async () => (res = await api.post(`/api/v1/issues/${other.shortcode}/conversations`, { conversation_id: repeat.id })));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(events.map((e) => e.type), ['suggestion.updated', 'issue.updated']);
    assert.deepEqual(events[0].payload.data, { ...link, status: 'dismissed', updated_at: events[0].payload.data.updated_at, previous: { status: 'open', updated_at: link.updated_at } });
    await assertPayloadsDocumented(c, events);
    assert.deepEqual(await statusesOf(api, repeat.id), ['dismissed']);
  });

  it('creating an issue from the conversation (POST /issues/maybe with conversation_id) dismisses its open suggestions', async () => {
    const { api, product, paraphrase } = await suggestions(ctx());
    const res = await api.post('/api/v1/issues/maybe', { product_id: product.id, title: 'Dark mode for the dashboard', conversation_id: paraphrase.id });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(await statusesOf(api, paraphrase.id), ['dismissed']);
  });

  it('matching an existing issue from the conversation dismisses them too', async () => {
    const { api, product, csv, paraphrase } = await suggestions(ctx());
    const res = await api.post('/api/v1/issues/maybe', { product_id: product.id, title: CSV_ISSUE.title, description: CSV_ISSUE.description, conversation_id: paraphrase.id });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.id, csv.id);
    assert.deepEqual(await statusesOf(api, paraphrase.id), ['dismissed']);
  });

  it('leaves accepted suggestions and other conversations\' suggestions as they are', async () => {
    const { api, product, repeat, paraphrase, link } = await suggestions(ctx());
    assert.equal((await api.post(`/api/v1/suggestions/${link.id}/accept`)).status, 200);
    const other = await createIssue(api, product.id, { title: 'Exports fail' });
    assert.equal((await api.post(`/api/v1/issues/${other.id}/conversations`, { conversation_id: repeat.id })).status, 200);
    assert.deepEqual(await statusesOf(api, repeat.id), ['accepted']);
    assert.deepEqual(await statusesOf(api, paraphrase.id), ['open']);
  });
});
