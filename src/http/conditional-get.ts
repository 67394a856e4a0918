// Conditional GET (RFC 9110 §13) for a text rendered afresh on each request, such as the public
// changelog: its ETag is a hash of the bytes served, so it changes exactly when they do, whatever
// changed them (a release published, edited or unpublished, an issue or the product renamed,
// another origin in the links). Last-Modified cannot be read off the data (an unpublished release
// leaves nothing behind to date the change), so it is the moment this process first served the
// current bytes: it moves forward whenever the ETag changes, and never back.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock.js';

interface Validators {
  etag: string;
  /** Whole seconds since the epoch, the resolution of an HTTP date. */
  lastModified: number;
}

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url')}"`;

/** Whether an If-None-Match list names `etag` (weak comparison, as RFC 9110 asks for GET). */
function noneMatchHolds(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Whether the request's conditions say its copy is current: If-None-Match decides when present. */
function notModified(request: FastifyRequest, { etag, lastModified }: Validators): boolean {
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch !== undefined) return noneMatchHolds(noneMatch, etag);
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  // An unparseable date is ignored (RFC 9110 §13.1.3): the full answer.
  return Number.isFinite(since) && lastModified <= Math.floor(since / 1000);
}

/**
 * Sends rendered texts with validators and answers a request whose copy is current with an empty
 * 304. `key` names one representation (one per product and format): the memory this keeps is one
 * entry per key.
 */
export function createConditionalSender(clock: Clock) {
  const served = new Map<string, Validators>();

  const validatorsOf = (key: string, body: string): Validators => {
    const etag = etagOf(body);
    const previous = served.get(key);
    if (previous?.etag === etag) return previous;
    // A second after the previous date at least: a change within the same second must still be later.
    const now = Math.floor(Date.parse(clock.now()) / 1000);
    const current = { etag, lastModified: Math.max(now, (previous?.lastModified ?? 0) + 1) };
    served.set(key, current);
    return current;
  };

  /** `body` as `type`, or an empty 304 (without the representation's Content-Type), with ETag and Last-Modified. */
  return (request: FastifyRequest, reply: FastifyReply, { key, type, body }: { key: string; type: string; body: string }): FastifyReply => {
    const validators = validatorsOf(key, body);
    reply.headers({ ETag: validators.etag, 'Last-Modified': new Date(validators.lastModified * 1000).toUTCString() });
    return notModified(request, validators) ? reply.code(304).send() : reply.type(type).send(body);
  };
}
