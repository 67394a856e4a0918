// Request validation: Ajv compilers per part of the request, body trimming, and the mapping of
// Ajv errors to the contract's `fields` (keyed by the field name as the client sent it).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldErrors } from '../errors.js';
import { NOT_BLANK, NOT_BLANK_NUL_FREE, NUL_FREE } from './schemas/common.js';

function newAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    // Bodies are taken as sent: no coercion ("1" is not 1) and unknown fields are reported, not dropped.
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: true,
    // Every problem in one answer (docs/api.md): a client fixes its request in one round trip.
    allErrors: true,
    verbose: true,
    strict: false,
  });
  // ajv-formats is CommonJS; under NodeNext its callable export is `.default`.
  (formatsPlugin as unknown as typeof formatsPlugin.default)(ajv);
  ajv.addKeyword({ keyword: 'x-trim', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-route-parsed', schemaType: 'boolean' });
  return ajv;
}

const bodyAjv = newAjv(false);
const parameterAjv = newAjv(true);

type Schema = { properties?: Record<string, { 'x-trim'?: boolean }> };

/** Top-level body properties whose schema asks for trimming. */
function trimmedFields(schema: Schema): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, property]) => property['x-trim'] === true)
    .map(([name]) => name);
}

/**
 * Node lowercases incoming header names, and Fastify lowercases a headers schema only for its
 * own compiler: without this, a header documented as `Idempotency-Key` would never be checked.
 */
function lowerCaseHeaderNames(schema: { properties?: Record<string, unknown>; required?: string[] }) {
  return {
    ...schema,
    ...(schema.properties && {
      properties: Object.fromEntries(Object.entries(schema.properties).map(([name, value]) => [name.toLowerCase(), value])),
    }),
    ...(schema.required && { required: schema.required.map((name) => name.toLowerCase()) }),
  };
}

const problem = (keyword: string, instancePath: string, message: string): ErrorObject =>
  ({ keyword, instancePath, schemaPath: '', params: {}, message });

/** A surrogate code unit without its pair: what the JSON escape `"\ud800"` decodes to. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The problem of a string (a value or a key) no database or client can take as text, if any. */
function unstorableText(text: string, path: string): ErrorObject | null {
  if (text.includes('\u0000')) return problem('nul', path, 'must not contain the NUL character (U+0000)');
  if (LONE_SURROGATE.test(text)) return problem('loneSurrogate', path, 'must be Unicode text: a lone surrogate (\\ud800-\\udfff without its pair) is not a character');
  return null;
}

/**
 * What no schema can say, found without recursion: U+0000 (PostgreSQL text cannot hold it, so
 * neither dialect stores it) and lone surrogates (valid JSON escapes, but not Unicode text: both
 * databases would store U+FFFD in their place) in a string or key, and the keys of
 * prototype pollution — `__proto__`, and `constructor` holding a `prototype` — which the JSON
 * parser lets through (as own properties) so that they are reported here, by field, instead of as
 * unparseable JSON.
 */
function unstorableContentErrors(data: unknown): ErrorObject[] {
  // A raw body (the mail of POST /inbound/email) is bytes, not JSON: walking it would visit every byte.
  if (Buffer.isBuffer(data)) return [];
  const errors: ErrorObject[] = [];
  const pending: [unknown, string][] = [[data, '']];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    const textProblem = typeof value === 'string' ? unstorableText(value, path) : null;
    if (textProblem) errors.push(textProblem);
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const keyProblem = unstorableText(key, childPath);
      if (keyProblem) errors.push(keyProblem);
      else if (key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null && 'prototype' in child)) {
        errors.push(problem('reservedKey', childPath, `is a reserved name (${key === '__proto__' ? '__proto__' : 'constructor.prototype'}) and cannot be used as a key`));
      } else pending.push([child, childPath]);
    }
  }
  return errors;
}

type JsonSchema = Record<string, unknown>;

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringSchema = (schema: JsonSchema) => schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/**
 * A request body's schema as the OpenAPI document shows it: the NUL refusal above, which
 * validation applies to the whole body, stated where readers look. Each free-text string gets it
 * in its `pattern` (what Schemathesis generates from and code generators read), each free-form
 * object in `propertyNames`. Strings with a format, an enum or a const cannot hold U+0000 anyway,
 * and neither can the anchored patterns other strings have (test/unit/openapi-nul.test.ts checks
 * every body string of the document). Validation itself is left as it is: one walk over the body
 * finds NUL in free-form values and keys too, and answers with the same message everywhere.
 */
export function declaringNulRefusal(schema: JsonSchema): JsonSchema {
  return everySchema(schema, (node) => {
    if (node.additionalProperties === true) node.propertyNames = { pattern: NUL_FREE };
    if (isStringSchema(node) && node.format === undefined && node.enum === undefined && node.const === undefined) {
      if (node.pattern === undefined) node.pattern = NUL_FREE;
      else if (node.pattern === NOT_BLANK) node.pattern = NOT_BLANK_NUL_FREE;
    }
    return node;
  });
}

/** A copy of `schema` with `change` made to it and to every schema inside it (properties, items, combinations). */
function everySchema(schema: JsonSchema, change: (node: JsonSchema) => JsonSchema): JsonSchema {
  const node: JsonSchema = { ...schema };
  if (isSchema(schema.properties)) {
    node.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, everySchema(property as JsonSchema, change)]));
  }
  for (const key of ['items', 'additionalProperties'] as const) if (isSchema(schema[key])) node[key] = everySchema(schema[key], change);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(schema[key])) node[key] = (schema[key] as JsonSchema[]).map((inner) => everySchema(inner, change));
  }
  return change(node);
}

/**
 * Strings marked `x-route-parsed` (query parameters, tags in a body) are checked by their route or
 * service, whose error names the bad item: validation leaves their pattern to it.
 */
const withoutRouteParsedPatterns = (schema: JsonSchema): JsonSchema =>
  everySchema(schema, (node) => {
    if (node['x-route-parsed'] === true) delete node.pattern;
    return node;
  });

/** A body a route needs was absent, empty or `null` (docs/api.md, "An empty body is no body"). */
const BODY_REQUIRED = problem('bodyRequired', '', 'is required (a JSON object; an empty body or null is none)');

function compileValidator(schema: unknown, httpPart: string | undefined): ValidateFunction {
  if (httpPart === 'headers') return parameterAjv.compile(lowerCaseHeaderNames(schema as object)) as ValidateFunction;
  if (httpPart !== 'body') return parameterAjv.compile(withoutRouteParsedPatterns(schema as JsonSchema)) as ValidateFunction;
  const validate = bodyAjv.compile(withoutRouteParsedPatterns(schema as JsonSchema));
  const trimmed = trimmedFields(schema as Schema);
  const trimThenValidate = (data: unknown) => {
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      const record = data as Record<string, unknown>;
      for (const field of trimmed) if (typeof record[field] === 'string') record[field] = (record[field] as string).trim();
    }
    const unstorable = unstorableContentErrors(data);
    const valid = validate(data);
    // Fastify validates an absent body (none sent, or an empty one) as null, as it does a JSON null.
    const errors = !valid && data === null ? [BODY_REQUIRED] : [...unstorable, ...(validate.errors ?? [])];
    trimThenValidate.errors = errors.length > 0 ? errors : null;
    return valid && unstorable.length === 0;
  };
  trimThenValidate.errors = null as ValidateFunction['errors'];
  return trimThenValidate as ValidateFunction;
}

/**
 * A validator compiled at its first request, not when the app is built: a start compiles none of
 * the several hundred, a process compiles only those its requests reach (docs/architecture.md,
 * "Start-up"). Its errors are the compiled one's, where Fastify reads them after a call.
 */
function compiledOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let validate: ValidateFunction | undefined;
  const onFirstUse = (data: unknown) => {
    validate ??= compile();
    const valid = validate(data);
    onFirstUse.errors = validate.errors;
    return valid;
  };
  onFirstUse.errors = null as ValidateFunction['errors'];
  return onFirstUse as ValidateFunction;
}

/**
 * By request part and the schema's JSON text: routes build equal schemas as distinct objects (and
 * the header and parameter schemas are rewritten above), so Ajv's own cache, by object, misses.
 * A process that builds the app more than once (the tests) compiles each schema once.
 */
const compiled = new Map<string, ValidateFunction>();

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const key = `${httpPart}\n${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = compiledOnFirstUse(() => compileValidator(schema, httpPart))));
  return validate;
};

/** "contact.email" for `/contact/email`; array indexes are folded into their field ("issue_ids"). */
function fieldName(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).filter((segment) => !/^\d+$/.test(segment));
  if (error.keyword === 'required') path.push((error.params as { missingProperty: string }).missingProperty);
  if (error.keyword === 'additionalProperties') path.push((error.params as { additionalProperty: string }).additionalProperty);
  return path.map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
}

function describeAllowed(schema: unknown): string {
  const branches = (schema as { anyOf?: unknown[] })?.anyOf ?? [];
  const names = branches.map((branch) => {
    const b = branch as { const?: unknown; format?: string; type?: string };
    if (b.const !== undefined) return JSON.stringify(b.const);
    return b.format ?? b.type ?? 'value';
  });
  return names.length > 0 ? `must be one of: ${names.join(', ')}` : 'has an invalid value';
}

function message(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': return 'is required';
    case 'additionalProperties': return 'unknown field';
    case 'type': return `must be ${String(params.type).replace(',', ' or ')}`;
    case 'minLength': return params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters`;
    case 'maxLength': return `must be at most ${params.limit} characters`;
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
      return `must be ${params.comparison} ${params.limit}`;
    case 'format': return `must be a valid ${params.format}`;
    case 'enum': return `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const': return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern': return params.pattern === NOT_BLANK ? 'must not be empty' : `must match ${params.pattern}`;
    case 'anyOf': return describeAllowed(error.parentSchema);
    case 'minItems': return `must have at least ${params.limit} items`;
    case 'maxItems': return `must have at most ${params.limit} items`;
    case 'maxProperties': return `must have at most ${params.limit} properties`;
    default: return error.message ?? 'is invalid';
  }
}

/** How many problems `detail` spells out; `fields` always holds every one. */
const DETAIL_PROBLEMS_MAX = 10;

const ALTERNATIVES = { oneOf: 'exactly one', anyOf: 'at least one' } as const;

/**
 * The fields of a `oneOf` ("exactly one of body and saved_reply_id") or an `anyOf` ("at least one
 * of the targets") whose branches each require one field, and how many of them to give; null for
 * any other error.
 */
function alternativesOf(error: ErrorObject): { fields: string[]; howMany: string } | null {
  if (error.keyword !== 'oneOf' && error.keyword !== 'anyOf') return null;
  const branches = ((error.parentSchema as Record<string, { required?: string[] }[] | undefined>)?.[error.keyword] ?? []).map((branch) => branch.required ?? []);
  const single = branches.length > 0 && branches.every((required) => required.length === 1);
  return single ? { fields: branches.flat(), howMany: ALTERNATIVES[error.keyword] } : null;
}

/** Field messages for Ajv errors; for a field with several errors the last (outermost) wins. */
export function fieldErrors(errors: readonly ErrorObject[], part: string): { fields?: FieldErrors; detail: string } {
  // Without a prototype, a field named `__proto__` is an entry like any other.
  const fields: FieldErrors = Object.create(null);
  const unnamed = new Set<string>();
  for (const error of errors) {
    const alternatives = alternativesOf(error);
    const name = fieldName(error);
    const wanted = alternatives && `give ${alternatives.howMany} of: ${alternatives.fields.join(', ')}`;
    if (alternatives) for (const field of alternatives.fields) fields[name ? `${name}.${field}` : field] = wanted!;
    else if (name) fields[name] = message(error);
    else unnamed.add(`${part} ${message(error)}`);
  }
  const problems = [...Object.entries(fields).map(([name, text]) => `${name} ${text}`), ...unnamed];
  const more = problems.length - DETAIL_PROBLEMS_MAX;
  const detail = `invalid ${part}: ${problems.slice(0, DETAIL_PROBLEMS_MAX).join('; ')}${more > 0 ? `; and ${more} more (see fields)` : ''}`;
  return Object.keys(fields).length > 0 ? { fields, detail } : { detail };
}
