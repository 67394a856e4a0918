// X-Request-Id on every response and exactly one log line per request: method, path, status,
// time and the request id. Never headers, query strings or bodies (they may carry keys or
// customer data), and never a secret a path carries (loggedPath).
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/** The tokens this server issues (src/lib/tokens.ts); widget keys (`wk_`) are public identifiers and stay. */
const TOKEN_PREFIX = /^(ldk|lds|ldi|wst|ids|whsec)_/i;
/** One-time links: their third segment is a secret, whatever it looks like (without its prefix, percent-encoded, …). */
const ONE_TIME_LINKS = new Set(['/auth/invitations', '/app/invite']);
const ONE_TIME_SEGMENT = 3;
const PATH_LOGGED_MAX = 200;

/**
 * The path of a request URL as it may be logged: no query string, and every secret segment
 * replaced by `[redacted]` after its token prefix, so the line stays recognisable
 * (`/auth/invitations/ldi_[redacted]`).
 */
export function loggedPath(url: string): string {
  const segments = url.split('?')[0].split('/');
  const oneTimeLink = ONE_TIME_LINKS.has(segments.slice(0, ONE_TIME_SEGMENT).join('/').toLowerCase());
  const secret = (segment: string, index: number) => TOKEN_PREFIX.test(segment) || (oneTimeLink && index === ONE_TIME_SEGMENT);
  return segments
    .map((segment, index) => (secret(segment, index) ? `${/^[a-z]+_/i.exec(segment)?.[0] ?? ''}[redacted]` : segment))
    .join('/')
    .slice(0, PATH_LOGGED_MAX);
}

class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override routeNotFound(): void {}
  // Unexpected errors are logged once, with the request id, by the error handler.
  override defaultErrorLog(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      path: loggedPath(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }
}

export const requestLogController = () => new OneLinePerRequest();

export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
}
