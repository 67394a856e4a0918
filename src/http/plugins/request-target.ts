// A request's path and query string are percent-encoded UTF-8 (docs/api.md, "Paths and query
// strings are percent-encoded UTF-8"). Fastify's router refuses a path that does not decode
// (FST_ERR_BAD_URL, answered with PATH_NOT_UTF8_DETAIL by error-handler.ts), but its query parser
// keeps a value it cannot decode as the raw text (`?q=%E9` searched for "%E9"). A hook on the root
// refuses such a query on every route, before authentication, as the router refuses such a path.
import type { FastifyInstance } from 'fastify';
import { AppError, type FieldErrors } from '../../errors.js';

const RULE = 'a "%" starts an escape of UTF-8 bytes such as %C3%A9; Latin-1 bytes (%E9), overlong forms, encoded surrogates and a "%" without two hex digits are refused';

export const PATH_NOT_UTF8_DETAIL = `request path must start with "/" and be percent-encoded UTF-8 (${RULE})`;
export const QUERY_NOT_UTF8 = 'is not percent-encoded UTF-8';

/** Whether `text` decodes: decodeURIComponent throws on a malformed escape and on bytes that are not UTF-8 (surrogates included). */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The parameters whose name or value does not decode, by name (as sent, when the name itself does not decode). */
function undecodableParameters(query: string): FieldErrors {
  // Without a prototype, a parameter named `__proto__` is an entry like any other.
  const fields: FieldErrors = Object.create(null);
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    if (decodes(name) && decodes(pair.slice(name.length + 1))) continue;
    fields[decodes(name) ? decodeURIComponent(name.replace(/\+/g, ' ')) : name] = QUERY_NOT_UTF8;
  }
  return fields;
}

export function registerRequestTargetCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const start = request.url.indexOf('?');
    if (start < 0) return;
    const query = request.url.slice(start + 1);
    // A multi-byte character's escapes are never split by "&" or "=", so the whole text decodes
    // exactly when every name and value does.
    if (!query.includes('%') || decodes(query)) return;
    const fields = undecodableParameters(query);
    throw new AppError('validation_error', `invalid querystring: ${Object.keys(fields).join(', ')} ${QUERY_NOT_UTF8} (${RULE})`, { fields });
  });
}
