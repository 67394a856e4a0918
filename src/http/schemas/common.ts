// Shared TypeBox building blocks: the envelopes, pagination, errors and nullable helpers.
import { Type, type Static, type TSchema, type SchemaOptions } from '@sinclair/typebox';
import { SHORTCODE_PATTERN } from '../../domain/issues/issue-refs.js';
import { ERROR_CODES } from '../../errors.js';

/** `T | null` as OpenAPI 3.1 writes it: `type: [T, "null"]` (no anyOf, clearer errors). */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}) {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') return Type.Union([schema, Type.Null()], options);
  // An enum lists null too, or null would fail it.
  const values = (schema as { enum?: unknown[] }).enum;
  return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) });
}

/** A string enum as `{ type: "string", enum: [...] }`, which reads better than a union of consts. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', examples: ['2026-11-21T10:25:00.000Z'], ...(description ? { description } : {}) });

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', examples: ['0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091'], ...(description ? { description } : {}) });

/** [ext] An issue named by its UUID or its shortcode (`APP-12`, any case), wherever a body names an issue. */
export const IssueRef = (description: string) =>
  Type.String({ pattern: `^(?:${UUID_PATTERN}|${SHORTCODE_PATTERN})$`, examples: ['APP-12'], description: `${description} (UUID or shortcode)` });

/**
 * What String.prototype.trim removes, spelled out rather than `\s`: the document's patterns are
 * read by other regular-expression engines too (Python's `\s` is another set).
 */
const WHITESPACE = '\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** A pattern that holds when a string keeps at least one character after trimming. */
export const NOT_BLANK = `[^${WHITESPACE}]`;
/** A pattern that holds when a string has no U+0000, which no request body string may hold. */
export const NUL_FREE = '^[^\\u0000]*$';
/** NOT_BLANK and NUL_FREE in one pattern (JSON Schema gives a string one `pattern`). */
export const NOT_BLANK_NUL_FREE = `^[^\\u0000]*[^${WHITESPACE}\\u0000][^\\u0000]*$`;
const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * A pattern for 1–`max` characters (code points) after trimming, none of them in `excluded` (a
 * character class body) nor U+0000: for strings the service trims and checks itself, so that
 * its error names the bad item (`RouteParsed` below, and `x-route-parsed` body items).
 */
export const trimmedPattern = (max: number, excluded: string): string => {
  const edge = `[^${WHITESPACE}${excluded}\u0000]`;
  return `^[${WHITESPACE}]*${edge}(?:[^${excluded}\u0000]{0,${max - 2}}${edge})?[${WHITESPACE}]*$`;
};

/** A string the server trims before validating; limits apply to the trimmed value, which must not be blank. */
export const TrimmedString = (options: SchemaOptions & { minLength: number; maxLength?: number }) =>
  Type.String({ ...options, pattern: NOT_BLANK, 'x-trim': true });

/**
 * A reference to a named schema (one with a `$id`, listed in SHARED_SCHEMAS): the OpenAPI document
 * shows it as `$ref: #/components/schemas/<$id>`, TypeScript sees the schema's own type.
 */
export const Ref = <T extends TSchema>(schema: T, options: SchemaOptions = {}) => {
  if (!schema.$id) throw new Error('Ref() needs a schema with a $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id, options));
};

export const ErrorBody = Type.Object(
  {
    error_code: StringEnum(ERROR_CODES, { description: 'Machine-readable error class' }),
    detail: Type.String({ description: 'Human-readable explanation' }),
    fields: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: 'Per-field messages, keyed by the field name as sent' }),
    ),
  },
  { $id: 'Error', additionalProperties: false, description: 'Error envelope', examples: [{ error_code: 'validation_error', detail: 'title: must not be empty', fields: { title: 'must not be empty' } }] },
);

const ERROR_DESCRIPTIONS = {
  400: 'Validation failed (`validation_error`); `fields` names each offending field',
  401: 'Missing, malformed, unknown or revoked API key (`unauthorized`)',
  403: 'The key may not do this, e.g. a read-only key on a non-GET method (`forbidden`)',
  404: 'Unknown resource id or shortcode, or one of another workspace (`not_found`)',
  413: 'Body larger than 1 MiB (`validation_error`)',
  415: 'Body sent with a Content-Type other than application/json (`validation_error`)',
  429: '[ext] Rate limit of this API key reached (`forbidden`, `detail` says so); retry after `Retry-After` seconds',
  500: 'Unexpected failure (`internal_error`); safe to retry',
  503: 'The database stayed busy (`internal_error`, `detail` says so): the write that found it busy was rolled back; safe to send again after `Retry-After` seconds',
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

const rateLimitHeader = (description: string) => Type.Integer({ minimum: 0, description });

/** Every response to a rate-limited request carries the RateLimit-* headers when limiting is on. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': rateLimitHeader('Requests per minute allowed (the bucket size)'),
  'RateLimit-Remaining': rateLimitHeader('Requests left in the bucket'),
  'RateLimit-Reset': rateLimitHeader('Seconds until the bucket is full again'),
  'Retry-After': rateLimitHeader('Seconds until the next request will be accepted'),
};

/** A busy database's 503. */
const BUSY_HEADERS = { 'Retry-After': Type.Integer({ minimum: 0, description: 'Seconds to wait before sending the request again' }) };

const HEADERS_OF: Partial<Record<ErrorStatus, Record<string, TSchema>>> = { 429: RATE_LIMIT_HEADERS, 503: BUSY_HEADERS };

/**
 * Error responses described for one surface (the API, the widget API): 400, 401, 429, 500 and
 * 503 always, the rest as the route can produce them.
 */
export const errorResponsesOf = (descriptions: Record<ErrorStatus, string>, always: ErrorStatus[]) => (...statuses: ErrorStatus[]) => {
  const all: ErrorStatus[] = [...new Set<ErrorStatus>([...always, ...statuses])];
  return Object.fromEntries(
    all.map((status) => [
      status,
      Ref(ErrorBody, { description: descriptions[status], ...(HEADERS_OF[status] ? { headers: HEADERS_OF[status] } : {}) }),
    ]),
  );
};

/** Error responses for an /api/v1 route. */
export const errorResponses = errorResponsesOf(ERROR_DESCRIPTIONS, [400, 401, 429, 500, 503]);

/** Errors of a route that takes a JSON body. */
export const writeErrors = (...statuses: ErrorStatus[]) => errorResponses(403, 413, 415, ...statuses);

export const Pagination = Type.Object(
  {
    total: Type.Integer({ description: 'Records matching the filters, ignoring limit/offset' }),
    limit: Type.Integer({ description: 'The page size used' }),
    offset: Type.Integer({ description: 'Records skipped before this page' }),
  },
  { $id: 'Pagination', additionalProperties: false, description: 'Where a page sits in the whole list', examples: [{ total: 120, limit: 50, offset: 50 }] },
);

const PAGE_DEFAULTS = { limit: 50, offset: 0 };

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: PAGE_DEFAULTS.limit, description: 'Page size, 1–200' })),
  // Bounded so that every accepted value is an exact integer both databases take as OFFSET.
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: PAGE_DEFAULTS.offset, description: 'Records to skip' }),
  ),
};

/** The page a list request asks for, defaults applied. */
export const pageOf = ({ limit, offset }: { limit?: number; offset?: number }) => ({
  limit: limit ?? PAGE_DEFAULTS.limit,
  offset: offset ?? PAGE_DEFAULTS.offset,
});

export const DataOf = <T extends TSchema>(schema: T, description: string) =>
  Type.Object({ data: Ref(schema) }, { additionalProperties: false, description });

/** The list envelope for a page a service returned: `{ data, pagination: { total, limit, offset } }`. */
export const listBody = <T>(page: { rows: T[]; total: number }, { limit, offset }: { limit: number; offset: number }) => ({
  data: page.rows,
  pagination: { total: page.total, limit, offset },
});

export const ListOf = <T extends TSchema>(schema: T, description: string) =>
  Type.Object({ data: Type.Array(Ref(schema)), pagination: Ref(Pagination) }, { additionalProperties: false, description });

/** A path id: not validated by the schema, so a malformed id is a 404 rather than a 400. */
export const IdParams = (description: string) =>
  Type.Object({ id: Type.String({ description }) }, { additionalProperties: false });

/** Comma-separated items, each trimmed, empty ones ignored (src/http/filters.ts reads them). */
function csvPattern(item: string): string {
  const one = `[${WHITESPACE}]*(?:${item})?[${WHITESPACE}]*`;
  return `^${one}(?:,${one})*$`;
}

/**
 * Query parameters the route parses itself (src/http/filters.ts), and body strings the service
 * checks itself, so that an error names the bad item; their `pattern` tells clients the same
 * rule, and validation leaves it to the route or service (src/http/validation.ts).
 */
const RouteParsed = (description: string, pattern: string) => Type.String({ description, pattern, 'x-route-parsed': true });

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A comma-separated enum filter. */
export const CsvFilter = (description: string, values: readonly string[]) =>
  RouteParsed(`${description}. Comma-separated from: ${values.join(', ')}`, csvPattern(values.map(escapeRegExp).join('|')));

/** A comma-separated filter of ids, and of `literals` such as `none`. */
export const CsvIdFilter = (description: string, literals: readonly string[]) =>
  RouteParsed(description, csvPattern([UUID_PATTERN, ...literals].join('|')));

/** A single id filter such as `product_id` (surrounding whitespace ignored). */
export const IdFilter = (description: string) => RouteParsed(description, `^[${WHITESPACE}]*${UUID_PATTERN}[${WHITESPACE}]*$`);
