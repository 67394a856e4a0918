// Response serializers: fast-json-stringify, as Fastify's own compiler uses it, with changes
// that take building the app from seconds to a fraction of one (docs/architecture.md, "Start-up").
// - Each serializer is given only the named schemas its response refers to, directly or through
//   another: Fastify hands every one of them (some forty) to each of its several hundred
//   serializers, and fast-json-stringify checks and indexes each anew every time.
// - A serializer is built at its first response, not with the app (a start builds none), once per
//   response schema, and reused, found by JSON text (routes build equal schemas as distinct
//   objects, and Fastify copies the named ones): the shared error responses appear under every
//   route, and a process that builds the app more than once (the tests) builds none twice.
// - A nullable object (`anyOf: [object, null]` in the document) is handed over as the object with
//   `nullable: true`. For an `anyOf`, fast-json-stringify validates the value against each branch
//   with Ajv before writing it, formats included (each uuid, each timestamp, per row), which took
//   a sixth of a conversation list's CPU; every other object is written without such a check.
import fastJsonStringify from 'fast-json-stringify';
import type { FastifyServerOptions } from 'fastify';

type JsonSchema = fastJsonStringify.Schema;
type Serializer = (data: unknown) => string;
type SerializerOptions = Parameters<typeof fastJsonStringify>[1];
type BuildSerializer = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer'];

/** By the JSON text of the schema, its named schemas and the options: what fast-json-stringify builds from. */
const built = new Map<string, Serializer>();

/** The `$ref` targets' ids anywhere in `value` (the part before `#`: named schemas are referred to by `$id`). */
function referencedIds(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedIds(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') into.add(item.split('#')[0]!);
      else referencedIds(item, into);
    }
  }
  return into;
}

/** The named schemas `schema` needs, following references through the named schemas themselves. */
function referencedSchemas(schema: JsonSchema, named: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const needed: Record<string, JsonSchema> = {};
  const pending = [...referencedIds(schema, new Set())];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    const target = named[id];
    if (!target || needed[id]) continue;
    needed[id] = target;
    pending.push(...referencedIds(target, new Set()));
  }
  return needed;
}

const isCombined = (schema: JsonSchema): boolean => ['anyOf', 'oneOf', 'allOf', 'if', 'not'].some((keyword) => keyword in schema);

/** Whether `schema` (or what its `$ref` names) is a plain object schema: no combinator, nothing but an object. */
function isPlainObject(schema: JsonSchema, named: Record<string, JsonSchema>): boolean {
  const ref = (schema as { $ref?: unknown }).$ref;
  const target = typeof ref === 'string' ? named[ref.split('#')[0]!] : schema;
  return target !== undefined && (target as { type?: unknown }).type === 'object' && !isCombined(target);
}

/** `value` with every `anyOf: [plain object, null]` (either order) written as the object with `nullable: true`. */
function nullableObjects<T>(value: T, named: Record<string, JsonSchema>): T {
  if (Array.isArray(value)) return value.map((item) => nullableObjects(item, named)) as T;
  if (value === null || typeof value !== 'object') return value;
  const { anyOf, ...rest } = value as { anyOf?: JsonSchema[] };
  if (anyOf?.length === 2) {
    const object = anyOf.find((branch) => (branch as { type?: unknown }).type !== 'null');
    const hasNull = anyOf.some((branch) => (branch as { type?: unknown }).type === 'null' && Object.keys(branch).length === 1);
    if (object && hasNull && isPlainObject(object, named)) return nullableObjects({ ...object, ...rest, nullable: true } as T, named);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, nullableObjects(item, named)])) as T;
}

export const buildSerializer: BuildSerializer = (externalSchemas, options) => {
  const named = (externalSchemas ?? {}) as Record<string, JsonSchema>;
  return (route) => {
    const schema = route.schema as JsonSchema;
    const needed = referencedSchemas(schema, named);
    const key = JSON.stringify([schema, needed, options ?? null]);
    let serializer = built.get(key);
    if (!serializer) {
      // Built at its first response, not when the app is built: a start builds none of them.
      let build: Serializer | undefined;
      serializer = (data) => (build ??= fastJsonStringify(nullableObjects(schema, needed), { ...(options as SerializerOptions), schema: nullableObjects(needed, needed) }) as Serializer)(data);
      built.set(key, serializer);
    }
    return serializer;
  };
};
