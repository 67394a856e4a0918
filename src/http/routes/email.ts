// Mail in by HTTP (POST /inbound/email, for providers that forward mail as a request) and the
// download of attachments. Its own plugin: the raw-message body parser belongs to these routes alone.
import { Type } from '@sinclair/typebox';
import type { AttachmentService } from '../../domain/email/attachment.service.js';
import type { InboundService } from '../../domain/email/inbound.service.js';
import { AppError } from '../../errors.js';
import type { TypedApp } from '../route.js';
import { singleIdFilter } from '../filters.js';
import { DataOf, IdFilter, IdParams, errorResponses } from '../schemas/common.js';
import { InboundResult } from '../schemas/email.js';

/** The largest raw message POST /inbound/email takes. */
export const INBOUND_MAIL_MAX_BYTES = 25 * 1024 * 1024;
const RAW_MAIL = 'message/rfc822';

export function emailRoutes(app: TypedApp, { inbound, attachments }: { inbound: InboundService; attachments: AttachmentService }): void {
  app.addContentTypeParser(RAW_MAIL, { parseAs: 'buffer', bodyLimit: INBOUND_MAIL_MAX_BYTES }, (_request, body, done) => done(null, body));

  app.post('/inbound/email', {
    bodyLimit: INBOUND_MAIL_MAX_BYTES,
    schema: {
      operationId: 'receiveInboundEmail',
      tags: ['Email'],
      summary: 'Receive a mail',
      description:
        '[ext] The raw message (RFC 5322, as `Content-Type: message/rfc822`, at most 25 MiB), as a mail provider forwards it. ' +
        'The product is the one whose inbound address (or a conversation\'s reply address) is among the recipients; when none ' +
        'is, `product_id` names it (else 400 on product_id). A new thread starts an email conversation; a reply joins its ' +
        'conversation and reopens it. The same Message-ID is stored once. Automatic mail (Auto-Submitted, Precedence ' +
        'bulk/junk/list, List-Id), our own mail and a sender over the hourly limit are ignored; a delivery report marks the ' +
        'reply it returns as failed. Ignored mail is still a 202. Needs the settings role (an owner or admin, or a key without a member).',
      querystring: Type.Object({
        product_id: Type.Optional(IdFilter('The product (UUID), when no recipient of the mail names one')),
      }),
      body: { content: { [RAW_MAIL]: { schema: Type.Unsafe<Buffer>({ format: 'binary', description: 'The raw message' }) } } },
      response: { 202: DataOf(InboundResult, 'What became of the mail'), ...errorResponses(403, 413, 415) },
    },
    handler: async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        throw new AppError('validation_error', `send the raw message as Content-Type: ${RAW_MAIL}`, { status: 415 });
      }
      const result = await inbound.receiveHttp(request.actor, request.body, singleIdFilter('product_id', request.query.product_id));
      reply.code(202);
      return { data: result };
    },
  });

  app.get('/attachments/:id', {
    schema: {
      operationId: 'downloadAttachment',
      tags: ['Email'],
      summary: 'Download an attachment',
      description: '[ext] The file\'s bytes with the content type it came with in the mail, always as a download (`Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`).',
      params: IdParams('Attachment id (UUID)'),
      response: {
        200: {
          description: 'The file, as the content type it came with (`application/octet-stream` when the mail gave none)',
          headers: { 'Content-Disposition': Type.String({ description: 'attachment, with the file\'s name' }) },
          content: { '*/*': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
        },
        ...errorResponses(404),
      },
    },
    handler: async (request, reply) => {
      const { attachment, content } = await attachments.download(request.actor, request.params.id);
      const ascii = attachment.filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .header('Content-Type', attachment.content_type)
        .header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(attachment.filename)}`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .send(content);
    },
  });
}
