// An empty body sent as application/json is no body (docs/api.md, "Requests"): a client that
// announces JSON on every call, as the README's `api` helper does, reaches every operation whose
// body is optional or absent, which answers as it answers a request without one; an operation
// whose JSON body is required refuses it with a 400 saying so. The operations come from both
// served documents, so a new route is covered without being named here.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { pathParameterResource } from '../helpers/id-references.js';
import { fillPath, operationsOf, type Operation } from '../helpers/openapi-operations.js';
import { newPerson } from '../helpers/sessions.js';
import { widgetPath } from '../helpers/widget.js';
import { seedWorkspace, type SeededIds } from '../helpers/workspace-seed.js';

const EMPTY_JSON = { payload: '', headers: { 'content-type': 'application/json' } };
const BODY_REQUIRED = { error_code: 'validation_error', detail: 'invalid body: body is required (a JSON object; an empty body or null is none)' };

describeEachDialect('an empty body sent as application/json', (ctx) => {
  let ids: SeededIds;
  let operations: Operation[];
  before(async () => {
    const context = ctx();
    ids = await seedWorkspace(context.a, 'E', 1, context);
    operations = [
      ...operationsOf((await context.a.api.get('/api/v1/openapi.json')).body),
      ...operationsOf((await context.a.api.get('/widget/v1/openapi.json')).body),
    ].filter((op) => op.method !== 'GET');
    assert.ok(operations.some((op) => op.path.startsWith('/auth/')) && operations.some((op) => op.path.startsWith('/widget/')));
  });

  /** Who may call the operation: the owner's key, the seeded visitor, or a person signed in just now (a sign-out ends it). */
  async function clientFor(context: TestContext, op: Operation): Promise<Client> {
    if (op.path.startsWith('/widget/')) return context.client(ids.visitorToken[0]!);
    if (op.path.startsWith('/auth/')) return (await newPerson(context, context.a)).app;
    return context.a.api;
  }

  /** The operation's path with the seeded widget and ids that name nothing (`seeded`: the seeded resources). */
  const pathOf = (op: Operation, seeded: boolean) =>
    fillPath(op.path, Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => {
      const resource = pathParameterResource(op, p.name);
      return [p.name, seeded || resource === 'widget' ? ids[resource][0]! : randomUUID()];
    })));

  it('is answered as no body at all by every operation of both documents but GET, the widget API and /auth included', async () => {
    const context = ctx();
    for (const op of operations) {
      const url = pathOf(op, false);
      const without = await (await clientFor(context, op)).request(op.method, url);
      const empty = await (await clientFor(context, op)).request(op.method, url, EMPTY_JSON);
      const what = `${op.method} ${op.path}: without a body ${without.status} ${without.text}; empty ${empty.status} ${empty.text}`;
      assert.equal(empty.status, without.status, what);
      if (without.status >= 400) assert.deepEqual(empty.body, without.body, what);
    }
  });

  it('is refused with a 400 saying a body is required by every operation whose JSON body is required', async () => {
    const context = ctx();
    const required = operations.filter((op) => op.bodyRequired && op.body !== null);
    assert.ok(required.length > 20);
    for (const op of required) {
      const res = await (await clientFor(context, op)).request(op.method, pathOf(op, true), EMPTY_JSON);
      assert.equal(res.status, 400, `${op.method} ${op.path}: ${res.text}`);
      assert.deepEqual(res.body, BODY_REQUIRED, `${op.method} ${op.path}`);
    }
  });

  it('counts only zero bytes as empty: whitespace or a byte order mark alone is malformed JSON, and null is no body', async () => {
    const { api } = ctx().a;
    for (const payload of [' ', '\r\n', Buffer.from([0xef, 0xbb, 0xbf])]) {
      const res = await api.request('POST', '/api/v1/saved-replies', { ...EMPTY_JSON, payload });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body, { error_code: 'validation_error', detail: 'request body is not valid JSON' });
    }
    const nullBody = await api.request('POST', '/api/v1/saved-replies', { ...EMPTY_JSON, payload: 'null' });
    assert.deepEqual([nullBody.status, nullBody.body], [400, BODY_REQUIRED]);
  });

  it('runs triage, a POST that takes no body', async () => {
    const { api } = ctx().a;
    const res = await api.request('POST', `/api/v1/conversations/${ids.conversation[0]}/triage`, EMPTY_JSON);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.at(-1).status, 'open');
  });

  it('erases a contact and deletes a saved reply, DELETEs that take no body', async () => {
    const { api } = ctx().a;
    assert.equal((await api.request('DELETE', `/api/v1/contacts/${ids.contact[1]}`, EMPTY_JSON)).status, 204);
    assert.equal((await api.get(`/api/v1/contacts/${ids.contact[1]}`)).status, 404);
    assert.equal((await api.request('DELETE', `/api/v1/saved-replies/${ids.saved_reply[1]}`, EMPTY_JSON)).status, 204);
    assert.equal((await api.get(`/api/v1/saved-replies/${ids.saved_reply[1]}`)).status, 404);
  });

  it('accepts a suggestion as a request without a body does, where the body is optional: as suggested', async () => {
    const { api } = ctx().a;
    const empty = await api.request('POST', `/api/v1/suggestions/${ids.suggestion[1]}/accept`, EMPTY_JSON);
    const without = await api.request('POST', `/api/v1/suggestions/${ids.suggestion[2]}/accept`);
    assert.equal(empty.status, 200, empty.text);
    assert.equal(without.status, 200, without.text);
    const outcome = (res: typeof empty) => ({ kind: res.body.data.kind, status: res.body.data.status, issue: res.body.data.issue.id });
    assert.deepEqual(outcome(empty), outcome(without));
    assert.deepEqual(outcome(empty), { kind: 'link', status: 'accepted', issue: ids.issue[0] });
  });

  it('upvotes an idea and takes the vote back on the widget API', async () => {
    const visitor = ctx().client(ids.visitorToken[0]!);
    const path = widgetPath(ids.widget[0]!, `/ideas/${ids.idea[0]}/upvote`);
    const up = await visitor.request('POST', path, EMPTY_JSON);
    assert.equal(up.status, 200, up.text);
    const down = await visitor.request('DELETE', path, EMPTY_JSON);
    assert.equal(down.status, 200, down.text);
    assert.equal(down.body.data.upvotes, up.body.data.upvotes - 1);
  });
});
