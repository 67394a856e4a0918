// The one place where every failure becomes the contract's envelope `{ error_code, detail, fields? }`.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { isDatabaseBusy } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import { fieldErrors } from '../validation.js';
import { PATH_NOT_UTF8_DETAIL } from './request-target.js';

/** `limit` is the route's body limit in bytes (1 MiB unless the route says otherwise). */
function fromFastifyError(error: FastifyError, limit = 1024 * 1024): AppError | null {
  if (error.validation) {
    const { fields, detail } = fieldErrors(error.validation as never, error.validationContext ?? 'request');
    return new AppError('validation_error', detail, fields ? { fields } : {});
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('validation_error', `request body is larger than ${limit / 1024 / 1024} MiB`, { status: 413 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('validation_error', 'request bodies must be sent as Content-Type: application/json', { status: 415 });
    // The router could not decode the path (src/http/plugins/request-target.ts).
    case 'FST_ERR_BAD_URL':
      return new AppError('validation_error', PATH_NOT_UTF8_DETAIL);
    // A method the router has no tree for (e.g. PRI): Fastify's last-resort 404.
    case 'FST_ERR_NOT_FOUND':
      return new AppError('not_found', 'no route for this method and path');
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new AppError('validation_error', 'request body is not valid JSON');
  }
  // Any other client error Fastify detects (bad Content-Length, a QUERY without Content-Type, …).
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new AppError('validation_error', 'malformed request', { status });
  return null;
}

/** Seconds a client waits before sending a request again that found the database busy (it already waited 5 s). */
const BUSY_RETRY_AFTER_S = 1;

/** A database that stayed busy: 503 with Retry-After (the transaction that found it busy was rolled back), instead of an opaque 500. */
function fromDatabaseError(error: unknown): AppError | null {
  if (!isDatabaseBusy(error)) return null;
  const busy = new AppError('internal_error', `the database is busy: send the request again in ${BUSY_RETRY_AFTER_S} s`, {
    status: 503, headers: { 'Retry-After': String(BUSY_RETRY_AFTER_S) },
  });
  busy.cause = error;
  return busy;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  // Also on errors raised before the request-id hook ran (router and framework errors).
  reply.header('X-Request-Id', reply.request.id);
  if (error.code === 'unauthorized') reply.header('WWW-Authenticate', 'Bearer');
  for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
  return reply.code(error.status).send({
    error_code: error.code,
    detail: error.message,
    ...(error.fields ? { fields: error.fields } : {}),
  });
}

/** Writes an enveloped validation_error straight to the socket and closes it. */
function answerOnSocket(socket: Socket, status: number, detail: string, requestId: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error_code: 'validation_error', detail });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser rejects before any routing
 * (garbage, malformed headers, oversized headers, a request that arrives too slowly) with the
 * envelope and an X-Request-Id, then closes the connection, since the stream cannot be trusted.
 */
export function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = timedOut ? 408 : 400;
  const requestId = randomUUID();
  // Only the parser's code: the error also carries the raw bytes, which may hold an API key.
  this.log.info({ reqId: requestId, status, code: error.code }, 'rejected malformed request');
  answerOnSocket(socket, status, timedOut ? 'the request did not arrive in time' : 'malformed HTTP request', requestId);
}

/**
 * Requests Node answers (or drops) itself, before Fastify sees them: a CONNECT, which it would
 * hand to a proxy and otherwise close silently, and an `Expect` other than 100-continue, which
 * it would answer with a bare 417. Both get the envelope and an X-Request-Id instead.
 */
function registerProtocolErrors(app: FastifyInstance): void {
  app.server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    const requestId = randomUUID();
    app.log.info({ reqId: requestId, status: 400, method: 'CONNECT' }, 'rejected CONNECT request');
    answerOnSocket(socket, 400, 'CONNECT is not supported: this server is not a proxy', requestId);
  });
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const requestId = randomUUID();
    const body = JSON.stringify({ error_code: 'validation_error', detail: 'only "Expect: 100-continue" is supported' });
    app.log.info({ reqId: requestId, status: 417 }, 'rejected Expect header');
    response.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': requestId, Connection: 'close',
    });
    response.end(body);
  });
}

/**
 * Fastify's `frameworkErrors`: what the router rejects before any hook runs (a path whose
 * percent-encoding is not UTF-8), answered with the envelope and an X-Request-Id like the rest.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, fromFastifyError(error) ?? new AppError('internal_error', `internal error; request id ${request.id}`));
}

export function registerErrorHandling(app: FastifyInstance): void {
  registerProtocolErrors(app);
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error instanceof AppError ? error : fromDatabaseError(error) ?? fromFastifyError(error, request.routeOptions.bodyLimit);
    if (known && known.status >= 500) request.log.error({ err: known.cause ?? known }, known.message);
    if (known) return sendError(reply, known);
    request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, new AppError('internal_error', `internal error; request id ${request.id}`));
  });

  registerRoutedMethods(app);
  app.setNotFoundHandler(notFoundHandler);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every method some route of the app is registered for: the candidates for an Allow header. */
    routedMethods: ReadonlySet<string>;
  }
}

/** Collects route methods as routes are added, in every plugin (onRoute hooks are inherited). */
function registerRoutedMethods(app: FastifyInstance): void {
  const methods = new Set<string>();
  app.decorate('routedMethods', methods);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) methods.add(method);
  });
}

/**
 * The methods the router serves `url`'s path with, or none when no route but a CORS preflight
 * matches it: the widget API answers OPTIONS on every path under a widget key, known or not. Only
 * the most specific routes count: `/members/invitations` is served by GET and POST, and is not an
 * id for `PATCH /members/{id}` in the resource a client reads about.
 */
function methodsServing(app: FastifyInstance, url: string): string[] {
  const matches = [...app.routedMethods].flatMap((method) => {
    const route = app.findRoute({ method: method as HTTPMethods, url });
    // A catch-all's '*' (the widget's CORS preflight on every path) serves every path alike: not counted.
    return route ? [{ method, params: Object.keys(route.params).filter((name) => name !== '*').length }] : [];
  });
  const fewest = Math.min(...matches.map((match) => match.params));
  const methods = matches.filter((match) => match.params === fewest).map((match) => match.method);
  return methods.some((method) => method !== 'OPTIONS') ? methods.sort() : [];
}

/**
 * Every request no route answers, in every prefix: 405 with `Allow` (RFC 9110) when the path is
 * served by other methods, 404 when it is unknown. Both are `not_found` envelopes (the contract's
 * code for routing failures). Registered in each encapsulated prefix, so that the prefix's hooks
 * (the API's authentication first) run before it.
 */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0].slice(0, 200);
  const allowed = methodsServing(request.server, request.url);
  if (allowed.length === 0 || allowed.includes(request.method)) {
    return sendError(reply, new AppError('not_found', `no route for ${request.method} ${path}`));
  }
  const allow = allowed.join(', ');
  return sendError(reply, new AppError('not_found', `${request.method} is not allowed on ${path}; it allows ${allow}`, { status: 405, headers: { Allow: allow } }));
}
