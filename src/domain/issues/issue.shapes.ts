// What the API shows of an issue (list item and detail), mapped from its rows; shared by the
// issue service, which reads them, and the issue writes, whose events carry them.
import type { IssueDetailRows, IssueListRow, IssueRow, LinkedConversationRow } from '../../db/repositories/issue.repository.js';
import { parseTags } from '../tags/tags.js';
import type { ConversationType, ConversationStatus, IssueStatus, Priority } from '../shared/enums.js';

export interface IssueBase {
  id: string;
  product_id: string;
  shortcode: string;
  title: string;
  description: string | null;
  status: IssueStatus;
  priority: Priority;
  assignee_id: string | null;
  resolution_comment: string | null;
  is_ai_generated: boolean;
  tags: string[];
  created_at: string;
  updated_at: string;
}

export interface ConversationSummary {
  id: string;
  title: string;
  type: ConversationType;
  status: ConversationStatus;
  priority: Priority;
  ai_summary: string | null;
  created_at: string;
}

export type IssueListItem = IssueBase & { linked_conversations_count: number; sources_count: number };
export type IssueDetail = IssueBase & { linked_conversations: ConversationSummary[]; sources_count: number };

export const toIssueBase = (row: IssueRow): IssueBase => ({
  id: row.id,
  product_id: row.product_id,
  shortcode: row.shortcode,
  title: row.title,
  description: row.description,
  status: row.status as IssueStatus,
  priority: row.priority as Priority,
  assignee_id: row.assignee_id,
  resolution_comment: row.resolution_comment,
  is_ai_generated: row.is_ai_generated === 1,
  tags: parseTags(row.tags),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const toIssueListItem = (row: IssueListRow): IssueListItem => ({
  ...toIssueBase(row),
  linked_conversations_count: row.linked_conversations_count,
  sources_count: row.sources_count,
});

export const toSummary = ({ issue_id: _issueId, ...row }: LinkedConversationRow): ConversationSummary => ({
  ...row,
  type: row.type as ConversationType,
  status: row.status as ConversationStatus,
  priority: row.priority as Priority,
});

/** The detail from the rows `findDetail` read. */
export const toIssueDetail = ({ issue, linked, sources_count }: IssueDetailRows): IssueDetail => ({
  ...toIssueBase(issue),
  linked_conversations: linked.map(toSummary),
  sources_count,
});
