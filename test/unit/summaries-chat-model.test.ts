// The chat model client against a chat-completions server in the test process: the request it
// sends (model, messages, structured output, the key), the answers it accepts, its retries and
// timeouts, and the summarizer's fallback to the extractive summary when the model fails.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ConfigError, loadConfig, type LlmConfig } from '../../src/config.js';
import { ChatModelError, createChatModel, MAX_ATTEMPTS, retryAfterMs, summaryOf } from '../../src/summaries/chat-model.js';
import { createSummarizer } from '../../src/summaries/summarizer.js';
import {
  completion, rateLimited, serverError, startChatCompletionsServer, summaryCompletion, type ChatCompletionsServer,
} from '../helpers/chat-completions-server.js';

const API_KEY = 'sk-test-summaries';
const CONVERSATION = {
  title: 'PDF export broken',
  messages: ['Hi! Since the update, exporting a report to PDF fails with an error 500.', 'Chrome and Firefox both fail. Thanks!'],
};

let server: ChatCompletionsServer;
before(async () => {
  server = await startChatCompletionsServer({ apiKey: API_KEY });
});
after(() => server.close());
beforeEach(() => server.reset());

/** A client of the test server whose waits are recorded, not waited. */
function client(overrides: Partial<LlmConfig> = {}) {
  const waits: number[] = [];
  const model = createChatModel(
    { baseUrl: server.baseUrl, model: 'llama3.1:8b', apiKey: API_KEY, timeoutMs: 2_000, ...overrides },
    { sleep: async (ms) => void waits.push(ms), random: () => 0 },
  );
  return { model, waits };
}

describe('the chat model client', () => {
  it('asks for { summary, headline } with a strict JSON schema and returns them', async () => {
    server.script(summaryCompletion('Exporting a report to PDF fails with error 500 in Chrome and Firefox.', 'PDF export fails with error 500'));
    const { model } = client();
    assert.deepEqual(await model.summarize(CONVERSATION), {
      summary: 'Exporting a report to PDF fails with error 500 in Chrome and Firefox.',
      headline: 'PDF export fails with error 500',
    });
    assert.equal(server.requests.length, 1);
    const [{ headers, body }] = server.requests;
    assert.equal(headers.authorization, `Bearer ${API_KEY}`);
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(body.model, 'llama3.1:8b');
    assert.deepEqual(body.messages.map((message: any) => message.role), ['system', 'user']);
    assert.match(body.messages[0].content, /in the language the customer writes in/);
    assert.match(body.messages[1].content, /PDF export broken[\s\S]*exporting a report to PDF fails[\s\S]*Chrome and Firefox both fail/);
    const { type, json_schema: schema } = body.response_format;
    assert.equal(type, 'json_schema');
    assert.equal(schema.strict, true);
    assert.deepEqual(schema.schema.required, ['summary', 'headline']);
    assert.equal(schema.schema.additionalProperties, false);
  });

  it('asks for JSON mode with the schema, lengths included, when LOOPDESK_LLM_RESPONSE_FORMAT is json_object', async () => {
    server.script(summaryCompletion('Exporting a report to PDF fails with error 500.', 'PDF export fails with error 500'));
    const { model } = client({ responseFormat: 'json_object' });
    assert.equal((await model.summarize(CONVERSATION)).headline, 'PDF export fails with error 500');
    const { type, schema, json_schema: jsonSchema } = server.requests[0].body.response_format;
    assert.deepEqual([type, jsonSchema], ['json_object', undefined]);
    assert.deepEqual(schema.required, ['summary', 'headline']);
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual([schema.properties.summary.maxLength, schema.properties.headline.maxLength], [300, 120]);
  });

  it('sends no Authorization header without a key', async () => {
    const open = await startChatCompletionsServer();
    try {
      open.script(summaryCompletion('A summary.', 'A headline'));
      const model = createChatModel({ baseUrl: open.baseUrl, model: 'qwen2.5', apiKey: null, timeoutMs: 2_000 });
      assert.equal((await model.summarize(CONVERSATION)).headline, 'A headline');
      assert.equal(open.requests[0].headers.authorization, undefined);
    } finally {
      await open.close();
    }
  });

  it('fails at once on an answer that is not the asked JSON, without retrying', async () => {
    const malformed = [
      completion('Sure! Here is the summary: the PDF export fails.'),
      completion('{"summary": "The PDF export fails."'),
      completion(JSON.stringify({ summary: 'Only a summary.' })),
      completion(JSON.stringify({ summary: 'S', headline: 'H', extra: true })),
      summaryCompletion('x'.repeat(301), 'Too long a summary'),
      summaryCompletion('Fine summary.', 'y'.repeat(121)),
      summaryCompletion('  ', 'Blank summary'),
      completion(null, { refusal: 'I cannot help with that.' }),
      completion('{"summary": "cut', { finish_reason: 'length' }),
      { json: { object: 'list', data: [] } },
      { raw: '<html>Bad gateway</html>' },
    ];
    for (const answer of malformed) {
      server.reset();
      server.script(answer);
      const { model, waits } = client();
      await assert.rejects(model.summarize(CONVERSATION), ChatModelError, JSON.stringify(answer).slice(0, 120));
      assert.equal(server.requests.length, 1);
      assert.deepEqual(waits, []);
    }
  });

  it('gives up after three timeouts, waiting with exponential backoff between them', async () => {
    server.otherwise(() => ({ ...summaryCompletion('Late.', 'Late'), delayMs: 1_000 }));
    const { model, waits } = client({ timeoutMs: 100 });
    const started = performance.now();
    await assert.rejects(model.summarize(CONVERSATION), /no answer within 100 ms \(3 attempts\)/);
    assert.ok(performance.now() - started < 900, 'each attempt is cut at its timeout');
    assert.equal(server.requests.length, MAX_ATTEMPTS);
    assert.deepEqual(waits, [500, 1000]);
  });

  it('waits as a 429 asks (Retry-After) and then succeeds', async () => {
    server.script(rateLimited(7), summaryCompletion('Summary after the limit.', 'Headline'));
    const { model, waits } = client();
    assert.equal((await model.summarize(CONVERSATION)).summary, 'Summary after the limit.');
    assert.deepEqual(waits, [7_000]);
    assert.equal(server.requests.length, 2);
  });

  it('does not wait for a Retry-After longer than 30 s, and fails on a 500 every time', async () => {
    server.script(rateLimited(3600));
    await assert.rejects(client().model.summarize(CONVERSATION), /HTTP 429, and asked to wait 3600000 ms/);

    server.reset();
    server.otherwise(serverError);
    const { model, waits } = client();
    await assert.rejects(model.summarize(CONVERSATION), /HTTP 500 \(3 attempts\)/);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(waits, [500, 1000]);
  });

  it('does not retry a 4xx other than 429 (a wrong key, a request the server refuses)', async () => {
    const { model } = client({ apiKey: 'sk-wrong' });
    await assert.rejects(model.summarize(CONVERSATION), /HTTP 401/);
    assert.equal(server.requests.length, 1);
  });
});

describe('the summarizer', () => {
  it('uses the chat model\'s summary and headline when it answers', async () => {
    server.script(summaryCompletion('PDF export fails with error 500.', 'PDF export fails'));
    const summarizer = createSummarizer({ chatModel: client().model, embedder: () => undefined });
    assert.deepEqual(await summarizer.summarize(CONVERSATION), {
      summary: 'PDF export fails with error 500.', headline: 'PDF export fails', writer: 'chat:llama3.1:8b',
    });
  });

  it('falls back to the extractive summary, without a headline, when the model fails', async () => {
    server.otherwise(serverError);
    const summarizer = createSummarizer({ chatModel: client().model, embedder: () => undefined });
    const summary = await summarizer.summarize(CONVERSATION);
    assert.deepEqual(summary, {
      summary: 'Since the update, exporting a report to PDF fails with an error 500. Chrome and Firefox both fail.',
      headline: null,
      writer: 'extractive',
      fallbackReason: 'the server answered HTTP 500 (3 attempts)',
    });
    assert.equal(await createSummarizer({ chatModel: null, embedder: () => undefined }).summarize({ title: 't', messages: [' '] }), null);
  });
});

describe('chat model settings and answers', () => {
  it('reads LOOPDESK_LLM_* only together, with a 20 s timeout and OpenAI\'s structured outputs by default', () => {
    assert.equal(loadConfig({}).summaries.llm, null);
    assert.equal(loadConfig({}).summaries.debounceMs, 2_000);
    assert.deepEqual(loadConfig({ LOOPDESK_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LOOPDESK_LLM_MODEL: 'llama3.1:8b' }).summaries.llm, {
      baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b', apiKey: null, timeoutMs: 20_000, responseFormat: 'json_schema',
    });
    const llama = { LOOPDESK_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', LOOPDESK_LLM_MODEL: 'smollm2', LOOPDESK_LLM_RESPONSE_FORMAT: 'json_object' };
    assert.equal(loadConfig(llama).summaries.llm?.responseFormat, 'json_object');
    assert.throws(() => loadConfig({ ...llama, LOOPDESK_LLM_RESPONSE_FORMAT: 'grammar' }), ConfigError);
    assert.throws(() => loadConfig({ LOOPDESK_LLM_MODEL: 'llama3.1:8b' }), ConfigError);
    assert.throws(() => loadConfig({ LOOPDESK_LLM_BASE_URL: 'ftp://models', LOOPDESK_LLM_MODEL: 'm' }), ConfigError);
    assert.throws(() => loadConfig({ LOOPDESK_SUMMARY_DEBOUNCE_MS: '9000' }), ConfigError);
  });

  it('reads Retry-After in milliseconds, seconds or as a date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250' }), now), 250);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' }), now), 3000);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Sat, 21 Nov 2026 10:00:05 GMT' }), now), 5000);
    assert.equal(retryAfterMs(new Headers({}), now), null);
  });

  it('counts lengths in characters, so a 300-character summary in any script passes', () => {
    const emoji = '🙂'.repeat(300);
    assert.equal(summaryOf(summaryCompletion(emoji, 'ok').json).summary, emoji);
  });
});
