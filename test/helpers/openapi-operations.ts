// The operations of the served openapi.json as plain data, so reliability tests derive what they
// send (parameters, body fields) from the document and cover a new route without being told.

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  description?: string;
  default?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/api/v1/issues/{id}`. */
  path: string;
  deprecated: boolean;
  parameters: Parameter[];
  /** The JSON request body schema, when the operation takes one. */
  body: JsonSchema | null;
  /** The media type of a request body that is not JSON (a raw mail, an image), when the operation takes one. */
  rawBody: string | null;
  /** Whether its request body must be sent (false when it takes none, or one that may be left out). */
  bodyRequired: boolean;
  /** Declared response statuses. */
  statuses: number[];
  /**
   * Its success is an endless `text/event-stream`: a client reads it until the server ends it
   * (LOOPDESK_SSE_MAX_MS, which suites that send it requests set short), and what it reads
   * differs between two requests (the stream's starting position).
   */
  streams: boolean;
}

interface RawOperation {
  operationId: string;
  deprecated?: boolean;
  parameters?: { name: string; in: Parameter['in']; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

export function operationsOf(document: { paths: Record<string, Record<string, RawOperation>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => METHODS.has(method))
      .map(([method, raw]) => ({
        operationId: raw.operationId,
        method: method.toUpperCase(),
        path,
        deprecated: raw.deprecated === true,
        parameters: (raw.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required === true, schema: p.schema ?? {} })),
        body: raw.requestBody?.content?.['application/json']?.schema ?? null,
        rawBody: Object.keys(raw.requestBody?.content ?? {}).find((type) => type !== 'application/json') ?? null,
        bodyRequired: raw.requestBody?.required === true,
        statuses: Object.keys(raw.responses ?? {}).map(Number),
        streams: Object.values(raw.responses ?? {}).some((response) => 'text/event-stream' in (response.content ?? {})),
      })),
  );
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the bytes of its
 * generalized UTF-8 form, which is not valid UTF-8: exactly what a broken client would send.
 */
export function percentEncode(text: string): string {
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  let encoded = '';
  let from = 0;
  for (const match of text.matchAll(lone)) {
    const code = match[0].charCodeAt(0);
    const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
    encoded += encodeURIComponent(text.slice(from, match.index)) + bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    from = match.index! + 1;
  }
  return encoded + encodeURIComponent(text.slice(from));
}

/** The path with `{name}` replaced by the encoded values. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (values[name] === undefined) throw new Error(`no value for path parameter {${name}} of ${template}`);
    return percentEncode(values[name]);
  });
}

/** The schema's types, `null` included when nullable. */
export function typesOf(schema: JsonSchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}
