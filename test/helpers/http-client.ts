// The harness's Client over real HTTP (fetch), for a server running as a process: the same
// factories and calls as in-process tests, without the OpenAPI check of every answer.
import { clientOf, type ApiResponse, type Client, type RequestOptions } from './harness.js';

/** A client presenting `key`, or no Authorization header when null (a visitor, someone signing in). */
export function httpClient(baseUrl: string, key: string | null): Client {
  return clientOf(async (method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let payload = options.payload;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const body = Buffer.isBuffer(payload) ? new Uint8Array(payload) : payload;
    const res = await fetch(`${baseUrl}${url}`, { method, headers, body });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
    return { status: res.status, headers: Object.fromEntries(res.headers), body: isJson ? JSON.parse(text) : text, text };
  });
}
