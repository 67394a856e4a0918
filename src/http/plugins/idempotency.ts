// `Idempotency-Key` on the POSTs of the scope it is registered in (/api/v1, and the widget API's
// visitor writes), with Stripe's semantics; the rules live in the idempotency service, this is
// their HTTP side: the header, the request's fingerprint, answering a replay and storing the
// response. Keys belong to the credential the request came with.
import { createHash } from 'node:crypto';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IdempotencyCredential, IdempotencyScope } from '../../db/repositories/idempotency.repository.js';
import { IDEMPOTENCY_FIELD, type IdempotencyService } from '../../domain/idempotency/idempotency.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyState | null;
  }
}

/** Whose keys a request uses: its credential, in its workspace. */
export interface IdempotencyOwner {
  workspaceId: string;
  credential: IdempotencyCredential;
}

interface IdempotencyState extends IdempotencyOwner {
  key: string;
  requestHash: string;
  /** created_at of the record this request claimed, until its response is stored or released. */
  claimedAt: string | null;
}

export interface IdempotencyOptions {
  idempotency: IdempotencyService;
  /** The credential whose keys the request uses, or null when it has none (the header is then ignored). */
  ownerOf(request: FastifyRequest): IdempotencyOwner | null;
  /** Which POST routes honour the header; all of the scope's when absent. */
  honouredBy?(route: RouteOptions): boolean;
  /** The credential as the header's description names it ("API key or session", …). */
  credentialName: string;
}

const keyHeader = (credentialName: string) => Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    `Makes a retry of this POST safe: a repeat with the same key and the same body (within 24 h, with the same ${credentialName}) ` +
    'returns the stored response with `Idempotent-Replayed: true` instead of writing again; the same key with a ' +
    'different method, path or body is a 400. Only 2xx responses are stored. 1–255 printable ASCII characters.',
});

const ReplayedHeader = Type.Literal('true', {
  description: 'Present when this is the stored response of an earlier request with the same Idempotency-Key',
});

type Piece = { text: string } | { value: unknown };

/**
 * JSON with object keys sorted, so a retry that reorders fields is still the same request. Built
 * with an explicit stack rather than recursion: a body is hashed before validation, and a 1 MiB
 * body can nest deeper than the call stack allows.
 */
function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const pending: Piece[] = [{ value: root }];
  while (pending.length > 0) {
    const piece = pending.pop()!;
    if ('text' in piece) {
      out.push(piece.text);
      continue;
    }
    const { value } = piece;
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value) ?? '');
      continue;
    }
    const isArray = Array.isArray(value);
    const record = value as Record<string, unknown>;
    const names = isArray ? Object.keys(record) : Object.keys(record).sort();
    const pieces: Piece[] = [{ text: isArray ? '[' : '{' }];
    names.forEach((name, index) => {
      const prefix = (index > 0 ? ',' : '') + (isArray ? '' : `${JSON.stringify(name)}:`);
      pieces.push({ text: prefix }, { value: record[name] });
    });
    pieces.push({ text: isArray ? ']' : '}' });
    for (let i = pieces.length - 1; i >= 0; i--) pending.push(pieces[i]);
  }
  return out.join('');
}

const requestHash = (request: FastifyRequest): string =>
  createHash('sha256').update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`).digest('hex');

export function registerIdempotency(app: FastifyInstance, { idempotency, ownerOf, honouredBy = () => true, credentialName }: IdempotencyOptions): void {
  app.decorateRequest('idempotency', null);
  const KeyHeader = keyHeader(credentialName);

  async function purgeExpiredIfDue(request: FastifyRequest): Promise<void> {
    try {
      const purged = await idempotency.purgeExpiredIfDue();
      if (purged !== null) request.log.debug({ purged }, 'purged expired idempotency records');
    } catch (error) {
      request.log.warn({ err: error }, 'purging expired idempotency records failed');
    }
  }

  const scopeOf = ({ workspaceId, credential, key }: IdempotencyState): IdempotencyScope => ({ workspaceId, credential, key });

  // The body as sent: hashed before validation trims strings and fills in defaults.
  const readKey = async (request: FastifyRequest) => {
    const key = request.headers[IDEMPOTENCY_FIELD];
    if (typeof key !== 'string') return;
    const owner = ownerOf(request);
    if (owner) request.idempotency = { ...owner, key, requestHash: requestHash(request), claimedAt: null };
  };

  // After validation and the 404 lookup (route-level hooks run after the app's, registerValidationOrder's among them),
  // so a request that is rejected anyway never claims its key.
  const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const state = request.idempotency;
    if (!state) return;
    await purgeExpiredIfDue(request);
    const acquired = await idempotency.claim(scopeOf(state), state.requestHash);
    if ('claimedAt' in acquired) {
      state.claimedAt = acquired.claimedAt;
      return;
    }
    reply.code(acquired.status).header('Idempotent-Replayed', 'true').type('application/json; charset=utf-8');
    return reply.send(acquired.body);
  };

  const recordAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const state = request.idempotency;
    if (!state?.claimedAt) return payload;
    const claimedAt = state.claimedAt;
    state.claimedAt = null;
    const scope = scopeOf(state);
    const succeeded = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
    try {
      if (succeeded) await idempotency.complete(scope, claimedAt, reply.statusCode, payload as string);
      else await idempotency.release(scope, claimedAt);
    } catch (error) {
      // The request's own work is done: its response goes out regardless. The record stays in
      // flight, so a retry waits out IDEMPOTENCY_IN_FLIGHT_TIMEOUT_MS and then runs again.
      request.log.error({ err: error }, 'storing the idempotency record failed');
    }
    return payload;
  };

  // Every POST of this scope that honours the header documents and validates it (other headers
  // stay allowed), documents the replay marker on its 2xx responses, and alone carries the hooks:
  // reads and other writes pay nothing for it.
  app.addHook('onRoute', (route) => {
    const isPost = [route.method].flat().includes('POST');
    if (!isPost || !route.schema || !honouredBy(route)) return;
    const headers = route.schema.headers as { properties?: Record<string, TSchema> } | undefined;
    route.schema.headers = Type.Object({ ...headers?.properties, 'Idempotency-Key': Type.Optional(KeyHeader) });
    const responses = (route.schema.response ?? {}) as Record<string, { headers?: object }>;
    for (const [status, response] of Object.entries(responses)) {
      if (!status.startsWith('2')) continue;
      responses[status] = { ...response, headers: { ...response.headers, 'Idempotent-Replayed': ReplayedHeader } };
    }
    // The key read first among the route's own hooks, before any fills in a missing body.
    route.preValidation = [readKey, ...[route.preValidation ?? []].flat()];
    route.preHandler = [...[route.preHandler ?? []].flat(), claimKey];
    route.onSend = [...[route.onSend ?? []].flat(), recordAnswer];
  });
}
