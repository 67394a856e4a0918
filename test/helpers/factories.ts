// Fixtures built through the public API, as a client builds them: each factory sends one POST
// with unique defaults (`overrides` win), asserts the status the contract gives it and returns
// the resource (`data`). They work on the harness's in-process client and on httpClient alike.
import assert from 'node:assert/strict';
import { unique, type ApiResponse, type Client } from './harness.js';

type Fields = Record<string, unknown>;

async function post(api: Client, url: string, body: Fields, statuses: number[]): Promise<ApiResponse> {
  const res = await api.post(url, body);
  assert.ok(statuses.includes(res.status), `POST ${url}: expected ${statuses.join(' or ')}, got ${res.status} ${res.text}`);
  return res;
}

const created = async (api: Client, url: string, body: Fields): Promise<any> => (await post(api, url, body, [201])).body.data;

export const createProduct = (api: Client, overrides: Fields = {}): Promise<any> =>
  created(api, '/api/v1/products', { name: unique('Product'), ...overrides });

export const createIssue = (api: Client, productId: string, overrides: Fields = {}): Promise<any> =>
  created(api, '/api/v1/issues', { product_id: productId, title: unique('Issue'), ...overrides });

export const importConversation = (api: Client, productId: string, overrides: Fields = {}): Promise<any> =>
  created(api, '/api/v1/conversations', { product_id: productId, title: unique('Conversation'), ...overrides });

export const createRelease = (api: Client, productId: string, overrides: Fields = {}): Promise<any> =>
  created(api, '/api/v1/releases', { product_id: productId, title: unique('Release'), ...overrides });

/** Links a conversation to an issue: 200 with the issue. */
export const linkConversation = async (api: Client, issueId: string, conversationId: string): Promise<any> =>
  (await post(api, `/api/v1/issues/${issueId}/conversations`, { conversation_id: conversationId }, [200])).body.data;

/**
 * The deduplicating create: 201 with a new issue or 200 with the one it matched. Returns the
 * whole answer, `{ data, matched_existing, api_source_id }`.
 */
export const createIssueMaybe = async (api: Client, productId: string, overrides: Fields = {}): Promise<any> =>
  (await post(api, '/api/v1/issues/maybe', { product_id: productId, title: unique('Issue'), ...overrides }, [201, 200])).body;

/** The id of the API key the client presents (GET /me). */
export async function apiKeyIdOf(api: Client): Promise<string> {
  return (await api.get('/api/v1/me')).body.data.api_key_id;
}

/** A pending invitation made through the API: `{ id, email, role, url, expires_at }` and its token. */
export async function invite(api: Client, overrides: Fields = {}): Promise<any> {
  const invitation = await created(api, '/api/v1/members/invitations', { email: `${unique('person').replace(/\W/g, '-')}@example.com`, role: 'agent', ...overrides });
  return { ...invitation, token: invitation.url.split('/').pop() };
}

/** A new member of the client's workspace, joined through an invitation: `{ member, cookie, email, password }`. */
export async function joinAsMember(api: Client, anonymous: Client, role = 'agent'): Promise<{ member: any; cookie: string; email: string; password: string }> {
  const invitation = await invite(api, { role });
  const password = 'correct horse battery';
  const res = await anonymous.post(`/auth/invitations/${invitation.token}`, { name: unique('Member'), password });
  assert.equal(res.status, 200, res.text);
  return { member: res.body.data.member, cookie: sessionCookieOf(res), email: invitation.email, password };
}

/** `loopdesk_session=…` from a response's Set-Cookie, for a Cookie header. */
export function sessionCookieOf(res: ApiResponse): string {
  const header = [res.headers['set-cookie']].flat().find((value) => String(value).startsWith('loopdesk_session='));
  assert.ok(header, `no session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return String(header).split(';')[0];
}
