// What every error response must look like (docs/api.md, Errors): the contract's envelope with a
// code that agrees with the status, and nothing an attacker could learn the internals from.

const STATUS_OF_CODE: Record<string, number[]> = {
  unauthorized: [401],
  forbidden: [403, 429],
  not_found: [404, 405],
  validation_error: [400, 408, 413, 415, 417, 431],
};

/** Traces of internals: SQL and driver errors, stack frames, file paths, keys. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\n\s+at |\bat [\w.<>]+ \(|\(node:internal/],
  ['a file path', /\/(?:work|home|usr|tmp|src|dist|node_modules)\/|file:\/\/|\w\.(?:ts|js|mjs|cjs):\d+/],
  ['SQL', /\b(?:select\s[\s\S]*\sfrom|insert\s+into|update\s+\w+\s+set|delete\s+from)\b|syntax error at or near|near ".*": syntax error/i],
  ['a database error', /SQLITE_|sqlite3|duplicate key value|violates .* constraint|relation ".*"|pg_|invalid byte sequence|column ".*"/i],
  ['an error class', /\b(?:TypeError|RangeError|ReferenceError|SyntaxError)\b|Cannot read propert/],
  ['an API key', /ldk_[0-9A-Za-z]{8,}/],
];

/** Problems with one response, as sentences (empty when it is fine). */
export function responseProblems(status: number, headers: Record<string, unknown>, text: string): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`a ${status}`);
  else if (status < 200 || (status >= 300 && status < 400)) problems.push(`an unexpected status ${status}`);
  if (!headers['x-request-id']) problems.push('no X-Request-Id');
  if (status < 400) return problems;

  if (!String(headers['content-type'] ?? '').startsWith('application/json')) problems.push(`a non-JSON error (${headers['content-type']})`);
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    return [...problems, `an error body that is not JSON: ${text.slice(0, 200)}`];
  }
  const extra = Object.keys(body).filter((key) => !['error_code', 'detail', 'fields'].includes(key));
  if (extra.length) problems.push(`unexpected envelope keys ${extra.join(', ')}`);
  if (typeof body.detail !== 'string') problems.push('no detail');
  const allowed = STATUS_OF_CODE[String(body.error_code)];
  if (!allowed) problems.push(`error_code ${JSON.stringify(body.error_code)}`);
  else if (!allowed.includes(status)) problems.push(`error_code ${body.error_code} with status ${status}`);
  if (body.fields !== undefined && (typeof body.fields !== 'object' || body.fields === null || Object.values(body.fields).some((v) => typeof v !== 'string'))) {
    problems.push('fields is not an object of strings');
  }
  for (const [what, pattern] of LEAKS) if (pattern.test(text)) problems.push(`${what} in the body: ${text.slice(0, 300)}`);
  return problems;
}
