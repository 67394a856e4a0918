// X-Request-Id on every response and exactly one log line per request: method, path, status,
// time and the request id. Never headers, query strings or bodies (they may carry keys or
// customer data).
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override routeNotFound(): void {}
  // Unexpected errors are logged once, with the request id, by the error handler.
  override defaultErrorLog(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      path: request.url.split('?')[0].slice(0, 200),
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
