// The served OpenAPI document as committed in generated/: the enums the CLI offers as choices and
// the operations the MCP tools derive their schemas from.
import { openapiDocument } from './generated/openapi-document.js';

export type JsonSchema = { [keyword: string]: unknown };

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

interface JsonContent {
  content?: { 'application/json'?: { schema: JsonSchema } };
}

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  parameters?: readonly Parameter[];
  requestBody?: JsonContent;
  responses: Record<string, JsonContent>;
}

const schemas = openapiDocument.components.schemas;
export const componentSchemas: Record<string, JsonSchema> = schemas;

const operations = new Map<string, Operation>(
  Object.entries(openapiDocument.paths as Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => [operation.operationId, { ...operation, method, path }] as const),
  ),
);

export function operation(operationId: string): Operation {
  const found = operations.get(operationId);
  if (!found) throw new Error(`the OpenAPI document has no operation ${operationId}`);
  return found;
}

export function parameter(operationId: string, name: string): Parameter {
  const found = operation(operationId).parameters?.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${operationId} has no parameter ${name}`);
  return found;
}

export const ISSUE_STATUSES = schemas.Issue.properties.status.enum;
export const PRIORITIES = schemas.Issue.properties.priority.enum;
export const CONVERSATION_STATUSES = schemas.Conversation.properties.status.enum;
export const CONVERSATION_TYPES = schemas.Conversation.properties.type.enum;
export const SUGGESTION_STATUSES = schemas.Suggestion.properties.status.enum;
export const SUGGESTION_KINDS = schemas.Suggestion.properties.kind.enum;
/** A deduplicating create may not file an issue as released. */
export const NEW_ISSUE_STATUSES =
  openapiDocument.paths['/api/v1/issues/maybe'].post.requestBody.content['application/json'].schema.properties.status.enum;
export const SEARCH_TYPES = schemas.SearchResult.properties.type.enum;
