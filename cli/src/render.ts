// How resources read on a terminal: styles for statuses and priorities, names for member ids and contacts.
import type { Api, Schemas } from './api.js';
import { paint, type Style, table } from './output.js';

type IssueStatus = Schemas['Issue']['status'];
type ConversationStatus = Schemas['Conversation']['status'];
type Priority = Schemas['Issue']['priority'];

const ISSUE_STATUS_STYLES: Record<IssueStatus, Style | undefined> = {
  pending: undefined,
  in_progress: 'yellow',
  icebox: 'blue',
  done: 'green',
  released: 'magenta',
  dismissed: 'dim',
};
const CONVERSATION_STATUS_STYLES: Record<ConversationStatus, Style | undefined> = {
  open: 'cyan',
  in_progress: 'yellow',
  resolved: 'green',
  dismissed: 'dim',
};
const PRIORITY_STYLES: Record<Priority, Style | undefined> = { urgent: 'red', high: 'yellow', normal: undefined, low: 'dim' };

export const issueStatusStyle = (status: IssueStatus) => ISSUE_STATUS_STYLES[status];
export const conversationStatusStyle = (status: ConversationStatus) => CONVERSATION_STATUS_STYLES[status];
export const priorityStyle = (priority: Priority) => PRIORITY_STYLES[priority];

export const showIssueStatus = (status: IssueStatus) => paint(issueStatusStyle(status), status);
export const showConversationStatus = (status: ConversationStatus) => paint(conversationStatusStyle(status), status);
export const showPriority = (priority: Priority) => paint(priorityStyle(priority), priority);

/**
 * Member id → display name, for showing the assignees among `ids`: one request (the first 200
 * members), none when nobody is assigned.
 */
export async function memberNames(api: Api, ids: (string | null)[]): Promise<(id: string | null) => string> {
  const names = new Map<string, string>();
  if (ids.some((id) => id !== null)) {
    const members = (await api.call(api.client.GET('/api/v1/members', { params: { query: { limit: 200 } } }))).data;
    for (const member of members) names.set(member.id, member.display_name ?? member.id);
  }
  return (id) => (id === null ? '—' : (names.get(id) ?? id));
}

/** `APP-12 "Title"`, how commands name the issue they acted on. */
/** A record's tags on one line, or null (left out of `fields`) when it has none. */
export const tagList = (tags: string[]): string | null => (tags.length === 0 ? null : tags.join(', '));

export const issueName = (issue: { shortcode: string; title: string }) => `${paint('bold', issue.shortcode)} "${issue.title}"`;

/** `Ana <ana@example.com>`: a contact as commands name them; its id when it has neither name nor email. */
export const contactName = (contact: { id: string; name: string | null; email: string | null } | null): string =>
  contact === null ? '—' : [contact.name, contact.email && `<${contact.email}>`].filter(Boolean).join(' ') || contact.id;

/** The conversations of what is shown above them (an issue's linked ones, a contact's), or `none` when there are none. */
export function conversationsTable(conversations: { id: string; status: ConversationStatus; type: string; title: string }[], none: string): string {
  if (conversations.length === 0) return paint('dim', none);
  return table(conversations, [
    { header: 'CONVERSATION', value: (conversation) => conversation.id },
    { header: 'STATUS', value: (conversation) => conversation.status, style: (conversation) => conversationStatusStyle(conversation.status) },
    { header: 'TYPE', value: (conversation) => conversation.type },
    { header: 'TITLE', value: (conversation) => conversation.title, shrinks: true },
  ]);
}
