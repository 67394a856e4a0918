// Request bodies are JSON in UTF-8 on every route (docs/api.md, "Request bodies"): bytes that are
// not UTF-8 are a 400 before anything reads them, a lone surrogate written as a JSON escape is a
// 400 on its field, and one leading byte order mark is skipped.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { NOT_UTF8_DETAIL } from '../../src/http/plugins/body-parsers.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { fillPath, operationsOf } from '../helpers/openapi-operations.js';
import { newPerson } from '../helpers/sessions.js';
import { startSession, widgetPath, widgetProduct } from '../helpers/widget.js';

/** Byte sequences no UTF-8 decoder may accept (RFC 3629), each a way a broken client gets it wrong. */
const NOT_UTF8: Record<string, number[]> = {
  'a Latin-1 byte (é)': [0xe9],
  'an overlong "/" (2 bytes)': [0xc0, 0xaf],
  'an overlong "/" (3 bytes)': [0xe0, 0x80, 0xaf],
  'an encoded surrogate (CESU-8 or WTF-8)': [0xed, 0xa0, 0x80],
  'a code point past U+10FFFF': [0xf4, 0x90, 0x80, 0x80],
  'a truncated sequence': [0xe2, 0x82],
  'a lone continuation byte': [0x80],
  'a UTF-16 byte order mark': [0xff, 0xfe],
};

const BOM = [0xef, 0xbb, 0xbf];

/** `json` with `bytes` put where `%BYTES%` stands. */
const withBytes = (json: string, bytes: number[]): Buffer => {
  const [before, after] = json.split('%BYTES%');
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after ?? '')]);
};

const send = (client: Client, method: string, url: string, payload: Buffer | string) =>
  client.request(method, url, { payload, headers: { 'content-type': 'application/json' } });

function assertNotUtf8(res: { status: number; body: any; text: string }, what: string): void {
  assert.equal(res.status, 400, `${what}: ${res.text}`);
  assert.deepEqual(res.body, { error_code: 'validation_error', detail: NOT_UTF8_DETAIL }, what);
}

/** What a workspace's saved replies, API keys and a conversation's messages hold now. */
async function stored(context: TestContext, conversationId: string) {
  const { api } = context.a;
  return {
    savedReplies: (await api.get('/api/v1/saved-replies')).body.data,
    apiKeys: (await api.get('/api/v1/api-keys')).body.data,
    messages: (await api.get(`/api/v1/conversations/${conversationId}`)).body.data.messages,
  };
}

describeEachDialect('request bodies that are not UTF-8', (ctx) => {
  for (const [what, bytes] of Object.entries(NOT_UTF8)) {
    it(`refuses ${what} in a note, a saved reply and an API key label with 400, storing nothing`, async () => {
      const context = ctx();
      const { api } = context.a;
      const conversation = await importConversation(api, (await createProduct(api)).id);
      const before = await stored(context, conversation.id);
      assertNotUtf8(await send(api, 'POST', `/api/v1/conversations/${conversation.id}/notes`, withBytes('{"body":"Note %BYTES%"}', bytes)), 'note');
      assertNotUtf8(await send(api, 'POST', '/api/v1/saved-replies', withBytes('{"title":"T%BYTES%","body":"B"}', bytes)), 'saved reply');
      assertNotUtf8(await send(api, 'POST', '/api/v1/api-keys', withBytes('{"label":"L%BYTES%"}', bytes)), 'API key');
      assert.deepEqual(await stored(context, conversation.id), before);
    });
  }

  it('refuses a body that is not UTF-8 on every operation of both documents that takes JSON, the auth routes included', async () => {
    const context = ctx();
    const { api } = context.a;
    const product = await widgetProduct(context);
    const { token } = await startSession(context, product.widget_key);
    const person = await newPerson(context, context.a);
    const clientFor = (path: string) => (path.startsWith('/widget/') ? context.client(token) : path.startsWith('/auth/') ? person.app : api);
    const operations = [
      ...operationsOf((await api.get('/api/v1/openapi.json')).body),
      ...operationsOf((await api.get('/widget/v1/openapi.json')).body),
    ].filter((op) => op.body !== null);
    assert.ok(operations.some((op) => op.path.startsWith('/auth/')) && operations.some((op) => op.path.startsWith('/widget/')));
    for (const op of operations) {
      const values = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.name === 'widget_key' ? product.widget_key : randomUUID()]));
      const res = await send(clientFor(op.path), op.method, fillPath(op.path, values), withBytes('{"text":"%BYTES%"}', NOT_UTF8['a Latin-1 byte (é)']));
      assertNotUtf8(res, `${op.method} ${op.path}`);
    }
  });

  it('skips one leading UTF-8 byte order mark, and refuses two as malformed JSON', async () => {
    const { api } = ctx().a;
    const res = await send(api, 'POST', '/api/v1/saved-replies', withBytes('%BYTES%{"title":"Bom","body":"B"}', BOM));
    assert.equal(res.status, 201, res.text);
    assert.equal((await api.get(`/api/v1/saved-replies/${res.body.data.id}`)).body.data.title, 'Bom');
    const twice = await send(api, 'POST', '/api/v1/saved-replies', withBytes('%BYTES%{"title":"Bom","body":"B"}', [...BOM, ...BOM]));
    assert.equal(twice.status, 400);
    assert.equal(twice.body.detail, 'request body is not valid JSON');
  });

  it('keeps valid UTF-8 as sent: 2-, 3- and 4-byte characters, U+FEFF inside a text', async () => {
    const { api } = ctx().a;
    const body = 'é € 😀 a\ufeffb';
    const res = await send(api, 'POST', '/api/v1/saved-replies', Buffer.from(JSON.stringify({ title: 'Valid', body })));
    assert.equal(res.status, 201, res.text);
    assert.equal((await api.get(`/api/v1/saved-replies/${res.body.data.id}`)).body.data.body, body);
  });
});

describeEachDialect('lone surrogates written as JSON escapes', (ctx) => {
  const LONE = 'must be Unicode text: a lone surrogate (\\ud800-\\udfff without its pair) is not a character';

  it('refuses them by field, in values and in the keys and values of free-form objects, storing nothing', async () => {
    const { api } = ctx().a;
    const saved = await send(api, 'POST', '/api/v1/saved-replies', '{"title":"T\\ud800","body":"\\udc00B"}');
    assert.equal(saved.status, 400, saved.text);
    assert.deepEqual(saved.body.fields, { title: LONE, body: LONE });
    const product = await send(api, 'POST', '/api/v1/products', '{"name":"P","widget_config":{"greeting":"x\\udbff","k\\ud83d":1}}');
    assert.equal(product.status, 400, product.text);
    assert.deepEqual(product.body.fields, { 'widget_config.greeting': LONE, 'widget_config.k\ud83d': LONE });
    assert.deepEqual((await api.get('/api/v1/saved-replies')).body.data, []);
  });

  it('takes an escaped surrogate pair as the character it spells', async () => {
    const { api } = ctx().a;
    const res = await send(api, 'POST', '/api/v1/saved-replies', '{"title":"Pair \\ud83d\\ude00","body":"B"}');
    assert.equal(res.status, 201, res.text);
    assert.equal((await api.get(`/api/v1/saved-replies/${res.body.data.id}`)).body.data.title, 'Pair 😀');
  });

  it('refuses them on the widget API too', async () => {
    const context = ctx();
    const product = await widgetProduct(context);
    const { token } = await startSession(context, product.widget_key);
    const res = await send(context.client(token), 'POST', widgetPath(product.widget_key, '/conversations'), '{"body":"Help \\udfff"}');
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(res.body.fields, { body: LONE });
  });
});
