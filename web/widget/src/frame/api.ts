// The widget API client: JSON over fetch to /widget/v1/{widget_key}, the session's Bearer token, the
// envelope's errors as ApiError, and a network failure as OfflineError (whose outcome is unknown:
// the request may or may not have reached the server, which is why writes carry an Idempotency-Key).

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  /** Seconds, from Retry-After on a 429. */
  readonly retryAfter: number | null;

  constructor(status: number, code: string, detail: string, fields: Record<string, string> = {}, retryAfter: number | null = null) {
    super(detail);
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
  }

  /** Worth trying again later, unchanged: the server was busy or failed, not the request. */
  get transient(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

export class OfflineError extends Error {}

export interface RequestOptions {
  body?: unknown;
  /** Bearer token of the visitor's session, when the route needs one. */
  token?: string | null;
  /** Sent as Idempotency-Key, so a retry of a write whose answer was lost never writes twice. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface WidgetApi {
  /** The base URL of this widget's API, ending with a slash. */
  readonly base: string;
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
}

/** `onReachable(false)` after a network failure, `(true)` after any answer: the offline notice follows it. */
export function createWidgetApi(base: string, onReachable: (reachable: boolean) => void): WidgetApi {
  return {
    base,
    async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
      let response: Response;
      try {
        response = await fetch(new URL(path, base), {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: options.signal,
          credentials: 'omit',
        });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        onReachable(false);
        throw new OfflineError('The support server could not be reached');
      }
      onReachable(true);
      const text = await response.text();
      const body = text ? safeJson(text) : null;
      if (!response.ok) {
        const envelope = (body ?? {}) as { error_code?: string; detail?: string; fields?: Record<string, string> };
        const retryAfter = Number(response.headers.get('Retry-After')) || null;
        throw new ApiError(response.status, envelope.error_code ?? 'internal_error', envelope.detail ?? response.statusText, envelope.fields, retryAfter);
      }
      return body as T;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
