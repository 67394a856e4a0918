// The MCP tools: cli/README.md's operations (plus list_products, list_members and
// update_conversation, which an agent needs to fill in product_id, assignee_id and a conversation's
// status, search, to find a record it has only words for, the member's notifications, the
// team's report summary, and list_macros, which run_macro needs), each an API operation whose schemas come from the OpenAPI document
// (assign_conversation takes only the assignee of updateConversation's).
import type { Api, Query, RequestBody } from '../api.js';
import { issueIds } from '../resolve.js';
import { inputSchemaOf, type ObjectSchema, outputSchemaOf } from './schemas.js';

type Args = Record<string, unknown>;

export interface Tool {
  name: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: ReturnType<typeof outputSchemaOf>;
  readOnly: boolean;
  /** Calls the API with arguments that passed inputSchema; resolves with the body of its answer. */
  call(api: Api, args: Args): Promise<unknown>;
}

interface Definition {
  name: string;
  operationId: string;
  description: string;
  readOnly?: boolean;
  /** What the tool takes beyond, or instead of, the operation's own fields. */
  adjust?(schema: ObjectSchema): void;
  call(api: Api, args: Args): Promise<unknown>;
}

const byId = (args: Args) => ({ params: { path: { id: String(args.id) } } });
const withoutId = ({ id: _id, ...rest }: Args) => rest;

const DEFINITIONS: Definition[] = [
  {
    name: 'whoami',
    operationId: 'getMe',
    description: 'Who the API key belongs to: the member (its id is what assignee_id takes; null for an integration key), the workspace and the key.',
    readOnly: true,
    call: async (api) => api.call(api.client.GET('/api/v1/me')),
  },
  {
    name: 'list_products',
    operationId: 'listProducts',
    description: 'List the workspace\'s products (id, name, slug, issue_prefix). Issues, conversations and releases belong to a product: product_id comes from here.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/products', { params: { query: args as Query<'listProducts'> } })),
  },
  {
    name: 'list_members',
    operationId: 'listMembers',
    description: 'List the workspace\'s members (id, display_name, role): a member\'s id is what assignee_id takes.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/members', { params: { query: args as Query<'listMembers'> } })),
  },
  {
    name: 'search',
    operationId: 'search',
    description: 'Find issues, conversations, contacts and help center articles by words, best match first: every word must match (case and accents ignored, the last word also as a prefix); an exact shortcode (APP-12) puts its issue first. Each result has a snippet of what matched (highlights: code point ranges in it) and the record under the key its type names. Narrow with types (e.g. "issue") and product_id.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/search', { params: { query: args as Query<'search'> } })),
  },
  {
    name: 'list_issues',
    operationId: 'listIssues',
    description: 'List issues (the team\'s backlog), newest first, one page at a time (pagination.total counts all matches). To find work: status "pending,in_progress" and assignee_id "me" or "none". Each issue has a shortcode (e.g. APP-12) that the other issue tools accept as its id.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/issues', { params: { query: args as Query<'listIssues'> } })),
  },
  {
    name: 'get_issue',
    operationId: 'getIssue',
    description: 'One issue by shortcode (APP-12) or UUID: title, description, status, priority, assignee, resolution comment, how many reports it has (sources_count) and its linked customer conversations.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/issues/{id}', byId(args))),
  },
  {
    name: 'create_issue',
    operationId: 'createIssueUnlessDuplicate',
    description: 'File an issue: the default, safe way. If an open issue (pending, in_progress or icebox) of the product already describes the same problem, in any wording or language, that issue is returned with matched_existing: true and your report is added to its sources; otherwise a new issue is created (matched_existing: false). Give a specific title and a description; conversation_id links the customer conversation it came from.',
    call: async (api, args) => api.call(api.client.POST('/api/v1/issues/maybe', { body: args as RequestBody<'createIssueUnlessDuplicate'> })),
  },
  {
    name: 'update_issue',
    operationId: 'updateIssue',
    description: 'Change an issue (by shortcode or UUID); only the fields given change. Start work: status "in_progress" with assignee_id "me". Finish: status "done" with a resolution_comment saying how it was fixed. Drop it: "dismissed". Reopen: "pending". Also title, description, priority, and assignee_id (a member id, "me", or null to unassign).',
    call: async (api, args) =>
      api.call(api.client.PATCH('/api/v1/issues/{id}', { ...byId(args), body: withoutId(args) as RequestBody<'updateIssue'> })),
  },
  {
    name: 'list_conversations',
    operationId: 'listConversations',
    description: 'List customer conversations (tickets, ideas, feedback, chats), newest first, without their messages; filter by status (e.g. "open"), type, priority, product_id and snoozed (true: only snoozed ones, false: none of them).',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/conversations', { params: { query: args as Query<'listConversations'> } })),
  },
  {
    name: 'report_summary',
    operationId: 'getReportSummary',
    description: 'The team\'s figures over a window (from/to ISO instants, default the last 7 days): conversations created and resolved, messages received and replies sent, first response, next response and resolution times (count, exact median and p90, average, in seconds), CSAT (share of 4–5 ratings) and SLA hit rate. Filter by product_id, assignee_id (member id, "me" or "none"), tag, type, source; business_hours=true counts durations in business hours.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/reports/summary', { params: { query: args as Query<'getReportSummary'> } })),
  },
  {
    name: 'get_conversation',
    operationId: 'getConversation',
    description: 'One customer conversation by UUID, with its contact and every message, oldest first.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/conversations/{id}', byId(args))),
  },
  {
    name: 'update_conversation',
    operationId: 'updateConversation',
    description: 'Change a conversation\'s status (open, in_progress, resolved, dismissed) or priority, or snooze it: snoozed_until is an ISO 8601 instant with its offset, later than now (it wakes then, or when the customer writes), null wakes it. A resolved or dismissed conversation cannot be snoozed; resolving one ends its snooze.',
    call: async (api, args) =>
      api.call(api.client.PATCH('/api/v1/conversations/{id}', { ...byId(args), body: withoutId(args) as RequestBody<'updateConversation'> })),
  },
  {
    name: 'assign_conversation',
    operationId: 'updateConversation',
    description: 'Give a conversation (by UUID) an owner: assignee_id is a member id (list_members), "me" for your member, or null to unassign.',
    adjust(schema) {
      schema.properties = { id: schema.properties.id, assignee_id: schema.properties.assignee_id };
      schema.required = ['id', 'assignee_id'];
    },
    call: async (api, { id, assignee_id }) =>
      api.call(api.client.PATCH('/api/v1/conversations/{id}', { ...byId({ id }), body: { assignee_id } as RequestBody<'updateConversation'> })),
  },
  {
    name: 'add_note',
    operationId: 'addConversationNote',
    description: 'Add an internal note to a conversation (by UUID): for the team only, never shown or sent to the customer. Use it to record findings, context or hand-over notes; it does not answer the customer.',
    call: async (api, args) =>
      api.call(api.client.POST('/api/v1/conversations/{id}/notes', { ...byId(args), body: withoutId(args) as RequestBody<'addConversationNote'> })),
  },
  {
    name: 'list_macros',
    operationId: 'listMacros',
    description: 'List the team\'s macros (id, name, actions), oldest first: saved lists of actions (assign, add_tags, remove_tags, set_priority, set_status, add_note, reply) that run_macro runs on a conversation in one go.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/macros', { params: { query: args as Query<'listMacros'> } })),
  },
  {
    name: 'run_macro',
    operationId: 'runMacro',
    description: 'Run a macro (macro_id, from list_macros) on a conversation (id, a UUID): its actions in order, all or nothing, as your member. Answers with the conversation after every action. A macro may reply to the customer (a reply action sends a saved reply): read its actions first.',
    call: async (api, { id, macro_id }) =>
      api.call(api.client.POST('/api/v1/conversations/{id}/macros/{macro_id}', { params: { path: { id: String(id), macro_id: String(macro_id) } } })),
  },
  {
    name: 'reply_to_conversation',
    operationId: 'postConversationMessage',
    description: 'Send a message to the customer in a conversation, as your member. The customer reads it: show the user the exact text first, and set confirm: true only once they have approved it.',
    // The agent writes the text (saved replies are the team app's); the API's oneOf of body and
    // saved_reply_id becomes a required body, as some clients refuse a oneOf at a tool's top level.
    adjust(schema) {
      delete schema.properties.saved_reply_id;
      schema.properties.confirm = { type: 'boolean', const: true, description: 'Must be true: the user has approved this exact text for the customer' };
      schema.required.push('body', 'confirm');
    },
    // The input schema requires confirm: true, so a call without it never gets here.
    call: async (api, { confirm: _confirmed, ...args }) => {
      const body = withoutId(args) as RequestBody<'postConversationMessage'>;
      return api.call(api.client.POST('/api/v1/conversations/{id}/messages', { ...byId(args), body }));
    },
  },
  {
    name: 'list_notifications',
    operationId: 'listNotifications',
    description: 'Your member\'s notifications, newest first: a conversation assigned to you (assigned), a customer writing in a conversation assigned to you (message), an internal note mentioning you (mention), each with the conversation, who caused it and read_at (null while unread). unread: true lists the unread ones only. A key without a member has none (an error).',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/notifications', { params: { query: args as Query<'listNotifications'> } })),
  },
  {
    name: 'mark_notifications_read',
    operationId: 'markNotificationsRead',
    description: 'Mark your notifications read once you have dealt with them: ids (1–200 notification ids from list_notifications), or all: true for every one. Give exactly one of the two. Answers nothing but that it was done.',
    call: async (api, args) => api.call(api.client.POST('/api/v1/notifications/read', { body: args as RequestBody<'markNotificationsRead'> })),
  },
  {
    name: 'list_suggestions',
    operationId: 'listSuggestions',
    description: 'The triage queue: what triage suggests doing with customer conversations, oldest first (open ones unless status says otherwise). A `link` suggestion names an open issue the conversation repeats (issue); a `create` suggestion drafts a new issue (title, description, priority) and names the open issues that came close (possible_duplicates).',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/suggestions', { params: { query: args as Query<'listSuggestions'> } })),
  },
  {
    name: 'accept_suggestion',
    operationId: 'acceptSuggestion',
    description: 'Accept a triage suggestion (by UUID). link: the conversation is linked to the suggested issue, or to issue_id (a shortcode or UUID of the same product) if you judge another one fits better. create: the drafted issue is created and linked; title, description and priority replace the draft\'s when given. Check possible_duplicates first: if one of them is the same problem, dismiss the suggestion and link the conversation to that issue instead.',
    adjust(schema) {
      schema.properties.issue_id = { type: 'string', minLength: 1, description: 'link: an issue of the conversation\'s product to link to instead: its shortcode (APP-12) or UUID' };
    },
    async call(api, args) {
      const body = withoutId(args) as RequestBody<'acceptSuggestion'>;
      if (body.issue_id !== undefined) [body.issue_id] = await issueIds(api, [body.issue_id]);
      return api.call(api.client.POST('/api/v1/suggestions/{id}/accept', { ...byId(args), body }));
    },
  },
  {
    name: 'dismiss_suggestion',
    operationId: 'dismissSuggestion',
    description: 'Dismiss a triage suggestion (by UUID) that is wrong: nothing is linked or created, and it leaves the queue.',
    call: async (api, args) => api.call(api.client.POST('/api/v1/suggestions/{id}/dismiss', byId(args))),
  },
  {
    name: 'list_releases',
    operationId: 'listReleases',
    description: 'List releases, newest first, with how many issues each ships; released_at null marks a draft.',
    readOnly: true,
    call: async (api, args) => api.call(api.client.GET('/api/v1/releases', { params: { query: args as Query<'listReleases'> } })),
  },
  {
    name: 'create_release',
    operationId: 'createRelease',
    description: 'Create a release of a product, shipping the issues listed in issue_ids (shortcodes or UUIDs; usually its done issues): they become released. Published now unless released_at is given (null makes a draft).',
    adjust(schema) {
      const issueIdsSchema = schema.properties.issue_ids as { items: Record<string, unknown> };
      issueIdsSchema.items = { type: 'string', minLength: 1, description: 'An issue\'s shortcode (APP-12) or UUID' };
    },
    async call(api, args) {
      const body = { ...args } as RequestBody<'createRelease'>;
      if (body.issue_ids) body.issue_ids = await issueIds(api, body.issue_ids);
      return api.call(api.client.POST('/api/v1/releases', { body }));
    },
  },
];

function toolOf({ name, operationId, description, readOnly = false, adjust, call }: Definition): Tool {
  const inputSchema = inputSchemaOf(operationId);
  adjust?.(inputSchema);
  return { name, description, inputSchema, outputSchema: outputSchemaOf(operationId), readOnly, call };
}

/** A tool that needs a product_id takes the folder's (from .loopdesk.json) when it is not given. */
function withDefaultProduct(tool: Tool, folderProduct: string | null): Tool {
  if (folderProduct === null || !tool.inputSchema.required.includes('product_id')) return tool;
  const productId = tool.inputSchema.properties.product_id;
  productId.description = `${productId.description ?? 'The product'}. Default: ${folderProduct}, this folder's product`;
  tool.inputSchema.required = tool.inputSchema.required.filter((field) => field !== 'product_id');
  return { ...tool, call: (api, args) => tool.call(api, { product_id: folderProduct, ...args }) };
}

export function buildTools(folderProduct: string | null): Tool[] {
  return DEFINITIONS.map((definition) => withDefaultProduct(toolOf(definition), folderProduct));
}
