// The MCP tools' schemas, derived from the OpenAPI document rather than written by hand: an input
// schema from an operation's path and query parameters and JSON body, an output schema from its
// success answer with the named schemas it references carried along as $defs (none for a 204).
import { componentSchemas, type JsonSchema, operation } from '../document.js';

export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
}

const COMPONENT_REF = '#/components/schemas/';

/** A copy of `node` with every key for which `keep` is false left out, and every string passed through `rewrite`. */
function transform(node: unknown, keep: (key: string) => boolean, rewrite: (key: string, value: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => transform(item, keep, rewrite));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => keep(key))
      .map(([key, value]) => [key, typeof value === 'string' ? rewrite(key, value) : transform(value, keep, rewrite)]),
  );
}

/** The document's own keywords (x-trim, x-route-parsed) mean nothing to a JSON Schema validator. */
const standardKeyword = (key: string) => !key.startsWith('x-');

export function inputSchemaOf(operationId: string): ObjectSchema {
  const { parameters = [], requestBody } = operation(operationId);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (name: string, schema: JsonSchema, isRequired: boolean) => {
    if (name in properties) throw new Error(`${operationId}: ${name} is both a parameter and a body field`);
    properties[name] = schema;
    if (isRequired) required.push(name);
  };
  for (const parameter of parameters.filter((candidate) => candidate.in === 'path' || candidate.in === 'query')) {
    const description = parameter.description === undefined ? {} : { description: parameter.description };
    add(parameter.name, { ...parameter.schema, ...description }, parameter.required === true);
  }
  const body = requestBody?.content?.['application/json']?.schema as Partial<ObjectSchema> | undefined;
  for (const [name, schema] of Object.entries(body?.properties ?? {})) add(name, schema, body?.required?.includes(name) === true);
  const schema = { type: 'object', properties, required, additionalProperties: false };
  return transform(schema, standardKeyword, (_key, value) => value) as ObjectSchema;
}

/** The schema of the operation's JSON success answer; undefined for one that answers 204 (no content). */
export function outputSchemaOf(operationId: string): JsonSchema | undefined {
  const { responses } = operation(operationId);
  const [status, answer] = Object.entries(responses).find(([code]) => code.startsWith('2')) ?? [];
  if (status === '204') return undefined;
  const success = answer?.content?.['application/json']?.schema;
  if (!success) throw new Error(`${operationId} has no JSON success answer`);
  const defs: Record<string, unknown> = {};
  const localRef = (key: string, value: string): string => {
    if (key !== '$ref' || !value.startsWith(COMPONENT_REF)) return value;
    const name = value.slice(COMPONENT_REF.length);
    if (!(name in defs)) {
      defs[name] = true; // claimed before the walk, for schemas that refer to themselves
      defs[name] = transform(componentSchemas[name], standardKeyword, localRef);
    }
    return `#/$defs/${name}`;
  };
  // MCP wants `type: object` at the top, so a top-level reference is replaced by what it names.
  const top = typeof success.$ref === 'string' ? componentSchemas[success.$ref.slice(COMPONENT_REF.length)] : success;
  const schema = transform(top, standardKeyword, localRef) as JsonSchema;
  return { ...schema, $defs: defs };
}
