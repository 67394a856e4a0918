// ldk issue list|show|create|update|start|done|dismiss|reopen|assign|tag
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, RequestBody, Schemas } from '../api.js';
import { ISSUE_STATUSES, NEW_ISSUE_STATUSES, PRIORITIES } from '../document.js';
import { UsageError } from '../errors.js';
import {
  addPageOptions, assigneeFilterOption, choiceOption, ListOption, memberArgument, nothingGiven, type PageOptions, productOption,
} from '../options.js';
import { fields, pageSummary, paint, relativeTime, table } from '../output.js';
import { conversationsTable, issueName, issueStatusStyle, memberNames, priorityStyle, showConversationStatus, showIssueStatus, showPriority, tagList } from '../render.js';
import { isUuid, requiredProductId, scopedProductId } from '../resolve.js';
import { defineTagCommand } from './tags.js';

type Issue = Schemas['Issue'];
type IssueStatus = Issue['status'];
type IssueUpdate = RequestBody<'updateIssue'>;

const issueArgument = () => new Argument('<issue>', 'the issue: its shortcode (APP-12) or UUID');

const getIssue = (api: Api, id: string) => api.call(api.client.GET('/api/v1/issues/{id}', { params: { path: { id } } }));
const patchIssue = (api: Api, id: string, body: IssueUpdate) =>
  api.call(api.client.PATCH('/api/v1/issues/{id}', { params: { path: { id } }, body }));

/** `APP-12 "Title": in_progress, high, assigned to Ana`. */
async function issueState(api: Api, issue: Issue): Promise<string> {
  const assignee = issue.assignee_id === null ? 'unassigned' : `assigned to ${(await memberNames(api, [issue.assignee_id]))(issue.assignee_id)}`;
  return `${issueName(issue)}: ${showIssueStatus(issue.status)}, ${showPriority(issue.priority)}, ${assignee}`;
}

interface ListOptions extends PageOptions {
  status?: string;
  priority?: string;
  assignee?: string;
  product?: string;
}

async function listIssues(api: Api, options: ListOptions): Promise<HumanOutput> {
  const productId = await scopedProductId(api, options.product);
  const { status, priority, assignee, limit, offset } = options;
  const query = { product_id: productId ?? undefined, status, priority, assignee_id: assignee, limit, offset };
  const page = await api.call(api.client.GET('/api/v1/issues', { params: { query } }));
  return async () => {
    const summary = pageSummary(page.pagination, page.data.length);
    if (page.data.length === 0) return summary;
    const assignee = await memberNames(api, page.data.map((issue) => issue.assignee_id));
    const rows = table(page.data, [
      { header: 'ISSUE', value: (issue) => issue.shortcode, style: () => 'bold' },
      { header: 'STATUS', value: (issue) => issue.status, style: (issue) => issueStatusStyle(issue.status) },
      { header: 'PRIORITY', value: (issue) => issue.priority, style: (issue) => priorityStyle(issue.priority) },
      { header: 'ASSIGNEE', value: (issue) => assignee(issue.assignee_id) },
      { header: 'UPDATED', value: (issue) => relativeTime(issue.updated_at), style: () => 'dim' },
      { header: 'TITLE', value: (issue) => issue.title, shrinks: true },
    ]);
    return `${rows}\n${summary}`;
  };
}

async function showIssue(api: Api, ref: string): Promise<HumanOutput> {
  const issue = (await getIssue(api, ref)).data;
  return async () => {
    const assignee = await memberNames(api, [issue.assignee_id]);
    const header = `${paint('bold', issue.shortcode)}  ${paint('bold', issue.title)}`;
    const facts = fields([
      ['status', showIssueStatus(issue.status)],
      ['priority', showPriority(issue.priority)],
      ['assignee', assignee(issue.assignee_id)],
      ['tags', tagList(issue.tags)],
      ['resolution', issue.resolution_comment],
      ['sources', String(issue.sources_count)],
      ['created', relativeTime(issue.created_at)],
      ['updated', relativeTime(issue.updated_at)],
      ['id', issue.id],
      ['product', issue.product_id],
    ]);
    const conversations = conversationsTable(issue.linked_conversations, 'No linked conversations.');
    return [header, facts, issue.description, conversations].filter((part) => part !== null && part !== '').join('\n\n');
  };
}

interface CreateOptions {
  product?: string;
  description?: string;
  priority?: Issue['priority'];
  status?: (typeof NEW_ISSUE_STATUSES)[number];
  assignee?: string | null;
  conversation?: string;
  dedup: boolean;
}

async function createIssue(api: Api, title: string, options: CreateOptions): Promise<HumanOutput> {
  const body = {
    product_id: await requiredProductId(api, options.product),
    title,
    description: options.description,
    priority: options.priority,
    status: options.status,
    assignee_id: options.assignee,
  };
  if (!options.dedup) {
    const { data } = await api.call(api.client.POST('/api/v1/issues', { body }));
    return async () => `Created ${await issueState(api, data)}.`;
  }
  const result = await api.call(api.client.POST('/api/v1/issues/maybe', { body: { ...body, conversation_id: options.conversation } }));
  if (!result.matched_existing) return async () => `Created ${await issueState(api, result.data)} (no open issue matched).`;
  return async () =>
    `Matched the existing issue ${await issueState(api, result.data)}.\n` +
    `Your report was added to its sources (${result.data.sources_count} in all); nothing new was created.`;
}

interface UpdateOptions {
  title?: string;
  description?: string;
  priority?: Issue['priority'];
  status?: IssueStatus;
}

async function updateIssue(api: Api, ref: string, options: UpdateOptions): Promise<HumanOutput> {
  const { title, description, priority, status } = options;
  const body = { title, description, priority, status };
  if (nothingGiven(body)) throw new UsageError('nothing to update: pass --title, --description, --priority or --status');
  const { data } = await patchIssue(api, ref, body);
  return async () => `Updated ${await issueState(api, data)}.`;
}

/** In progress, and assigned to the key's member when nobody has it yet. */
async function startIssue(api: Api, ref: string): Promise<HumanOutput> {
  const issue = (await getIssue(api, ref)).data;
  const body: IssueUpdate = { status: 'in_progress' };
  if (issue.assignee_id === null) {
    const { member } = (await api.call(api.client.GET('/api/v1/me'))).data;
    if (member !== null) body.assignee_id = member.id;
  }
  const { data } = await patchIssue(api, issue.id, body);
  return async () => `Started ${await issueState(api, data)}.`;
}

/** `issue done|dismiss|reopen`: a status, with a resolution comment where it makes sense. */
function setStatus(status: IssueStatus, verb: string) {
  return async (api: Api, ref: string, options: { comment?: string }): Promise<HumanOutput> => {
    const { data } = await patchIssue(api, ref, { status, resolution_comment: options.comment });
    const resolution = options.comment === undefined ? '' : `\n${fields([['resolution', data.resolution_comment]])}`;
    return async () => `${verb} ${await issueState(api, data)}.${resolution}`;
  };
}

async function assignIssue(api: Api, ref: string, member: string | null): Promise<HumanOutput> {
  const { data } = await patchIssue(api, ref, { assignee_id: member });
  return async () => `${await issueState(api, data)}.`;
}

export function defineIssueCommands(program: Command): void {
  const issue = program.command('issue').description('the backlog: find, file and work issues');
  const priority = () => choiceOption('--priority <priority>', 'priority', PRIORITIES);
  const comment = () => new Option('--comment <text>', 'resolution comment: how it was fixed, or why not');

  const list = issue.command('list').description('list issues, newest first')
    .addOption(new ListOption('--status <statuses>', 'only these statuses', ISSUE_STATUSES))
    .addOption(new ListOption('--priority <priorities>', 'only these priorities', PRIORITIES))
    .addOption(assigneeFilterOption())
    .addOption(productOption('only issues of this product'));
  addPageOptions(list, 'listIssues').action(withApi(listIssues));

  issue.command('show').description('show an issue with its linked conversations').addArgument(issueArgument()).action(withApi(showIssue));

  issue.command('create').description('file an issue, unless an open issue of the product already says the same (then it is returned)')
    .argument('<title>', 'the issue title')
    .option('-d, --description <text>', 'details (they also improve duplicate matching)')
    .addOption(priority())
    .addOption(choiceOption('--status <status>', 'initial status', NEW_ISSUE_STATUSES))
    .addOption(new Option('--assignee <member>', 'a member id, me or none').argParser(memberArgument))
    .option('--conversation <id>', 'a conversation of the product to link to the issue, found or created')
    .addOption(productOption('the product to file it in'))
    .addOption(new Option('--no-dedup', 'create it without looking for a duplicate').conflicts('conversation'))
    .action(withApi(createIssue));

  issue.command('update').description('change an issue\'s title, description, priority or status').addArgument(issueArgument())
    .option('--title <title>', 'new title')
    .option('-d, --description <text>', 'new description ("" clears it)')
    .addOption(priority())
    .addOption(choiceOption('--status <status>', 'new status', ISSUE_STATUSES))
    .action(withApi(updateIssue));

  const workOn = (name: string, description: string) => issue.command(name).description(description).addArgument(issueArgument());
  workOn('start', 'set in_progress, and assign it to you when nobody has it').action(withApi(startIssue));
  workOn('done', 'set done, with how it was fixed').addOption(comment()).action(withApi(setStatus('done', 'Finished')));
  workOn('dismiss', 'set dismissed: it will not be done').addOption(comment()).action(withApi(setStatus('dismissed', 'Dismissed')));
  workOn('reopen', 'set pending again').action(withApi(setStatus('pending', 'Reopened')));

  issue.command('assign').description('assign an issue to a member, to yourself (me), or to nobody (none)').addArgument(issueArgument())
    .addArgument(new Argument('<member>', 'a member id (ldk member list), me or none').argParser(memberArgument))
    .action(withApi(assignIssue));

  defineTagCommand<Issue>(issue, {
    argument: issueArgument(),
    read: async (api, ref) => (await getIssue(api, ref)).data,
    write: async (api, id, tags) => (await patchIssue(api, id, { tags })).data,
    name: issueName,
  });
}
