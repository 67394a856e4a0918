// The floor's reads: the bodies of GET /me, an issue's detail, a page of issues, a page of the
// inbox and a conversation's detail, each from a few prepared statements and the shapes' hand-built JSON.
import { parseUuid } from '../../src/lib/ids.js';
import { array, ATTACHMENT, CONVERSATION, CONVERSATION_INBOX_COLUMNS, CONVERSATION_SUMMARY, ISSUE, json, LINKED_ISSUE, KEY_MEMBER, MESSAGE, messageJson, object } from './shapes.js';
import { placeholders, type Queries, type Row } from './store.js';

export interface Actor {
  workspaceId: string;
  keyId: string;
  readOnly: boolean;
  member: Row | null;
}

/** A response: its status and its JSON text. */
export interface Answer {
  status: number;
  body: string;
}

export const ok = (body: string, status = 200): Answer => ({ status, body });
export const failure = (status: number, errorCode: string, detail: string): Answer =>
  ({ status, body: `{"error_code":"${errorCode}","detail":${JSON.stringify(detail)}}` });
export const notFound = (what: string) => failure(404, 'not_found', `${what} not found`);

export const SHORTCODE = /^[A-Za-z0-9]{1,3}-[1-9][0-9]{0,15}$/;
const ISSUE_STATUSES = new Set(['pending', 'in_progress', 'icebox', 'done', 'released', 'dismissed']);

const ISSUE_WITH_SOURCES =
  `select ${ISSUE.columns('i')}, (select count(*) from issue_api_sources s where s.issue_id = i.id) as sources_count from issues i`;
const LINKED_CONVERSATIONS =
  `select ${CONVERSATION_SUMMARY.columns('c')} from issue_conversations link join conversations c on c.id = link.conversation_id ` +
  'where link.issue_id = ? order by link.created_at asc, c.id asc';

/** An issue's row (with its sources_count) and its linked conversations as JSON text. */
export interface IssueDetail {
  issue: Row;
  linked: string;
}

export async function readIssueDetail(db: Queries, workspaceId: string, by: 'id' | 'shortcode', value: string): Promise<IssueDetail | undefined> {
  const issue = await db.one(`${ISSUE_WITH_SOURCES} where i.workspace_id = ? and i.${by} = ?`, [workspaceId, value]);
  if (!issue) return undefined;
  return { issue, linked: array(CONVERSATION_SUMMARY, await db.all(LINKED_CONVERSATIONS, [issue.id])) };
}

/** Several issues' details at once (as `readIssueDetail` reads one), by id. */
export async function readIssueDetails(db: Queries, workspaceId: string, ids: readonly string[]): Promise<Map<string, IssueDetail>> {
  const marks = placeholders(ids);
  const [issues, links] = await Promise.all([
    db.all(`${ISSUE_WITH_SOURCES} where i.workspace_id = ? and i.id in (${marks})`, [workspaceId, ...ids]),
    db.all(
      `select link.issue_id, ${CONVERSATION_SUMMARY.columns('c')} from issue_conversations link join conversations c on c.id = link.conversation_id ` +
        `where link.issue_id in (${marks}) order by link.created_at asc, c.id asc`,
      ids,
    ),
  ]);
  return new Map(issues.map((issue) => [issue.id as string, { issue, linked: array(CONVERSATION_SUMMARY, links.filter((link) => link.issue_id === issue.id)) }]));
}

/** The detail as the API shows it: linked conversations after the sources count. */
export const detailJson = ({ issue, linked }: IssueDetail): string =>
  `{${ISSUE.fields(issue)},"sources_count":${issue.sources_count},"linked_conversations":${linked}}`;

/** The id or (case-insensitive) shortcode a path names, as the server reads it. */
export function issueKey(idOrShortcode: string): ['id' | 'shortcode', string] | undefined {
  const id = parseUuid(idOrShortcode);
  if (id) return ['id', id];
  return SHORTCODE.test(idOrShortcode) ? ['shortcode', idOrShortcode.toUpperCase()] : undefined;
}

export function me(actor: Actor): Answer {
  const member = actor.member ? object(KEY_MEMBER, actor.member) : 'null';
  return ok(`{"data":{"workspace_id":"${actor.workspaceId}","api_key_id":"${actor.keyId}","member":${member}}}`);
}

export async function getIssue(db: Queries, actor: Actor, idOrShortcode: string): Promise<Answer> {
  const key = issueKey(idOrShortcode);
  const detail = key && (await readIssueDetail(db, actor.workspaceId, ...key));
  return detail ? ok(`{"data":${detailJson(detail)}}`) : notFound('issue');
}

/** limit (1–200, 50 by default) and offset (0 by default), or undefined when either is out of range. */
export function pageOf(query: URLSearchParams): { limit: number; offset: number } | undefined {
  const limit = Number(query.get('limit') ?? 50);
  const offset = Number(query.get('offset') ?? 0);
  return Number.isInteger(limit) && limit >= 1 && limit <= 200 && Number.isInteger(offset) && offset >= 0 ? { limit, offset } : undefined;
}

/** Issues as a list shows them: their columns with their linked conversations and sources counted. */
export const ISSUES_AS_LISTED =
  `select ${ISSUE.columns('i')}, (select count(*) from issue_conversations l where l.issue_id = i.id) as linked_conversations_count, ` +
  '(select count(*) from issue_api_sources s where s.issue_id = i.id) as sources_count from issues i';

export const issueListItemJson = (row: Row): string =>
  `{${ISSUE.fields(row)},"sources_count":${row.sources_count},"linked_conversations_count":${row.linked_conversations_count}}`;

/** The page's ids from the listing index, then their columns and counts; the total from issue_tallies. */
export async function listIssues(db: Queries, actor: Actor, query: URLSearchParams): Promise<Answer> {
  const statuses = [...new Set((query.get('status') ?? '').split(',').map((item) => item.trim()).filter(Boolean))];
  if (statuses.some((status) => !ISSUE_STATUSES.has(status))) return failure(400, 'validation_error', 'status: not a status');
  const page = pageOf(query);
  if (!page) return failure(400, 'validation_error', 'limit or offset out of range');
  const { limit, offset } = page;
  const byStatus = statuses.length ? ` and status in (${placeholders(statuses)})` : '';
  const rows = await db.all(
    `${ISSUES_AS_LISTED} where i.id in (select id from issues where workspace_id = ?${byStatus} order by created_at desc, id desc limit ? offset ?) ` +
      'order by i.created_at desc, i.id desc',
    [actor.workspaceId, ...statuses, limit, offset],
  );
  const total = await db.one<{ n: number | string | null }>(`select sum(issue_count) as n from issue_tallies where workspace_id = ?${byStatus}`, [actor.workspaceId, ...statuses]);
  return ok(`{"data":[${rows.map(issueListItemJson).join(',')}],"pagination":{"total":${Number(total?.n ?? 0)},"limit":${limit},"offset":${offset}}}`);
}

export const CONVERSATIONS_WITH_CONTACTS =
  `select ${CONVERSATION.columns('c')}, c.widget_session_id, ${CONVERSATION_INBOX_COLUMNS.map((column) => `c.${column}`).join(', ')}, ` +
  'ct.name as contact_name, ct.email as contact_email, ct.external_id as contact_external_id ' +
  'from conversations c left join contacts ct on ct.id = c.contact_id and ct.workspace_id = c.workspace_id';
export const CONVERSATION_WITH_CONTACT = `${CONVERSATIONS_WITH_CONTACTS} where c.workspace_id = ? and c.id = ?`;

/** The conversation's own fields and its contact, without braces. */
export const conversationFields = (row: Row): string => {
  const contact = row.contact_id === null
    ? 'null'
    : `{"id":"${row.contact_id}","name":${json.nullable(json.text)(row.contact_name)},"email":${json.nullable(json.text)(row.contact_email)},` +
      `"verified":${row.contact_external_id !== null}}`;
  const nullableText = json.nullable(json.text);
  const lastMessage = row.last_message_at === null
    ? 'null'
    : `{"sender_type":${json.text(row.last_message_sender_type)},"excerpt":${json.text(row.last_message_excerpt ?? '')},"created_at":${json.text(row.last_message_at)}}`;
  // The SLA applied: its breaches are stored as the JSON array the API shows.
  const sla = row.sla_policy_id === null
    ? 'null'
    : `{"policy_id":${json.text(row.sla_policy_id)},"first_response_due_at":${nullableText(row.sla_first_response_due_at)},` +
      `"next_response_due_at":${nullableText(row.sla_next_response_due_at)},"resolution_due_at":${nullableText(row.sla_resolution_due_at)},` +
      `"breaches":${row.sla_breaches},"status":${json.text(row.sla_status)},"due_at":${nullableText(row.sla_due_at)}}`;
  return `${CONVERSATION.fields(row)},"contact":${contact},"assignee_id":${nullableText(row.assignee_id)},"last_message":${lastMessage},` +
    `"waiting_since":${nullableText(row.waiting_since)},"snoozed_until":${nullableText(row.snoozed_until)},"sla":${sla}`;
};

const CONVERSATION_STATUSES = new Set(['open', 'in_progress', 'resolved', 'dismissed']);
/** The inbox's orders: newest first, or longest waiting first (those not waiting last). */
const CONVERSATION_ORDERS: Record<string, (alias: string) => string> = {
  newest: (c) => `${c}created_at desc, ${c}id desc`,
  waiting: (c) => `(${c}waiting_since is null) asc, ${c}waiting_since asc, ${c}id asc`,
};

/**
 * A page of the inbox: the page's ids from the sort's index, then their rows with their contacts;
 * the total counted. The filters the bench's scenarios use: status, assignee_id=none, sort.
 */
export async function listConversations(db: Queries, actor: Actor, query: URLSearchParams): Promise<Answer> {
  const statuses = [...new Set((query.get('status') ?? '').split(',').map((item) => item.trim()).filter(Boolean))];
  if (statuses.some((status) => !CONVERSATION_STATUSES.has(status))) return failure(400, 'validation_error', 'status: not a status');
  const order = CONVERSATION_ORDERS[query.get('sort') ?? 'newest'];
  const assignee = query.get('assignee_id');
  if (!order || (assignee !== null && assignee !== 'none')) return failure(501, 'not_implemented', 'the floor answers only the bench\'s filters');
  const page = pageOf(query);
  if (!page) return failure(400, 'validation_error', 'limit or offset out of range');
  const where = `workspace_id = ?${statuses.length ? ` and status in (${placeholders(statuses)})` : ''}${assignee ? ' and assignee_id is null' : ''}`;
  const [rows, total] = await Promise.all([
    db.all(
      `${CONVERSATIONS_WITH_CONTACTS} where c.id in (select id from conversations where ${where} order by ${order('')} limit ? offset ?) ` +
        `order by ${order('c.')}`,
      [actor.workspaceId, ...statuses, page.limit, page.offset],
    ),
    db.one<{ n: number | string }>(`select count(*) as n from conversations where ${where}`, [actor.workspaceId, ...statuses]),
  ]);
  return ok(`{"data":[${rows.map((row) => `{${conversationFields(row)}}`).join(',')}],"pagination":{"total":${Number(total!.n)},"limit":${page.limit},"offset":${page.offset}}}`);
}

export async function getConversation(db: Queries, actor: Actor, rawId: string): Promise<Answer> {
  const id = parseUuid(rawId);
  const conversation = id && (await db.one(CONVERSATION_WITH_CONTACT, [actor.workspaceId, id]));
  if (!conversation) return notFound('conversation');
  const [messages, attachments, issues] = await Promise.all([
    db.all(
      `select ${MESSAGE.columns('m')}, j.status as delivery_status, j.last_error as delivery_error from messages m left join email_jobs j on j.id = m.id ` +
        'where m.workspace_id = ? and m.conversation_id = ? order by m.created_at asc, m.id asc',
      [actor.workspaceId, id],
    ),
    db.all(
      `select ${ATTACHMENT.columns('a')}, a.message_id from attachments a where a.workspace_id = ? ` +
        'and a.message_id in (select m.id from messages m where m.workspace_id = ? and m.conversation_id = ?) order by a.created_at asc, a.id asc',
      [actor.workspaceId, actor.workspaceId, id],
    ),
    // From the conversation's links to each issue by id (a cross join keeps SQLite's planner on that side).
    db.all(
      `select ${LINKED_ISSUE.columns('i')} from issue_conversations link cross join issues i ` +
        'where i.id = link.issue_id and i.workspace_id = link.workspace_id and link.workspace_id = ? and link.conversation_id = ? ' +
        'order by link.created_at asc, i.id asc',
      [actor.workspaceId, id],
    ),
  ]);
  const shown = messages.map((message) => messageJson(message, array(ATTACHMENT, attachments.filter((file) => file.message_id === message.id))));
  return ok(`{"data":{${conversationFields(conversation)},"messages":[${shown.join(',')}],"linked_issues":${array(LINKED_ISSUE, issues)}}}`);
}
