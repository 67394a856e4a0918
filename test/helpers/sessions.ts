// Clients that act as a person signed in to the team app: the session cookie, and the Origin a
// browser sends from this server's own pages (app.inject's requests name `localhost:80`).
import assert from 'node:assert/strict';
import { joinAsMember, sessionCookieOf } from './factories.js';
import type { ApiResponse, Client, TestContext, WorkspaceFixture } from './harness.js';

export const OWN_ORIGIN = 'http://localhost';

/** A client sending the cookie (and, unless told otherwise, this server's Origin). */
export const withSession = (context: TestContext, cookie: string, origin: string | null = OWN_ORIGIN): Client =>
  context.client(null, origin === null ? { cookie } : { cookie, origin });

export interface Person {
  member: any;
  email: string;
  password: string;
  cookie: string;
  /** Signed in as this person, from this server's pages. */
  app: Client;
}

/** A new member of the workspace with a password, signed in. */
export async function newPerson(context: TestContext, workspace: WorkspaceFixture, role = 'agent'): Promise<Person> {
  const joined = await joinAsMember(workspace.api, context.client(null), role);
  return { ...joined, app: withSession(context, joined.cookie) };
}

export async function signIn(context: TestContext, body: Record<string, unknown>): Promise<ApiResponse> {
  return context.client(null).post('/auth/sign-in', body);
}

/** Signs in and returns the cookie; fails unless the answer is 200. */
export async function signedInCookie(context: TestContext, body: Record<string, unknown>): Promise<string> {
  const res = await signIn(context, body);
  assert.equal(res.status, 200, res.text);
  return sessionCookieOf(res);
}
