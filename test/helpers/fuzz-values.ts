// fast-check arbitraries for values, driven by a JSON schema from openapi.json: values that
// satisfy the schema (so fuzzing also writes) and values that break it in every way we know of.
import fc from 'fast-check';
import type { Resource } from './id-references.js';
import { typesOf, type JsonSchema } from './openapi-operations.js';

/** Strings that have broken parsers, databases and loggers before. */
const EDGE_STRINGS = [
  '', ' ', '   \t\n', '\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\ud83d', '\udc00y', '\u202eevil\u202c', 'שלום עולם',
  'مرحبا', '👍🏽', '👨‍👩‍👧‍👦', '𝕏𝔂𝔃', '\ufeffbom', 'e\u0301\u0301\u0301', '\u200b\u200d', '\r\n', '\u2028\u2029', '\u3000',
  'ｆｕｌｌ', 'İıß', "'; drop table issues; --", "' or '1'='1", '%00', '%zz', '../../etc/passwd', '<script>alert(1)</script>',
  '{{7*7}}', '${7*7}', '\\', '"', '\u001b[31m', 'null', 'undefined', 'NaN', '-0', '1e309', '0x10', '__proto__',
  'constructor', 'a'.repeat(10_000),
];

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

export const anyString = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...EDGE_STRINGS), weight: 3 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength }), weight: 2 },
    { arbitrary: fc.string({ unit: codeUnit, maxLength }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength }), weight: 1 },
  );

const MALFORMED_IDS = [
  'not-a-uuid', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f809',
  '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80911', '0193a2b47c1d7e2f8a3b4c5d6e7f8091', '{0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091}',
  '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f809g', ' 0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091\n',
  'APP-0', 'APP-1', 'app-1', 'ABCD-1', '-1', 'A-', 'A1-99999999999999999999', 'A1-9223372036854775808', 'A1-1.5', 'A1--1', 'me', 'none',
  '1', '0', '-1', 'null', '[]', '%', '%2e%2e', '..', '.', 'a/b', 'x'.repeat(101), 'x'.repeat(3000),
];

export const malformedId = fc.oneof(fc.constantFrom(...MALFORMED_IDS), anyString(60), fc.uuid().map((id) => id.toUpperCase()));

/** Date-times at and past the edges of what the format and JavaScript's Date accept. */
const EDGE_DATE_TIMES = [
  '2026-11-21T10:25:00.000Z', '2026-11-21T10:25:00Z', '2026-11-21T10:25:00+05:30', '2026-11-21t10:25:00z', '1970-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:60Z', '2016-12-31T23:59:60Z', '2026-06-30T23:59:60+23:59',
  '2026-11-21T10:25:00.123456789Z', '2026-11-21T10:25:00-23:59', '275760-09-13T00:00:00Z', '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z', '2026-11-21', '10:25:00Z', 'now', '',
];

export interface ValueContext {
  /** Ids to use for a reference field (this workspace's, another's, and random ones). */
  ids(resource: Resource): fc.Arbitrary<string>;
  resourceOf(name: string, schema: JsonSchema): Resource | null;
}

const nonNull = (schema: JsonSchema): JsonSchema => {
  const types = typesOf(schema).filter((type) => type !== 'null');
  return { ...schema, type: types.length === 1 ? types[0] : types, anyOf: undefined };
};

function validString(name: string, schema: JsonSchema, context: ValueContext): fc.Arbitrary<string> {
  const resource = context.resourceOf(name, schema);
  if (resource) return resource === 'member' && schema.format !== 'uuid' ? fc.oneof(context.ids(resource), fc.constant('me')) : context.ids(resource);
  if (schema.format === 'date-time') return fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom(...EDGE_DATE_TIMES));
  if (schema.format === 'email') return fc.emailAddress().filter((email) => email.length <= (schema.maxLength ?? 320));
  const maxLength = Math.min(schema.maxLength ?? 60, 60);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? Infinity));
  const text = fc.oneof({ arbitrary: anyString(maxLength), weight: 1 }, { arbitrary: fc.lorem({ maxCount: 6 }), weight: 2 }).map((s) => s.slice(0, maxLength));
  // A field with a minimum length is meant to hold something: keep most values non-blank.
  return schema.minLength ? fc.oneof({ arbitrary: text.map((s) => `v${s}`.slice(0, maxLength)), weight: 4 }, { arbitrary: text, weight: 1 }) : text;
}

/** Values that satisfy the schema (or nearly: edge strings may still be refused by a rule beyond it). */
export function validValue(name: string, schema: JsonSchema, context: ValueContext): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  if (types.includes('null') && types.length > 1) return fc.oneof({ arbitrary: validValue(name, nonNull(schema), context), weight: 4 }, fc.constant(null));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (types[0]) {
    case 'string': return validString(name, schema, context);
    case 'integer': return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number': return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean': return fc.boolean();
    case 'array': return fc.array(validValue(name, schema.items ?? {}, context), { maxLength: Math.min(schema.maxItems ?? 5, 5) });
    case 'object': return validObject(schema, context);
    default: return fc.jsonValue({ maxDepth: 2 });
  }
}

export function validObject(schema: JsonSchema, context: ValueContext): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  if (Object.keys(properties).length === 0) return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
  const shape = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, validValue(name, property, context)]));
  return fc.record(shape, { requiredKeys: (schema.required ?? []) as never[] }) as fc.Arbitrary<Record<string, unknown>>;
}

/**
 * A stand-in for JSON nested `depth` levels deep, expanded by `toJson`: building the real value
 * would overflow the stack of whatever walks it (fast-check, JSON.stringify) before the server
 * ever sees it.
 */
export const deeplyNested = (depth: number, kind: 'array' | 'object'): string => `\u0001deep:${kind}:${depth}\u0001`;

/** JSON.stringify, with `deeplyNested` stand-ins expanded to their nested text. */
export function toJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/"\\u0001deep:(array|object):(\d+)\\u0001"/g, (_, kind: string, depth: string) => {
    const [open, close] = kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
    return `${open.repeat(Number(depth))}"bottom"${close.repeat(Number(depth))}`;
  });
}

const wrongTypes = fc.oneof(
  fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}), fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }), fc.constantFrom(deeplyNested(64, 'array'), deeplyNested(64, 'object')),
);

function invalidNumber(schema: JsonSchema): fc.Arbitrary<unknown> {
  const edges = [1.5, -0.5, 1e308, -1e308, 2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 63, 1e20, '1', '', 'ten', true];
  if (schema.maximum !== undefined) edges.push(schema.maximum + 1, schema.maximum * 1000);
  if (schema.minimum !== undefined) edges.push(schema.minimum - 1, schema.minimum - 1e9);
  return fc.constantFrom(...edges);
}

function invalidString(name: string, schema: JsonSchema, context: ValueContext): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [anyString(), wrongTypes];
  if (schema.maxLength !== undefined) options.push(fc.constantFrom('x'.repeat(schema.maxLength + 1), ` ${'y'.repeat(schema.maxLength)} `, 'é'.repeat(schema.maxLength + 1), '😀'.repeat(schema.maxLength)));
  if (schema.minLength) options.push(fc.constantFrom('', ' ', '\t\n'));
  if (schema.enum) options.push(fc.constantFrom(...schema.enum.map((v) => String(v).toUpperCase()), ...schema.enum.map((v) => ` ${v}`)));
  if (schema.format === 'date-time') options.push(fc.constantFrom(...EDGE_DATE_TIMES));
  if (context.resourceOf(name, schema) || schema.format === 'uuid') options.push(malformedId, fc.uuid());
  return fc.oneof(...options);
}

/** Values that break the schema: wrong types, out of range, too long, malformed ids, unicode edges. */
export function invalidValue(name: string, schema: JsonSchema, context: ValueContext): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const options: fc.Arbitrary<unknown>[] = [wrongTypes];
  if (!types.includes('null')) options.push(fc.constant(null));
  if (types.includes('string') || schema.enum) options.push(invalidString(name, schema, context));
  if (types.includes('integer') || types.includes('number')) options.push(invalidNumber(schema));
  if (types.includes('array')) {
    const items = schema.items ?? {};
    options.push(
      fc.array(invalidValue(name, items, context), { minLength: 1, maxLength: 3 }),
      fc.constant(Array.from({ length: (schema.maxItems ?? 100) + 1 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)),
    );
  }
  if (types.includes('object')) options.push(fc.constant(deeplyNested(5_000, 'object')), fc.constant({ a: 'x'.repeat(20_000) }), fc.constant([1, 2]));
  return fc.oneof(...options);
}
