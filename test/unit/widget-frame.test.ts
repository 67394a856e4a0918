// The widget frame's pieces that need no browser: the event-stream parser, the offline outbox,
// the retry waits, and the proof of work's SHA-256 where WebCrypto is missing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { ApiError, createWidgetApi, OfflineError } from '../../web/widget/src/frame/api.js';
import { backoffDelay } from '../../web/widget/src/frame/backoff.js';
import { Outbox, type OutboxListener, type OutboxTransport, type QueuedMessage } from '../../web/widget/src/frame/outbox.js';
import { sha256 } from '../../web/widget/src/frame/sha256.js';
import { createSseParser } from '../../web/widget/src/frame/sse-parser.js';
import type { KeyValueStore, VisitorConversation, VisitorMessage } from '../../web/widget/src/frame/types.js';

/** localStorage as the outbox sees it: JSON text per name, surviving a "reload" (a new Outbox). */
function textStore(): KeyValueStore & { raw: Map<string, string> } {
  const raw = new Map<string, string>();
  return {
    raw,
    get: (name) => (raw.has(name) ? JSON.parse(raw.get(name)!) : null),
    set: (name, value) => void raw.set(name, JSON.stringify(value)),
    remove: (name) => void raw.delete(name),
  };
}

const conversation = (id: string): VisitorConversation => ({
  id, type: 'chat', status: 'open', title: 't', rating: null, created_at: '2026-11-21T10:00:00.000Z', updated_at: '2026-11-21T10:00:00.000Z', messages: [],
});
const sentMessage = (message: QueuedMessage): VisitorMessage => ({
  id: `m-${message.id}`, sender_type: 'contact', sender_name: null, body: message.body, created_at: '2026-11-21T10:00:00.000Z',
});

/** A server that answers each call with the next scripted outcome (or success), recording every attempt. */
function scriptedServer(outcomes: Array<Error | null> = []) {
  const attempts: { kind: 'start' | 'reply'; id: string; conversationId: string | null; body: string }[] = [];
  let conversations = 0;
  let resets = 0;
  const next = () => {
    const outcome = outcomes.shift();
    if (outcome) throw outcome;
  };
  const transport: OutboxTransport = {
    async start(message) {
      attempts.push({ kind: 'start', id: message.id, conversationId: null, body: message.body });
      next();
      return conversation(`c${++conversations}`);
    },
    async reply(message) {
      attempts.push({ kind: 'reply', id: message.id, conversationId: message.conversationId, body: message.body });
      next();
      return sentMessage(message);
    },
    resetSession: () => void resets++,
  };
  return { transport, attempts, resets: () => resets };
}

function recorder() {
  const events: string[] = [];
  const listener: OutboxListener = {
    changed: () => undefined,
    started: (message, started) => void events.push(`started ${started.id} with ${message.body}`),
    replied: (message) => void events.push(`replied ${message.body}`),
    rejected: (message, error) => void events.push(`rejected ${message.body}: ${error.status}`),
  };
  return { listener, events };
}

describe('the widget outbox', () => {
  it('sends queued messages in order: the first starts the conversation, the rest follow it there', async () => {
    const server = scriptedServer();
    const { listener, events } = recorder();
    const outbox = new Outbox(textStore(), server.transport, listener);
    outbox.add('one', null);
    outbox.add('two', null);
    outbox.add('three', null);
    assert.equal(await outbox.flush(), null);
    assert.deepEqual(server.attempts.map((a) => [a.kind, a.conversationId, a.body]), [
      ['start', null, 'one'], ['reply', 'c1', 'two'], ['reply', 'c1', 'three'],
    ]);
    assert.deepEqual(events, ['started c1 with one', 'replied two', 'replied three']);
    assert.deepEqual(outbox.queue, []);
  });

  it('keeps what was typed offline through a reload, and sends it once with the same Idempotency-Key', async () => {
    const store = textStore();
    const offline = scriptedServer([new OfflineError('down'), new OfflineError('down')]);
    const first = new Outbox(store, offline.transport, recorder().listener);
    first.add('typed in a tunnel', 'c9');
    assert.deepEqual(await first.flush(), { retryAfterMs: null });
    assert.deepEqual(await first.flush(), { retryAfterMs: null });
    assert.equal(JSON.parse(store.raw.get('outbox')!).length, 1, 'persisted while offline');

    const online = scriptedServer();
    const reloaded = new Outbox(store, online.transport, recorder().listener);
    assert.equal(await reloaded.flush(), null);
    const ids = [...offline.attempts, ...online.attempts].map((attempt) => attempt.id);
    assert.equal(new Set(ids).size, 1, 'every attempt carries the same id');
    assert.deepEqual(online.attempts.map((attempt) => attempt.kind), ['reply']);
    assert.deepEqual(reloaded.queue, []);
  });

  it('tries a message whose answer was lost (offline, 5xx) again as the same request, for the server to replay', async () => {
    for (const failure of [new OfflineError('answer lost'), new ApiError(502, 'internal_error', 'bad gateway')]) {
      for (const conversationId of [null, 'c1']) {
        const server = scriptedServer([failure]);
        const outbox = new Outbox(textStore(), server.transport, recorder().listener);
        outbox.add('hello', conversationId);
        assert.deepEqual(await outbox.flush(), { retryAfterMs: null });
        assert.equal(await outbox.flush(), null);
        assert.equal(server.attempts.length, 2);
        assert.deepEqual(server.attempts[1], server.attempts[0], 'the same id (Idempotency-Key), conversation and body');
      }
    }
  });

  it('sends the message\'s id as the Idempotency-Key header of every attempt', async () => {
    const sent: { url: string; key: string | null }[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: URL, init: RequestInit) => {
      sent.push({ url: String(url), key: new Headers(init.headers).get('Idempotency-Key') });
      if (sent.length === 1) throw new TypeError('network error');
      return new Response(JSON.stringify({ data: conversation('c1') }), { status: 201, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    try {
      const api = createWidgetApi('https://support.example/widget/v1/wk_x/', () => undefined);
      const post = (path: string, message: QueuedMessage) =>
        api.request<{ data: any }>('POST', path, { body: { body: message.body }, token: 'wst_t', idempotencyKey: message.id }).then(({ data }) => data);
      const transport: OutboxTransport = {
        start: (message) => post('conversations', message),
        reply: (message) => post(`conversations/${message.conversationId}/messages`, message),
        resetSession: () => undefined,
      };
      const outbox = new Outbox(textStore(), transport, recorder().listener);
      const queued = outbox.add('hello', null);
      assert.deepEqual(await outbox.flush(), { retryAfterMs: null });
      assert.equal(await outbox.flush(), null);
      assert.deepEqual(sent, [1, 2].map(() => ({ url: 'https://support.example/widget/v1/wk_x/conversations', key: queued.id })));
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('stops at a busy server and reports its Retry-After', async () => {
    const server = scriptedServer([new ApiError(429, 'forbidden', 'rate limit', {}, 7)]);
    const outbox = new Outbox(textStore(), server.transport, recorder().listener);
    outbox.add('a', 'c1');
    outbox.add('b', 'c1');
    assert.deepEqual(await outbox.flush(), { retryAfterMs: 7000 });
    assert.equal(server.attempts.length, 1, 'the second waits behind the first');
    assert.equal(outbox.queue.length, 2);
  });

  it('makes a new session once after a 401, and gives the message up after a second', async () => {
    const unauthorized = () => new ApiError(401, 'unauthorized', 'session expired');
    const recovered = scriptedServer([unauthorized()]);
    const outbox = new Outbox(textStore(), recovered.transport, recorder().listener);
    outbox.add('hello', 'c1');
    assert.equal(await outbox.flush(), null);
    assert.equal(recovered.resets(), 1);
    assert.equal(recovered.attempts.length, 2);

    const refused = scriptedServer([unauthorized(), unauthorized()]);
    const { listener, events } = recorder();
    const stuck = new Outbox(textStore(), refused.transport, listener);
    stuck.add('hello', 'c1');
    assert.equal(await stuck.flush(), null);
    assert.deepEqual(events, ['rejected hello: 401']);
  });

  it('starts a new conversation when the old one is no longer the visitor\'s (404)', async () => {
    const server = scriptedServer([new ApiError(404, 'not_found', 'conversation not found')]);
    const outbox = new Outbox(textStore(), server.transport, recorder().listener);
    outbox.add('still there?', 'gone');
    outbox.add('hello?', 'gone');
    assert.equal(await outbox.flush(), null);
    assert.deepEqual(server.attempts.map((a) => [a.kind, a.conversationId]), [['reply', 'gone'], ['start', null], ['reply', 'c1']]);
  });

  it('drops a message the server refuses for good and sends the next', async () => {
    const server = scriptedServer([new ApiError(400, 'validation_error', 'body: too long', { body: 'too long' })]);
    const { listener, events } = recorder();
    const outbox = new Outbox(textStore(), server.transport, listener);
    outbox.add('x'.repeat(10), 'c1');
    outbox.add('short', 'c1');
    assert.equal(await outbox.flush(), null);
    assert.deepEqual(events, ['rejected xxxxxxxxxx: 400', 'replied short']);
  });

  it('runs one flush at a time: a second call joins the first', async () => {
    const server = scriptedServer();
    const outbox = new Outbox(textStore(), server.transport, recorder().listener);
    outbox.add('once', 'c1');
    await Promise.all([outbox.flush(), outbox.flush(), outbox.flush()]);
    assert.equal(server.attempts.length, 1);
  });
});

describe('the widget event-stream parser', () => {
  it('dispatches events split anywhere across chunks, with CRLF, LF or CR line ends', () => {
    const parser = createSseParser();
    const text = 'event: message\r\nid: 41\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: heartbeat\n\nevent: status\rdata: {"status":"resolved"}\r\r';
    const events = [];
    for (let i = 0; i < text.length; i += 3) events.push(...parser.push(text.slice(i, i + 3)));
    assert.deepEqual(events, [
      { event: 'message', data: '{"a":\n1}', id: '41' },
      { event: 'status', data: '{"status":"resolved"}', id: '41' },
    ]);
    assert.equal(parser.lastEventId, '41');
  });

  it('ignores comments (the heartbeat), keeps retry, and starts from a given Last-Event-ID', () => {
    const parser = createSseParser('7');
    assert.deepEqual(parser.push(': ping\n\nretry: 2500\n\n'), []);
    assert.equal(parser.retry, 2500);
    assert.deepEqual(parser.push('data:x\n\n'), [{ event: 'message', data: 'x', id: '7' }]);
  });
});

describe('the widget\'s retry waits', () => {
  it('double from 1 s up to 30 s, with up to half taken off at random', () => {
    assert.equal(backoffDelay(0, undefined, () => 1), 1000);
    assert.equal(backoffDelay(0, undefined, () => 0), 500);
    assert.equal(backoffDelay(3, undefined, () => 1), 8000);
    assert.equal(backoffDelay(40, undefined, () => 1), 30_000);
    assert.equal(backoffDelay(40, undefined, () => 0), 15_000);
  });
});

describe('the widget\'s SHA-256 without WebCrypto', () => {
  it('hashes as node:crypto does, across block boundaries', () => {
    for (const length of [0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const text = 'ä'.repeat(length % 7) + 'x'.repeat(length);
      const bytes = new TextEncoder().encode(text);
      assert.equal(Buffer.from(sha256(bytes)).toString('hex'), createHash('sha256').update(bytes).digest('hex'), `${bytes.length} bytes`);
    }
  });
});
