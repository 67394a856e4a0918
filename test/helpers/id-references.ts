// Which resource an id-bearing parameter or body field names, read from its name and place in
// the OpenAPI document. An id-bearing name nobody taught this file is an error, so a new route
// with a new kind of reference fails the reliability suite until it is covered.
import type { JsonSchema, Operation } from './openapi-operations.js';

export type Resource =
  | 'product' | 'issue' | 'conversation' | 'release' | 'member' | 'webhook' | 'delivery' | 'invitation' | 'api_key' | 'invitation_token'
  | 'suggestion' | 'saved_reply' | 'contact' | 'attachment' | 'calendar' | 'sla_policy' | 'notification' | 'collection' | 'article'
  // An article that may be named as an original: of another locale than the articles, without translations.
  | 'originalArticle'
  | 'automation_rule' | 'macro'
  | 'workspace'
  // The widget API's: widget keys, and what a visitor addresses by id.
  | 'widget' | 'visitorConversation' | 'idea';

/** The collection a path segment names (deprecated aliases included). */
const COLLECTIONS: Record<string, Resource> = {
  products: 'product',
  issues: 'issue',
  actions: 'issue',
  conversations: 'conversation',
  items: 'conversation',
  releases: 'release',
  webhooks: 'webhook',
  members: 'member',
  invitations: 'invitation',
  'api-keys': 'api_key',
  suggestions: 'suggestion',
  'saved-replies': 'saved_reply',
  calendars: 'calendar',
  'sla-policies': 'sla_policy',
  'automation-rules': 'automation_rule',
  macros: 'macro',
  contacts: 'contact',
  attachments: 'attachment',
  notifications: 'notification',
  collections: 'collection',
  articles: 'article',
};

/** The collections of the widget API (/widget/v1/{widget_key}/…): a visitor's conversations, the product's ideas and help articles. */
const WIDGET_COLLECTIONS: Record<string, Resource> = {
  conversations: 'visitorConversation',
  ideas: 'idea',
  articles: 'article',
};

/** Reference fields and parameters, by name. */
const FIELDS: Record<string, Resource> = {
  product_id: 'product',
  assignee_id: 'member',
  conversation_id: 'conversation',
  issue_id: 'issue',
  issue_ids: 'issue',
  // An SLA policy's conditions.product_ids.
  product_ids: 'product',
  release_id: 'release',
  delivery_id: 'delivery',
  member_id: 'member',
  // A product's assignment.member_ids.
  member_ids: 'member',
  // The audit log's actor filter: a member's id (or an API key's, which the isolation suite does not need apart).
  actor_id: 'member',
  workspace_id: 'workspace',
  // An invitation's token in /auth/invitations/{token}: a credential, not a workspace's id.
  token: 'invitation_token',
  widget_key: 'widget',
  saved_reply_id: 'saved_reply',
  contact_id: 'contact',
  calendar_id: 'calendar',
  collection_id: 'collection',
  // An article's original (docs/help-center.md, "Translating").
  translation_of: 'originalArticle',
  macro_id: 'macro',
};

/** Names that end like a reference but name nothing of Loopdesk's (the SSO provider's client). */
const NOT_REFERENCES = new Set(['client_id']);

function isIdBearing(name: string, schema: JsonSchema = {}): boolean {
  if (NOT_REFERENCES.has(name)) return false;
  return name === 'id' || /_ids?$/.test(name) || schema.format === 'uuid' || schema.items?.format === 'uuid';
}

function unknownReference(op: Operation, where: string, name: string): never {
  throw new Error(
    `${op.method} ${op.path}: ${where} "${name}" looks like an id, but test/helpers/id-references.ts does not know which ` +
      'resource it names; teach it, so fuzzing and the isolation suite cover it',
  );
}

function collectionResource(op: Operation, collection: string, where: string): Resource {
  const collections = op.path.startsWith('/widget/') ? WIDGET_COLLECTIONS : COLLECTIONS;
  return collections[collection] ?? unknownReference(op, where, 'id');
}

/** The resource a path parameter addresses: `{id}` is the collection before it. */
export function pathParameterResource(op: Operation, name: string): Resource {
  if (name !== 'id') return FIELDS[name] ?? unknownReference(op, 'path parameter', name);
  const segments = op.path.split('/');
  return collectionResource(op, segments[segments.indexOf('{id}') - 1], 'path parameter');
}

/**
 * The resource an id-bearing query parameter or body field names, or null when it names none. An
 * `id` filter on a list (GET /conversations?id=…) names the list's own collection.
 */
export function fieldResource(op: Operation, name: string, schema: JsonSchema = {}): Resource | null {
  if (!isIdBearing(name, schema)) return null;
  if (name === 'id') return collectionResource(op, op.path.split('/').at(-1)!, 'field');
  // A batch of the collection's own items, named by an action under it (POST /notifications/read's `ids`).
  if (name === 'ids') return collectionResource(op, op.path.split('/').at(-2)!, 'field');
  return FIELDS[name] ?? unknownReference(op, 'field', name);
}

/**
 * The id-bearing fields nested below the top level of a body (an SLA policy's
 * `conditions.product_ids`), by dotted path, with the resource each names; one nothing here knows
 * how to fill is an error.
 */
export function nestedReferences(op: Operation, schema: JsonSchema, path = ''): { path: string; resource: Resource; schema: JsonSchema }[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const nested = property.properties ? property : property.anyOf?.find((branch) => branch.properties);
    const here = path && isIdBearing(name, property)
      ? [{ path: `${path}${name}`, resource: FIELDS[name] ?? unknownReference(op, 'nested body field', `${path}${name}`), schema: property }]
      : [];
    return [...here, ...(nested ? nestedReferences(op, nested, `${path}${name}.`) : [])];
  });
}
