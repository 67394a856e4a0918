// llms.txt: a plain-text summary of the API for language models, rendered from the OpenAPI
// document so it can never drift from the routes.

interface SchemaLike {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaLike[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, SchemaLike>;
  required?: string[];
  oneOf?: SchemaLike[];
  items?: SchemaLike;
  description?: string;
}

interface Operation {
  summary?: string;
  description?: string;
  deprecated?: boolean;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: SchemaLike; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: SchemaLike }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: SchemaLike }> }>;
}

interface Document {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post?: Operation }>;
  components?: { schemas?: Record<string, SchemaLike> };
}

function typeOf(schema: SchemaLike | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return schema.$ref.split('/').pop()!;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  const main = types
    .map((type) => (type === 'string' && schema.format ? schema.format : type === 'array' ? `${typeOf(schema.items)}[]` : type))
    .join(' | ');
  const limits = [
    schema.maxLength !== undefined ? `max ${schema.maxLength} chars` : '',
    schema.minimum !== undefined && schema.maximum !== undefined ? `${schema.minimum}–${schema.maximum}` : '',
  ].filter(Boolean);
  return limits.length ? `${main}, ${limits.join(', ')}` : main;
}

function fieldList(properties: Record<string, SchemaLike>, required: string[] = []): string {
  return Object.entries(properties)
    .map(([name, schema]) => `${name}${required.includes(name) ? '*' : ''} (${typeOf(schema)})`)
    .join('; ');
}

/**
 * `exactly one of: body, saved_reply_id` for a body whose oneOf requires one field of several,
 * `at least one of: …` for such an anyOf.
 */
function alternatives(schema: SchemaLike): string {
  return (['oneOf', 'anyOf'] as const).map((keyword) => {
    const fields = (schema[keyword] ?? []).map((branch) => branch.required ?? []);
    const single = fields.length > 0 && fields.every((required) => required.length === 1);
    return single ? ` — ${keyword === 'oneOf' ? 'exactly' : 'at least'} one of: ${fields.flat().join(', ')}` : '';
  }).join('');
}

function describeResource(name: string, schema: SchemaLike): string[] {
  return [`- ${name}${schema.description ? `: ${schema.description}` : ''}`, `  fields: ${fieldList(schema.properties ?? {}, schema.required)}`];
}

/** ` { data: Issue[], pagination }` for a JSON response, by the names of its schemas. */
function shapeOf(response: { content?: Record<string, { schema?: SchemaLike }> }): string {
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return response.content ? ` (${Object.keys(response.content).join(', ')})` : '';
  if (!schema.properties) return ` (${typeOf(schema)})`;
  const fields = Object.entries(schema.properties).map(([name, field]) => (field.$ref || field.items ? `${name}: ${typeOf(field)}` : name));
  return ` ({ ${fields.join(', ')} })`;
}

function describeOperation(method: string, path: string, operation: Operation): string[] {
  const lines = [`- ${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, '{$1}')}: ${operation.summary ?? ''}`];
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
  if (query.length) lines.push(`  query: ${query.map((p) => `${p.name} (${typeOf(p.schema)})`).join('; ')}`);
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body?.properties) lines.push(`  body: ${fieldList(body.properties, body.required)}${alternatives(body)}`);
  const success = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
  if (success.length) lines.push(`  returns: ${success.map(([status, r]) => `${status} ${r.description ?? ''}${shapeOf(r)}`.trim()).join('; ')}`);
  return lines;
}

/** `- issue.created: when … ({ type, timestamp, data: Issue })`, one line per event type. */
function describeWebhooks(webhooks: Document['webhooks'] = {}): string[] {
  return Object.entries(webhooks).map(([type, { post }]) => `- ${type}: ${post?.description ?? ''}${shapeOf(post?.requestBody ?? {})}`);
}

export function renderLlmsTxt(document: Document): string {
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (operation.deprecated) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), ...describeOperation(method, path, operation)]);
    }
  }
  const sections = [...byTag.entries()].map(([tag, lines]) => [`### ${tag}`, ...lines].join('\n'));
  const resources = Object.entries(document.components?.schemas ?? {}).flatMap(([name, schema]) => describeResource(name, schema));
  return [
    `# ${document.info.title} ${document.info.version}`,
    '',
    document.info.description ?? '',
    '',
    'Fields marked * are required. The full machine-readable description is GET /api/v1/openapi.json.',
    'Deprecated aliases (/api/v1/actions for issues, /api/v1/items for conversations) still work but are not listed here.',
    '',
    '## Endpoints',
    '',
    sections.join('\n\n'),
    '',
    '## Webhook events',
    '',
    'POSTed to webhook endpoints (POST /api/v1/webhooks), signed per Standard Webhooks (webhook-id, webhook-timestamp,',
    'webhook-signature headers); retried on failure. One line per event type, with its payload:',
    '',
    ...describeWebhooks(document.webhooks),
    '',
    '## Resources',
    '',
    'The shapes endpoints return, by the names used above (fields marked * are always present).',
    '',
    ...resources,
    '',
  ].join('\n');
}
