// The one way ldk talks to a server: openapi-fetch, typed by the types generated from the served
// OpenAPI document. Api remembers the body of the last answer, which is what --json prints.
import createClient, { type Client } from 'openapi-fetch';
import type { Credentials } from './config.js';
import { ApiError, CliError } from './errors.js';
import type { components, operations, paths } from './generated/openapi.js';
import { VERSION } from './version.js';

export type Schemas = components['schemas'];
export type RequestBody<Operation extends keyof operations> = operations[Operation] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** How long one request may take (a deduplicating create may run a model). */
const REQUEST_TIMEOUT_MS = 60_000;

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export class Api {
  readonly client: Client<paths>;
  /** The parsed body of the last answer, success or error. */
  lastAnswer: unknown;

  readonly credentials: Credentials;

  constructor(credentials: Credentials) {
    this.credentials = credentials;
    this.client = createClient<paths>({
      baseUrl: credentials.url,
      headers: { authorization: `Bearer ${credentials.key}`, 'user-agent': `ldk/${VERSION}` },
      fetch: (request) => fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    });
  }

  /** The data of a successful answer; throws ApiError for an error answer, CliError when the server cannot be reached. */
  async call<T>(request: Promise<Answer<T>>): Promise<T> {
    let answer: Answer<T>;
    try {
      answer = await request;
    } catch (error) {
      throw this.unreachable(error);
    }
    const { data, error, response } = answer;
    this.lastAnswer = response.ok ? data : error;
    if (!response.ok) throw new ApiError(response.status, error);
    return data as T;
  }

  private unreachable(error: unknown): CliError {
    const where = `the Loopdesk server at ${this.credentials.url}`;
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      return new CliError(`${where} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    return new CliError(`cannot reach ${where} (${reason}): is it running? Check LOOPDESK_URL or ldk login --url`);
  }
}

export type Query<Operation extends keyof operations> = operations[Operation] extends { parameters: { query?: infer Parameters } }
  ? NonNullable<Parameters>
  : never;
