// A chat-completions server in the test process (node:http on 127.0.0.1, a port the OS picks),
// speaking OpenAI's wire format as its API reference documents it: `POST /v1/chat/completions`
// with a JSON body checked as OpenAI checks it (model, messages, response_format; the API key
// when one is expected), answered with `chat.completion` objects and OpenAI's error envelope
// `{ error: { message, type, param, code } }`. Tests script the answers (a completion, a
// malformed one, a 429 with Retry-After, a 500, an answer that comes too late); every request is
// recorded with its headers and parsed body. For the summaries and triage tests alike.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (null when it was not JSON). */
  body: any;
}

/** How to answer one request: a status with a JSON body (or raw text), optional headers, after an optional delay. */
export interface ChatAnswer {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  /** A body sent as is instead of `json` (a server that answers something that is not JSON). */
  raw?: string;
  delayMs?: number;
}

export interface ChatCompletionsServer {
  /** The base URL a client is configured with, e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  requests: ChatRequest[];
  /** Answers the next requests with these, in order; once they are used up, `otherwise` answers. */
  script(...answers: ChatAnswer[]): void;
  /** How requests are answered when no scripted answer is left (default: a completion saying `{}`). */
  otherwise(answer: (request: ChatRequest) => ChatAnswer): void;
  /** Forgets the requests and the scripted answers. */
  reset(): void;
  close(): Promise<void>;
}

export interface ChatServerOptions {
  /** The API key requests must carry as `Authorization: Bearer`; null: any or none. */
  apiKey?: string | null;
}

let completions = 0;

/** A `chat.completion` object whose one choice says `content`, as OpenAI answers. */
export function completion(content: string | null, overrides: { finish_reason?: string; refusal?: string | null; model?: string } = {}): ChatAnswer {
  return {
    json: {
      id: `chatcmpl-test${++completions}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: overrides.model ?? 'test-model',
      choices: [{
        index: 0,
        message: { role: 'assistant', content, refusal: overrides.refusal ?? null, annotations: [] },
        logprobs: null,
        finish_reason: overrides.finish_reason ?? 'stop',
      }],
      usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
      service_tier: 'default',
      system_fingerprint: 'fp_test',
    },
  };
}

/** A completion whose content is the structured `{ summary, headline }` the summaries ask for. */
export const summaryCompletion = (summary: string, headline: string): ChatAnswer => completion(JSON.stringify({ summary, headline }));

/** OpenAI's error envelope with a status. */
export const openAiError = (status: number, message: string, type: string, code: string | null = null, headers: Record<string, string> = {}): ChatAnswer => ({
  status, headers, json: { error: { message, type, param: null, code } },
});

/** A 429 as OpenAI sends it when a rate limit is reached, asking to wait `seconds`. */
export const rateLimited = (seconds: number): ChatAnswer =>
  openAiError(429, 'Rate limit reached for requests. Please try again later.', 'requests', 'rate_limit_exceeded', { 'retry-after': String(seconds) });

export const serverError = (): ChatAnswer => openAiError(500, 'The server had an error while processing your request. Sorry about that!', 'server_error');

const ROLES = new Set(['system', 'developer', 'user', 'assistant']);
const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** What OpenAI would refuse with a 400 `invalid_request_error` in this request, or null. */
export function invalidRequest(body: any): string | null {
  if (body === null || typeof body !== 'object') return 'We could not parse the JSON body of your request.';
  if (typeof body.model !== 'string' || body.model === '') return "you must provide a model parameter";
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must be a non-empty array";
  for (const message of body.messages) {
    if (!ROLES.has(message?.role) || typeof message.content !== 'string') return `Invalid message: ${JSON.stringify(message).slice(0, 200)}`;
  }
  const format = body.response_format;
  if (format === undefined) return null;
  if (format.type === 'json_schema') {
    const { name, strict, schema } = format.json_schema ?? {};
    if (typeof name !== 'string' || !SCHEMA_NAME.test(name)) return "Invalid 'response_format.json_schema.name'";
    if (strict !== undefined && typeof strict !== 'boolean') return "Invalid 'response_format.json_schema.strict'";
    if (schema === null || typeof schema !== 'object') return "Invalid 'response_format.json_schema.schema'";
    if (strict && (schema.additionalProperties !== false || !Array.isArray(schema.required) ||
      Object.keys(schema.properties ?? {}).some((key) => !schema.required.includes(key)))) {
      return "Invalid schema for response_format: in strict mode every property must be required and additionalProperties must be false";
    }
    return null;
  }
  return ['text', 'json_object'].includes(format.type) ? null : "Invalid 'response_format.type'";
}

export async function startChatCompletionsServer({ apiKey = null }: ChatServerOptions = {}): Promise<ChatCompletionsServer> {
  const requests: ChatRequest[] = [];
  let scripted: ChatAnswer[] = [];
  let otherwise: (request: ChatRequest) => ChatAnswer = () => completion('{}');

  function answerTo(request: ChatRequest): ChatAnswer {
    if (request.path !== '/v1/chat/completions') return openAiError(404, `Invalid URL (POST ${request.path})`, 'invalid_request_error');
    if (apiKey !== null && request.headers.authorization !== `Bearer ${apiKey}`) {
      return openAiError(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    const problem = invalidRequest(request.body);
    if (problem) return openAiError(400, problem, 'invalid_request_error');
    return scripted.shift() ?? otherwise(request);
  }

  const server = createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {
      // Recorded as null; answered with OpenAI's 400.
    }
    const recorded: ChatRequest = { path: request.url ?? '', headers: request.headers, body };
    requests.push(recorded);
    const { status = 200, headers = {}, json, raw: text, delayMs = 0 } = answerTo(recorded);
    if (delayMs > 0) {
      // A client that gave up closes the connection: nothing is left to answer.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        response.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (response.destroyed) return;
    }
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(text ?? JSON.stringify(json ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...answers) {
      scripted.push(...answers);
    },
    otherwise(answer) {
      otherwise = answer;
    },
    reset() {
      requests.length = 0;
      scripted = [];
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
