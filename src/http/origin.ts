import type { FastifyRequest } from 'fastify';

/**
 * The base URL clients reach this server at: LOOPDESK_PUBLIC_URL when set (behind a proxy), else
 * the origin the request names; '' when it names none (HTTP/1.0 without a Host header).
 */
export const publicOrigin = (request: FastifyRequest, publicUrl: string | null): string =>
  publicUrl ?? (request.host ? `${request.protocol}://${request.host}` : '');
