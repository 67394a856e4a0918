// Idempotency-Key on the widget API's visitor writes (docs/widget.md): the same semantics as
// /api/v1, with the keys of each visitor session its own; writes without a session ignore it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { importConversation } from '../helpers/factories.js';
import { describeEachDialect, type ApiResponse, type Client, type TestContext } from '../helpers/harness.js';
import { startSession, visitor, widgetPath, widgetProduct } from '../helpers/widget.js';

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

/** A visitor of the product with a fresh session: POSTs under /widget/v1/{widget_key}. */
async function newVisitor(context: TestContext, widgetKey: string): Promise<{ post: (path: string, body: unknown, key?: string) => Promise<ApiResponse>; api: Client }> {
  const { token } = await startSession(context, widgetKey);
  const api = visitor(context, token);
  return { api, post: (path, body, key) => api.post(widgetPath(widgetKey, path), body, key === undefined ? {} : withKey(key)) };
}

function assertReplayOf(replay: ApiResponse, first: ApiResponse): void {
  assert.equal(replay.status, first.status, replay.text);
  assert.equal(replay.text, first.text);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
}

describeEachDialect('Idempotency-Key on the widget API', (ctx) => {
  it('replays a retried POST /conversations and POST /conversations/{id}/messages, writing once', async () => {
    const product = await widgetProduct(ctx());
    const ada = await newVisitor(ctx(), product.widget_key);
    const key = randomUUID();
    const started = await ada.post('/conversations', { body: 'The export is empty' }, key);
    assert.equal(started.status, 201, started.text);
    assert.equal(started.headers['idempotent-replayed'], undefined);
    assertReplayOf(await ada.post('/conversations', { body: 'The export is empty' }, key), started);
    assert.equal((await ada.api.get(widgetPath(product.widget_key, '/conversations'))).body.data.length, 1);

    const path = `/conversations/${started.body.data.id}/messages`;
    const replyKey = randomUUID();
    const reply = await ada.post(path, { body: 'Still empty' }, replyKey);
    assert.equal(reply.status, 201, reply.text);
    assertReplayOf(await ada.post(path, { body: 'Still empty' }, replyKey), reply);
    const team = await ctx().a.api.get(`/api/v1/conversations/${started.body.data.id}`);
    assert.deepEqual(team.body.data.messages.map((message: any) => message.body), ['The export is empty', 'Still empty']);
  });

  it('runs parallel retries of one message once, all getting the same answer', async () => {
    const product = await widgetProduct(ctx());
    const ada = await newVisitor(ctx(), product.widget_key);
    const { id } = (await ada.post('/conversations', { body: 'Hello' })).body.data;
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => ada.post(`/conversations/${id}/messages`, { body: 'Are you there?' }, key)));
    assert.deepEqual(new Set(answers.map((res) => res.status)), new Set([201]));
    assert.equal(new Set(answers.map((res) => res.text)).size, 1);
    assert.equal(answers.filter((res) => res.headers['idempotent-replayed'] === 'true').length, 5);
    assert.equal((await ctx().a.api.get(`/api/v1/conversations/${id}`)).body.data.messages.length, 2);
  });

  it('refuses the key with another body (400 on fields["idempotency-key"]), and stores no failure', async () => {
    const product = await widgetProduct(ctx());
    const ada = await newVisitor(ctx(), product.widget_key);
    const key = randomUUID();
    assert.equal((await ada.post('/conversations', { body: '' }, key)).status, 400, 'a failure claims nothing');
    assert.equal((await ada.post('/conversations', { body: 'First' }, key)).status, 201);
    const other = await ada.post('/conversations', { body: 'Second' }, key);
    assert.equal(other.status, 400, other.text);
    assert.ok(other.body.fields['idempotency-key']);
  });

  it('keeps each session\'s keys its own: another visitor, or an API key, with the same key writes anew', async () => {
    const { a } = ctx();
    const product = await widgetProduct(ctx());
    const [ada, bob] = [await newVisitor(ctx(), product.widget_key), await newVisitor(ctx(), product.widget_key)];
    const key = randomUUID();
    const adas = await ada.post('/conversations', { body: 'Same words' }, key);
    const bobs = await bob.post('/conversations', { body: 'Same words' }, key);
    for (const res of [adas, bobs]) {
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers['idempotent-replayed'], undefined);
    }
    assert.notEqual(bobs.body.data.id, adas.body.data.id, 'Bob never sees Ada\'s conversation');

    // Shared with an API key, the key would answer 400 (another path) or replay: it does neither, either way round.
    const imported = await importConversation(a.api, product.id);
    const byKey = await a.api.post(`/api/v1/conversations/${imported.id}/messages`, { body: 'Same words' }, withKey(key));
    const apiKeyFirst = randomUUID();
    const byApiKey = await a.api.post(`/api/v1/conversations/${imported.id}/messages`, { body: 'Later' }, withKey(apiKeyFirst));
    const byVisitor = await ada.post(`/conversations/${adas.body.data.id}/messages`, { body: 'Later' }, apiKeyFirst);
    for (const res of [byKey, byApiKey, byVisitor]) {
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers['idempotent-replayed'], undefined);
    }
  });

  it('ignores the header where there is no session to own it: starting a session, filing a form', async () => {
    const product = await widgetProduct(ctx());
    const anonymous = ctx().client(null);
    const key = randomUUID();
    const sessions = [];
    for (let i = 0; i < 2; i++) sessions.push(await anonymous.post(widgetPath(product.widget_key, '/sessions'), {}, withKey(key)));
    assert.deepEqual(sessions.map((res) => res.status), [201, 201]);
    assert.notEqual(sessions[0].body.data.token, sessions[1].body.data.token, 'a session token is never stored to be replayed');
    const forms = [];
    for (let i = 0; i < 2; i++) forms.push(await anonymous.post(widgetPath(product.widget_key, '/forms'), { title: 'Form', body: 'Hi' }, withKey(key)));
    assert.deepEqual(forms.map((res) => [res.status, res.headers['idempotent-replayed']]), [[201, undefined], [201, undefined]]);
  });

  it('documents the header on the visitor\'s POSTs alone, and lets cross-origin callers send it', async () => {
    const document = (await ctx().a.api.get('/widget/v1/openapi.json')).body;
    const documented = Object.entries<Record<string, any>>(document.paths).flatMap(([path, operations]) =>
      Object.entries<any>(operations)
        .filter(([, operation]) => (operation.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'Idempotency-Key'))
        .map(([method]) => `${method.toUpperCase()} ${path}`));
    assert.deepEqual(documented.sort(), [
      'POST /widget/v1/{widget_key}/articles/{id}/feedback', 'POST /widget/v1/{widget_key}/conversations', 'POST /widget/v1/{widget_key}/conversations/{id}/messages',
      'POST /widget/v1/{widget_key}/conversations/{id}/screenshots', 'POST /widget/v1/{widget_key}/ideas/{id}/upvote',
    ]);
    const product = await widgetProduct(ctx());
    const preflight = await ctx().client(null).request('OPTIONS', widgetPath(product.widget_key, '/conversations'), {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
    });
    assert.match(String(preflight.headers['access-control-allow-headers']), /Idempotency-Key/);
  });
});
