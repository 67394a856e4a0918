// fast-check arbitraries for whole requests to one operation of openapi.json: path ids (real,
// foreign, malformed), query parameters (valid, invalid, duplicated, unknown), headers (keys,
// content types, the document's header parameters) and bodies (valid, one bad field, extra or
// missing fields, wrong top-level types, deep nesting, malformed JSON, oversized); bodies of raw
// bytes that are not UTF-8 (`rawBytesRequestArbitrary`); and paths and query strings whose
// percent-encoding is not UTF-8 (`undecodableTargetRequestArbitrary`).
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { fieldResource, pathParameterResource, type Resource } from './id-references.js';
import { anyString, deeplyNested, invalidValue, malformedId, toJson, validObject, validValue, type ValueContext } from './fuzz-values.js';
import { fillPath, percentEncode, type JsonSchema, type Operation, type Parameter } from './openapi-operations.js';

export interface FuzzRequest {
  operationId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export interface RequestContext extends Omit<ValueContext, 'resourceOf'> {
  /** Values for the Authorization header (null: none sent). */
  authorization: fc.Arbitrary<string | null>;
  /** Ids for a path parameter of the resource (shortcodes included for issues). */
  pathIds(resource: Resource): fc.Arbitrary<string>;
}

/** The request context with references resolved for one operation. */
type BoundContext = RequestContext & ValueContext;

const OTHER_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'];
const CONTENT_TYPES = [
  'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=UTF-8', 'text/plain', 'text/json',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/json; charset=latin1', 'application/vnd.api+json',
  'application/jsonx', 'json', '', '*/*', 'application/json, text/html',
];
const MALFORMED_JSON = [
  '', '{', '}', '{"a":}', '{"a" 1}', "{'a': 1}", '{"a": 1,}', '[', 'nul', 'tru', '"unterminated', '{"a": NaN}', '{"a": Infinity}',
  '{"a": 01}', '\ufeff{}', '{"a":"\\ud800"}', '{"a":"\\x41"}', '\u0000', '{"title": "a"}garbage', '{}{}', '[]]', '{"a":1e999999}',
  `{"a":${'['.repeat(10_000)}`,
];
const PROTO_POISON = ['{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {"admin": true}}}', '{"a": {"__proto__": {"x": 1}}}'];
const HEADER_VALUES = ['', ' ', 'x'.repeat(300), 'x'.repeat(4000), 'a b c', '../../', 'é', '"quoted"', '0'];

const toQueryText = (value: unknown): string => (typeof value === 'string' ? value : toJson(value));

/** Enum values of a comma-separated filter, as its description lists them ("Comma-separated from: a, b"). */
function csvValues(parameter: Parameter): string[] | null {
  const match = /Comma-separated from: (.+)$/.exec(parameter.schema.description ?? '');
  return match ? match[1].split(',').map((value) => value.trim()) : null;
}

function queryValue(op: Operation, parameter: Parameter, context: BoundContext): fc.Arbitrary<string> {
  const { name, schema } = parameter;
  const enumValues = csvValues(parameter);
  const resource = fieldResource(op, name, schema);
  const valid: fc.Arbitrary<string> = enumValues
    ? fc.subarray(enumValues, { minLength: 1 }).map((values) => values.join(','))
    : resource
      ? fc.array(fc.oneof(context.ids(resource), fc.constantFrom('none', 'me')), { minLength: 1, maxLength: 3 }).map((ids) => ids.join(', '))
      : validValue(name, schema, context).map(toQueryText);
  const invalid = fc.oneof(invalidValue(name, schema, context).map(toQueryText), malformedId, fc.constantFrom(',', ',,,', ' , ', '%zz', '%00', '1,2'));
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: invalid, weight: 2 });
}

/** `?a=1&b=2`, sometimes with a parameter given twice, an unknown one, or broken percent-encoding. */
function queryString(op: Operation, context: BoundContext): fc.Arbitrary<string> {
  const parameters = op.parameters.filter((p) => p.in === 'query');
  const pairs = parameters.map((parameter) =>
    fc.option(
      fc.oneof(
        { arbitrary: queryValue(op, parameter, context).map((value) => [[parameter.name, value]]), weight: 4 },
        { arbitrary: fc.tuple(queryValue(op, parameter, context), queryValue(op, parameter, context)).map(([x, y]) => [[parameter.name, x], [parameter.name, y]]), weight: 1 },
      ),
      { freq: 2 },
    ),
  );
  const extras = fc.option(fc.constantFrom([['unknown', '1']], [['__proto__', 'x']], [['limit[]', '1']], [['', '']], [['a'.repeat(2000), 'b']]), { freq: 5 });
  return fc.tuple(fc.tuple(...pairs), extras, fc.option(fc.constantFrom('&%zz=1', '&limit=%', '&&&', '&=', '#frag'), { freq: 10 })).map(([chosen, extra, raw]) => {
    const all = [...chosen.flatMap((pair) => pair ?? []), ...(extra ?? [])] as string[][];
    const text = all.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join('&');
    const query = `${text}${raw ?? ''}`;
    return query ? `?${query}` : '';
  });
}

function pathValues(op: Operation, context: BoundContext): fc.Arbitrary<Record<string, string>> {
  const parameters = op.parameters.filter((p) => p.in === 'path');
  const values = parameters.map((p) =>
    fc.oneof({ arbitrary: context.pathIds(pathParameterResource(op, p.name)), weight: 6 }, { arbitrary: malformedId, weight: 2 }),
  );
  return fc.tuple(...values).map((chosen) => Object.fromEntries(parameters.map((p, i) => [p.name, chosen[i]])));
}

function withOneField(schema: JsonSchema, context: BoundContext): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(schema.properties ?? {});
  return fc.tuple(validObject(schema, context), fc.constantFrom(...names)).chain(([object, name]) =>
    invalidValue(name, schema.properties![name], context).map((value) => ({ ...object, [name]: value })),
  );
}

function bodyPayload(schema: JsonSchema, context: BoundContext): fc.Arbitrary<string | undefined> {
  const valid = validObject(schema, context);
  const required = schema.required ?? [];
  const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map(toJson);
  return fc.oneof(
    { arbitrary: json(valid), weight: 8 },
    { arbitrary: json(withOneField(schema, context)), weight: 8 },
    { arbitrary: json(fc.tuple(valid, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })).map(([o, k, v]) => ({ ...o, [`x_${k}`]: v }))), weight: 2 },
    { arbitrary: json(fc.tuple(valid, fc.constantFrom(...(required.length ? required : ['none']))).map(([o, k]) => ({ ...o, [k]: undefined }))), weight: 2 },
    { arbitrary: json(fc.oneof(fc.array(valid, { maxLength: 2 }), fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.constant(deeplyNested(100_000, 'array')))), weight: 2 },
    { arbitrary: fc.constantFrom(...MALFORMED_JSON, ...PROTO_POISON), weight: 2 },
    { arbitrary: json(valid.map((o) => ({ ...o, [Object.keys(schema.properties ?? { title: 0 })[0]]: 'z'.repeat(1024 * 1024) }))), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

const stray = fc.oneof(fc.constant(undefined), fc.constant('{}'), fc.constant('{"a":1}'), anyString(20));

const bound = (op: Operation, generic: RequestContext): BoundContext =>
  ({ ...generic, resourceOf: (name: string, schema: JsonSchema) => fieldResource(op, name, schema) });

export function requestArbitrary(op: Operation, generic: RequestContext): fc.Arbitrary<FuzzRequest> {
  const context = bound(op, generic);
  const headerParameters = op.parameters.filter((p) => p.in === 'header');
  const headerValue = fc.oneof(fc.uuid(), fc.constantFrom(...HEADER_VALUES));
  return fc
    .record({
      method: fc.oneof({ arbitrary: fc.constant(op.method), weight: 20 }, { arbitrary: fc.constantFrom(...OTHER_METHODS), weight: 1 }),
      path: pathValues(op, context),
      query: queryString(op, context),
      authorization: context.authorization,
      payload: op.body ? bodyPayload(op.body, context) : fc.option(stray, { freq: 10 }).map((value) => value ?? undefined),
      contentType: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 12 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 }),
      headerParameters: fc.tuple(...headerParameters.map(() => fc.option(headerValue, { freq: 3 }))),
      requestId: fc.option(fc.constantFrom('trace-1', 'x'.repeat(129), 'a b', '../..', ''), { freq: 8 }),
      accept: fc.option(fc.constantFrom('text/html', '*/*', 'application/xml', 'application/json;q=0'), { freq: 8 }),
    })
    .map((r) => {
      const headers: Record<string, string> = {};
      if (r.authorization !== null) headers.authorization = r.authorization;
      if (r.payload !== undefined) headers['content-type'] = r.contentType;
      headerParameters.forEach((p, i) => {
        if (r.headerParameters[i] !== null) headers[p.name.toLowerCase()] = r.headerParameters[i]!;
      });
      if (r.requestId !== null) headers['x-request-id'] = r.requestId;
      if (r.accept !== null) headers.accept = r.accept;
      const url = `${fillPath(op.path, r.path)}${r.query}`;
      return { operationId: op.operationId, method: r.method, url, headers, payload: r.payload };
    });
}

/**
 * Byte sequences that are not UTF-8 (RFC 3629), each a way a broken client or a wrong charset
 * gets text wrong: Latin-1 and Windows-1252 bytes, overlong forms, surrogates encoded as if they
 * were characters (CESU-8, WTF-8), code points past U+10FFFF, 5-byte forms, cut sequences, stray
 * continuation bytes, UTF-16's byte order marks.
 */
export const NOT_UTF8 = [
  [0xe9], [0x80], [0x9c], [0xc3, 0x28], [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xf0, 0x80, 0x80, 0xaf],
  [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xff, 0xfe], [0xfe, 0xff],
].map((bytes) => Buffer.from(bytes));

export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Lone surrogates written as JSON escapes: UTF-8 and valid JSON, but not Unicode text. */
const LONE_SURROGATE_ESCAPES = ['\\ud800', '\\udbff', '\\udc00', '\\udfff', '\\ud83d'].map((escape) => Buffer.from(escape));

/** Stands for the bytes in a body until they are put into its JSON text, where it is escaped. */
const BYTES_MARK = '\u0002bytes\u0002';
const ESCAPED_BYTES_MARK = JSON.stringify(BYTES_MARK).slice(1, -1);

/**
 * A valid body for the operation with bytes put into it: inside one of its strings, before it,
 * or instead of it; the bytes are one of NOT_UTF8, random (mostly not UTF-8 either) or a lone
 * surrogate's JSON escape. Or, in one request of eight, a UTF-8 byte order mark before the valid
 * body, which must be taken as the body alone.
 */
function rawPayload(op: Operation, context: BoundContext): fc.Arbitrary<Buffer> {
  const names = Object.keys(op.body?.properties ?? {});
  const bytes = fc.oneof(
    { arbitrary: fc.constantFrom(...NOT_UTF8), weight: 6 },
    { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 12 }).map((b) => Buffer.from(b)), weight: 2 },
    { arbitrary: fc.constantFrom(...LONE_SURROGATE_ESCAPES), weight: 1 },
  );
  return fc.record({
    object: op.body ? validObject(op.body, context) : fc.constant({}),
    name: fc.constantFrom(...(names.length > 0 ? names : ['text'])),
    bytes,
    where: fc.oneof({ arbitrary: fc.constantFrom('in a string', 'before', 'alone'), weight: 7 }, { arbitrary: fc.constant('bom'), weight: 1 }),
  }).map(({ object, name, bytes, where }) => {
    if (where === 'bom') return Buffer.concat([UTF8_BOM, Buffer.from(toJson(object))]);
    if (where === 'alone') return bytes;
    if (where === 'before') return Buffer.concat([bytes, Buffer.from(toJson(object))]);
    const kept = (object as Record<string, unknown>)[name];
    const [head, tail] = toJson({ ...object, [name]: `${BYTES_MARK}${typeof kept === 'string' ? kept : ''}` }).split(ESCAPED_BYTES_MARK);
    return Buffer.concat([Buffer.from(head), bytes, Buffer.from(tail)]);
  });
}

/**
 * Requests with a body of raw bytes to an operation that takes a body (JSON, or the raw mail or
 * image some take), with its own method, real and malformed path ids and the context's
 * credentials, sent as JSON (with and without a charset) or as the operation's own media type.
 */
export function rawBytesRequestArbitrary(op: Operation, generic: RequestContext): fc.Arbitrary<FuzzRequest> {
  const context = bound(op, generic);
  const json = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'APPLICATION/JSON');
  return fc
    .record({
      path: pathValues(op, context),
      authorization: context.authorization,
      payload: rawPayload(op, context),
      contentType: op.rawBody ? fc.oneof(json, fc.constant(op.rawBody)) : json,
    })
    .map((r) => ({
      operationId: op.operationId,
      method: op.method,
      url: fillPath(op.path, r.path),
      headers: { 'content-type': r.contentType, ...(r.authorization !== null && { authorization: r.authorization }) },
      payload: r.payload,
    }));
}

/** `bytes` as percent escapes (`%E9`). */
const escaped = (bytes: Uint8Array): string => [...bytes].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * Percent-encoding that does not decode to UTF-8: NOT_UTF8's bytes and random bytes that are not
 * UTF-8, escaped (lone surrogates among them, `%ED%A0%80`), or an escape that is malformed.
 */
const undecodableEscape = fc.oneof(
  { arbitrary: fc.constantFrom(...NOT_UTF8).map(escaped), weight: 6 },
  { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 6 }).filter((bytes) => !isUtf8(bytes)).map(escaped), weight: 2 },
  { arbitrary: fc.constantFrom('%', '%2', '%zz', '%%', '%G0', '%e'), weight: 2 },
);

/** Stands for the escape in a path or query until it is put there, unencoded. */
const ESCAPE_MARK = 'ESCAPE-MARK';

/**
 * Requests to an operation, with its own method, a valid body when it takes JSON and the context's
 * credentials, whose path or query string holds percent-encoding that is not UTF-8: in one of its
 * path parameters, or in the value or name of one of its query parameters (an unknown one when it
 * has none), after and before valid text, beside the other parameters the fuzzer sends.
 */
export function undecodableTargetRequestArbitrary(op: Operation, generic: RequestContext): fc.Arbitrary<FuzzRequest> {
  const context = bound(op, generic);
  const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const places = [...pathNames.map((name) => ['path', name]), ...(queryNames.length > 0 ? queryNames : ['unknown']).flatMap((name) => [['value', name], ['name', name]])];
  return fc
    .record({
      path: pathValues(op, context),
      query: queryString(op, context),
      place: fc.constantFrom(...places),
      around: fc.tuple(anyString(8), anyString(8)),
      escape: undecodableEscape,
      authorization: context.authorization,
      payload: op.body ? validObject(op.body, context).map(toJson) : fc.constant(undefined),
    })
    .map((r) => {
      const [where, name] = r.place as [string, string];
      const path = fillPath(op.path, where === 'path' ? { ...r.path, [name]: ESCAPE_MARK } : r.path);
      const pair = where === 'value' ? `${percentEncode(name)}=${ESCAPE_MARK}` : where === 'name' ? `${ESCAPE_MARK}=1` : '';
      // First, so that it comes before a fragment the generated query may end with.
      const query = [pair, r.query.slice(1)].filter(Boolean).join('&');
      const bad = `${percentEncode(r.around[0])}${r.escape}${percentEncode(r.around[1])}`;
      const url = `${path}${query ? `?${query}` : ''}`.replace(ESCAPE_MARK, () => bad);
      const headers: Record<string, string> = {
        ...(r.payload !== undefined && { 'content-type': 'application/json' }),
        ...(r.authorization !== null && { authorization: r.authorization }),
      };
      return { operationId: op.operationId, method: op.method, url, headers, payload: r.payload };
    });
}
