// Helpers for the widget API's tests: visitor clients, solved proof-of-work challenges (with
// altcha-lib's own solver) and identity tokens signed as a host site would sign them.
import assert from 'node:assert/strict';
import { solveChallenge } from 'altcha-lib/v1';
import { SignJWT } from 'jose';
import { createProduct } from './factories.js';
import type { Client, TestContext } from './harness.js';

export const widgetPath = (widgetKey: string, path: string): string => `/widget/v1/${widgetKey}${path}`;

/** The base64 `altcha` payload that solves a challenge as GET /challenge answers it. */
export async function solveAltcha({ algorithm, challenge, salt, signature, maxnumber }: Record<string, any>): Promise<string> {
  const solution = await solveChallenge(challenge, salt, algorithm, maxnumber).promise;
  assert.ok(solution, 'the challenge has a solution');
  return Buffer.from(JSON.stringify({ algorithm, challenge, number: solution.number, salt, signature })).toString('base64');
}

/** The base64 payload of a freshly solved challenge of this widget. */
export async function solvedAltcha(ctx: TestContext, widgetKey: string): Promise<string> {
  const res = await ctx.client(null).get(widgetPath(widgetKey, '/challenge'));
  assert.equal(res.status, 200, res.text);
  return solveAltcha(res.body);
}

/** A product of workspace A whose widget asks for no proof of work, unless `widget_config` says otherwise. */
export const widgetProduct = (ctx: TestContext, widget_config: Record<string, unknown> = {}, api: Client = ctx.a.api): Promise<any> =>
  createProduct(api, { widget_config: { proof_of_work: false, ...widget_config } });

/** POST /sessions: 201 expected; returns `data` (token, expires_at, contact). */
export async function startSession(ctx: TestContext, widgetKey: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await ctx.client(null).post(widgetPath(widgetKey, '/sessions'), body);
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

export interface IdentityClaims {
  /** null: no sub claim. */
  sub?: string | null;
  aud?: string;
  /** Seconds from now; null: no exp. */
  expiresIn?: number | null;
  email?: string;
  name?: string;
}

/** An identity token as the host site signs it: HS256, keyed with the UTF-8 bytes of the whole secret. */
export async function signIdentity(secret: string, { sub = 'user-1', aud, expiresIn = 3600, ...extra }: IdentityClaims): Promise<string> {
  let jwt = new SignJWT({ ...extra }).setProtectedHeader({ alg: 'HS256' });
  if (sub !== null) jwt = jwt.setSubject(sub);
  if (aud !== undefined) jwt = jwt.setAudience(aud);
  if (expiresIn !== null) jwt = jwt.setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** POST /api/v1/products/{id}/identity-secret with A's owner key: the new secret. */
export async function identitySecret(ctx: TestContext, productId: string): Promise<string> {
  const res = await ctx.a.api.post(`/api/v1/products/${productId}/identity-secret`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.identity_secret;
}

/** A client presenting the visitor's session token. */
export const visitor = (ctx: TestContext, token: string, headers: Record<string, string> = {}): Client => ctx.client(token, headers);
