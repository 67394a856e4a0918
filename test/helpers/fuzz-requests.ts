// fast-check arbitraries for whole requests to one operation of openapi.json: path ids (real,
// foreign, malformed), query parameters (valid, invalid, duplicated, unknown), headers (keys,
// content types, the document's header parameters) and bodies (valid, one bad field, extra or
// missing fields, wrong top-level types, deep nesting, malformed JSON, oversized).
import fc from 'fast-check';
import { fieldResource, pathParameterResource, type Resource } from './id-references.js';
import { anyString, deeplyNested, invalidValue, malformedId, toJson, validObject, validValue, type ValueContext } from './fuzz-values.js';
import { fillPath, percentEncode, type JsonSchema, type Operation, type Parameter } from './openapi-operations.js';

export interface FuzzRequest {
  operationId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
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

export function requestArbitrary(op: Operation, generic: RequestContext): fc.Arbitrary<FuzzRequest> {
  const context = { ...generic, resourceOf: (name: string, schema: JsonSchema) => fieldResource(op, name, schema) };
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
