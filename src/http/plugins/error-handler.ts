// The one place where every failure becomes the contract's envelope `{ error_code, detail, fields? }`.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { fieldErrors } from '../validation.js';

function fromFastifyError(error: FastifyError): AppError | null {
  if (error.validation) {
    const { fields, detail } = fieldErrors(error.validation as never, error.validationContext ?? 'request');
    return new AppError('validation_error', detail, fields ? { fields } : {});
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('validation_error', 'request body is larger than 1 MiB', { status: 413 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('validation_error', 'request bodies must be sent as Content-Type: application/json', { status: 415 });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('validation_error', 'Content-Type is application/json but the body is empty');
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new AppError('validation_error', 'request body is not valid JSON');
  }
  // Any other client error Fastify detects (bad URL encoding, bad Content-Length, …).
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new AppError('validation_error', 'malformed request', { status });
  return null;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.code === 'unauthorized') reply.header('WWW-Authenticate', 'Bearer');
  return reply.code(error.status).send({
    error_code: error.code,
    detail: error.message,
    ...(error.fields ? { fields: error.fields } : {}),
  });
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
  const body = JSON.stringify({
    error_code: 'validation_error',
    detail: timedOut ? 'the request did not arrive in time' : 'malformed HTTP request',
  });
  // Only the parser's code: the error also carries the raw bytes, which may hold an API key.
  this.log.info({ reqId: requestId, status, code: error.code }, 'rejected malformed request');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error instanceof AppError ? error : fromFastifyError(error);
    if (known && known.status >= 500) request.log.error({ err: known.cause ?? known }, known.message);
    if (known) return sendError(reply, known);
    request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, new AppError('internal_error', `internal error; request id ${request.id}`));
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new AppError('not_found', `no route for ${request.method} ${request.url.split('?')[0].slice(0, 200)}`)),
  );
}
