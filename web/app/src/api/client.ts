// The app's one way to the server (/api/v1 and /auth): openapi-fetch typed by openapi.d.ts, which is generated from the
// served OpenAPI document (npm run generate:app). The session cookie goes along by itself
// (same origin); a 401 anywhere means the session is gone, and the shell shows the sign-in.
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi.js';

export type Schemas = components['schemas'];
export type ErrorBody = Schemas['Error'];

/** An error answer of the server, with its envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody>,
  ) {
    super(body.detail ?? `the server answered ${status}`);
  }

  get fields(): Record<string, string> {
    return this.body.fields ?? {};
  }
}

const unauthorizedListeners = new Set<() => void>();

/** Calls `listener` whenever the server answers 401 (the session expired or was revoked). */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export const api = createClient<paths>({ baseUrl: location.origin });
api.use({
  onResponse({ response }) {
    if (response.status === 401) for (const listener of unauthorizedListeners) listener();
    return response;
  },
});

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful answer; throws ApiError for an error answer. */
export async function ok<T>(request: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok) throw new ApiError(response.status, (error ?? {}) as Partial<ErrorBody>);
  return data as T;
}

/** A message to show for any failure (network errors included). */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'Cannot reach the server. Check your connection and try again.';
  return (error as Error)?.message ?? String(error);
}
