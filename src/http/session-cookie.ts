// The team app's session cookie and the CSRF rule that goes with it (docs/accounts.md). The cookie
// is HttpOnly, SameSite=Lax, Path=/, Secure when the server is reached over https (LOOPDESK_PUBLIC_URL
// says so, or the request came over TLS), and lives as long as the session: 30 days, sent again
// whenever the session's expiry moves.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_LIFETIME_MS } from '../domain/accounts/session.service.js';
import { AppError } from '../errors.js';

export const SESSION_COOKIE = 'loopdesk_session';
const READ_METHODS = new Set(['GET', 'HEAD']);

/** The value of the cookie called `name` in the request's Cookie header, or null. */
export function cookieValue(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator !== -1 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return null;
}

/** The session token the request's Cookie header carries, or null. */
export const sessionToken = (request: FastifyRequest): string | null => cookieValue(request, SESSION_COOKIE);

/** Whether cookies get `Secure`: the server is reached over https. */
export const isSecure = (request: FastifyRequest, publicUrl: string | null) =>
  publicUrl === null ? request.protocol === 'https' : publicUrl.startsWith('https:');

function writeCookie(reply: FastifyReply, value: string, maxAgeSeconds: number, publicUrl: string | null): void {
  const attributes = [`${SESSION_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (isSecure(reply.request, publicUrl)) attributes.push('Secure');
  reply.header('Set-Cookie', attributes.join('; '));
}

/** Sets the cookie of a session valid for its full lifetime from now. */
export const setSessionCookie = (reply: FastifyReply, token: string, publicUrl: string | null): void =>
  writeCookie(reply, token, SESSION_LIFETIME_MS / 1000, publicUrl);

export const clearSessionCookie = (reply: FastifyReply, publicUrl: string | null): void => writeCookie(reply, '', 0, publicUrl);

/**
 * Whether the request's Origin is this server's: LOOPDESK_PUBLIC_URL's origin when set, else the
 * host (and port) the request was sent to, whatever the scheme (a TLS proxy in front changes it).
 */
function fromOwnOrigin(origin: string, request: FastifyRequest, publicUrl: string | null): boolean {
  try {
    const url = new URL(origin);
    return publicUrl === null ? url.host === new URL(`http://${request.host}`).host : url.origin === new URL(publicUrl).origin;
  } catch {
    return false;
  }
}

/**
 * The CSRF rule for requests a cookie authenticates: anything but GET and HEAD must carry an
 * Origin of this server, else 403. (SameSite=Lax already keeps the cookie off cross-site POSTs in
 * current browsers; this holds for older ones and for sibling subdomains too.)
 */
export function requireOwnOrigin(request: FastifyRequest, publicUrl: string | null): void {
  if (READ_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (typeof origin === 'string' && fromOwnOrigin(origin, request, publicUrl)) return;
  throw new AppError('forbidden', 'a request signed in with a session cookie must come from this server\'s own pages (Origin header missing or foreign)');
}

/** For the routes that start a session: an Origin, when a browser sends one, must be this server's (no login CSRF). */
export function refuseForeignOrigin(request: FastifyRequest, publicUrl: string | null): void {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && !fromOwnOrigin(origin, request, publicUrl)) {
    throw new AppError('forbidden', 'this request comes from another site\'s page (foreign Origin header)');
  }
}
