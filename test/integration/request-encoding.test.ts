// Request bodies are JSON in UTF-8 on every route (docs/api.md, "Request bodies"): bytes that are
// not UTF-8 are a 400 before anything reads them, a lone surrogate written as a JSON escape is a
// 400 on its field, and one leading byte order mark is skipped. Paths and query strings are
// percent-encoded UTF-8: any other escape is a 400 before anything else, on every operation.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { NOT_UTF8_DETAIL } from '../../src/http/plugins/body-parsers.js';
import { PATH_NOT_UTF8_DETAIL, QUERY_NOT_UTF8 } from '../../src/http/plugins/request-target.js';
import { createProduct, importConversation } from '../helpers/factories.js';
import { describeEachDialect, type Client, type TestContext } from '../helpers/harness.js';
import { fillPath, operationsOf, type Operation } from '../helpers/openapi-operations.js';
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

/** The bytes of NOT_UTF8 as percent escapes, and escapes that are malformed to begin with. */
const UNDECODABLE_ESCAPES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(NOT_UTF8).map(([what, bytes]) => [what, bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('')])),
  'a "%" at the end': '%',
  'a "%" with one hex digit': '%2',
  'a "%" without hex digits': '%zz',
};

describeEachDialect('paths and query strings that are not percent-encoded UTF-8', (ctx) => {
  let operations: Operation[];
  const documents = async () =>
    (operations ??= [
      ...operationsOf((await ctx().a.api.get('/api/v1/openapi.json')).body),
      ...operationsOf((await ctx().a.api.get('/widget/v1/openapi.json')).body),
    ]);
  /** The operation's path with ids that name nothing, the one named `bad` holding `escape` after a valid start. */
  const pathOf = (op: Operation, bad?: string, escape = '') => {
    const names = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    return fillPath(op.path, Object.fromEntries(names.map((name) => [name, name === bad ? 'BAD-ESCAPE' : randomUUID()]))).replace('BAD-ESCAPE', `x${escape}`);
  };
  function assertQueryNotUtf8(res: { status: number; body: any; text: string }, names: string[], what: string): void {
    assert.equal(res.status, 400, `${what}: ${res.text}`);
    assert.equal(res.body.error_code, 'validation_error', what);
    assert.ok(res.body.detail.startsWith(`invalid querystring: ${names.join(', ')} ${QUERY_NOT_UTF8} (`), `${what}: ${res.body.detail}`);
    assert.deepEqual(res.body.fields, Object.fromEntries(names.map((name) => [name, QUERY_NOT_UTF8])), what);
  }

  it('refuses each in every query parameter of every operation of both documents, naming it, before authentication', async () => {
    const taking = (await documents()).filter((op) => op.parameters.some((p) => p.in === 'query'));
    assert.ok(taking.length > 20 && taking.some((op) => op.path.startsWith('/widget/')));
    const anonymous = ctx().client(null);
    for (const op of taking) {
      for (const { name } of op.parameters.filter((p) => p.in === 'query')) {
        for (const [what, escape] of Object.entries(UNDECODABLE_ESCAPES)) {
          const res = await anonymous.request(op.method, `${pathOf(op)}?${name}=ok${escape}ok`);
          assertQueryNotUtf8(res, [name], `${op.method} ${op.path}?${name}= with ${what}`);
        }
      }
    }
  });

  it('refuses each in every path parameter of every operation of both documents', async () => {
    const taking = (await documents()).filter((op) => op.parameters.some((p) => p.in === 'path'));
    const { api } = ctx().a;
    for (const op of taking) {
      for (const { name } of op.parameters.filter((p) => p.in === 'path')) {
        for (const [what, escape] of Object.entries(UNDECODABLE_ESCAPES)) {
          const res = await api.request(op.method, pathOf(op, name, escape));
          assert.equal(res.status, 400, `${op.method} ${op.path} {${name}} with ${what}: ${res.text}`);
          assert.deepEqual(res.body, { error_code: 'validation_error', detail: PATH_NOT_UTF8_DETAIL }, `${op.method} ${op.path} {${name}} with ${what}`);
        }
      }
    }
  });

  it('names a parameter whose name does not decode as sent, and every bad parameter of a query', async () => {
    const { api } = ctx().a;
    assertQueryNotUtf8(await api.get('/api/v1/search?q=ok&%E9=1&__proto__=%FF&limit=%C0%AF'), ['%E9', '__proto__', 'limit'], 'three bad parameters');
  });

  it('takes UTF-8 as sent: 2-, 3- and 4-byte characters, "+" for a space, an escaped "%"', async () => {
    const { api } = ctx().a;
    const product = await createProduct(api, { name: 'Café € 😀 100% sure' });
    for (const query of ['Caf%C3%A9', 'caf%C3%A9+%E2%82%AC', '%F0%9F%98%80', '100%25']) {
      const res = await api.get(`/api/v1/search?q=${query}`);
      assert.equal(res.status, 200, `${query}: ${res.text}`);
    }
    assert.equal((await api.get(`/api/v1/products/${encodeURIComponent(product.id)}?x=%C3%A9`)).status, 200);
  });
});
