// A visitor's screenshot into one of their conversations (docs/email.md, "Attachments"). Its own
// plugin: the image body parsers belong to this route alone.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { SCREENSHOT_MAX_BYTES, SCREENSHOT_TYPES, type ScreenshotService } from '../../../domain/widget/screenshot.service.js';
import type { VisitorConversationService } from '../../../domain/widget/visitor-conversation.service.js';
import { AppError } from '../../../errors.js';
import type { TypedApp } from '../../route.js';
import { DataOf } from '../../schemas/common.js';
import { SESSION, VisitorMessage, WidgetItemParams, widgetWriteErrors } from '../schemas.js';
import { visitorOf } from '../visitor-auth.js';

export function screenshotRoutes(app: TypedApp, { screenshots, visitorConversations }: { screenshots: ScreenshotService; visitorConversations: VisitorConversationService }): void {
  app.addContentTypeParser([...SCREENSHOT_TYPES], { parseAs: 'buffer', bodyLimit: SCREENSHOT_MAX_BYTES }, (_request, body, done) => done(null, body));
  const image = Type.Unsafe<Buffer>({ format: 'binary', description: 'The image\'s bytes' });

  app.post('/:widget_key/conversations/:id/screenshots', {
    bodyLimit: SCREENSHOT_MAX_BYTES,
    schema: {
      operationId: 'postVisitorScreenshot', tags: ['Visitor conversations'], summary: 'Send a screenshot',
      description: 'An image (PNG, JPEG, GIF or WebP, at most 5 MiB; the bytes must be one of these whatever the Content-Type says) ' +
        'into the conversation, as a message of the visitor\'s whose attachment the team sees. A resolved conversation opens again.',
      security: SESSION,
      params: WidgetItemParams,
      querystring: Type.Object({ filename: Type.Optional(Type.String({ maxLength: 200, description: 'The file\'s name; `screenshot.<type>` when omitted' })) }),
      body: { content: Object.fromEntries(SCREENSHOT_TYPES.map((type) => [type, { schema: image }])) },
      response: { 201: DataOf(VisitorMessage, 'The message carrying the screenshot'), ...widgetWriteErrors(401) },
    },
    config: {
      visitor: 'required',
      ensureExists: (request: FastifyRequest) => visitorConversations.ensureVisible(visitorOf(request), (request.params as { id: string }).id),
    },
    handler: async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) throw new AppError('validation_error', `send the image as Content-Type: ${SCREENSHOT_TYPES.join(', ')}`, { status: 415 });
      const message = await screenshots.post(visitorOf(request), request.params.id, request.body, request.query.filename);
      reply.code(201);
      return { data: message };
    },
  });
}
