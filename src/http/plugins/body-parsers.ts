// The request body parsers every route shares (the API, the widget API, the auth routes): JSON
// alone, and only as UTF-8 (docs/api.md, "Request bodies are UTF-8"). Registered on the root
// before any route plugin, so every prefix inherits them; a route that takes other bytes (a raw
// mail, an image) adds its own parser for its own media type in its own plugin.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

export const NOT_UTF8_DETAIL =
  'request body is not valid UTF-8 (overlong forms, encoded surrogates and Latin-1 or other single-byte text are refused)';

export function registerBodyParsers(app: FastifyInstance): void {
  // Anything but JSON is a 415.
  app.removeContentTypeParser('text/plain');
  // `__proto__` and `constructor.prototype` keys are parsed as plain own properties and refused
  // by validation, field by field (src/http/validation.ts), rather than as unparseable JSON. The
  // parser also skips one leading byte order mark, as RFC 8259 lets a parser do.
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  // Read as bytes: Fastify's own decoding would turn every invalid sequence into U+FFFD, and the
  // mangled text would be stored as if the client had sent it.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    // Zero bytes are no body (docs/api.md, "An empty body is no body"): a client that announces
    // JSON on every call (the README's `api` helper) can still call a route that takes none, and
    // a route that requires one says so when it validates the body.
    if (body.length === 0) return done(null, undefined);
    if (!isUtf8(body)) return done(new AppError('validation_error', NOT_UTF8_DETAIL));
    parseJson(request, body.toString('utf8'), done);
  });
}
