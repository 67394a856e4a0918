// ldk conversation list|show|update|reply|assign|note|tag
import { createInterface } from 'node:readline/promises';
import { Argument, type Command } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, Schemas } from '../api.js';
import { CONVERSATION_STATUSES, CONVERSATION_TYPES, PRIORITIES } from '../document.js';
import { CliError, UsageError } from '../errors.js';
import {
  addPageOptions, assigneeFilterOption, choiceOption, ListOption, memberArgument, nothingGiven, type PageOptions, productOption,
} from '../options.js';
import { fields, pageSummary, paint, relativeTime, table } from '../output.js';
import { contactName, conversationStatusStyle, memberNames, priorityStyle, showConversationStatus, showPriority, tagList } from '../render.js';
import { scopedProductId } from '../resolve.js';
import { defineTagCommand } from './tags.js';

type Conversation = Schemas['Conversation'];

const getConversation = (api: Api, id: string) =>
  api.call(api.client.GET('/api/v1/conversations/{id}', { params: { path: { id } } }));

interface ListOptions extends PageOptions {
  status?: string;
  type?: string;
  priority?: string;
  assignee?: string;
  sort?: 'newest' | 'waiting';
  product?: string;
}

async function listConversations(api: Api, options: ListOptions): Promise<HumanOutput> {
  const productId = await scopedProductId(api, options.product);
  const { status, type, priority, assignee, sort, limit, offset } = options;
  const query = { product_id: productId ?? undefined, status, type, priority, assignee_id: assignee, sort, limit, offset };
  const page = await api.call(api.client.GET('/api/v1/conversations', { params: { query } }));
  return () => {
    const summary = pageSummary(page.pagination, page.data.length);
    if (page.data.length === 0) return summary;
    const rows = table(page.data, [
      { header: 'CONVERSATION', value: (conversation) => conversation.id },
      { header: 'STATUS', value: (conversation) => conversation.status, style: (conversation) => conversationStatusStyle(conversation.status) },
      { header: 'PRIORITY', value: (conversation) => conversation.priority, style: (conversation) => priorityStyle(conversation.priority) },
      { header: 'TYPE', value: (conversation) => conversation.type },
      { header: 'CONTACT', value: (conversation) => contactName(conversation.contact) },
      { header: 'UPDATED', value: (conversation) => relativeTime(conversation.updated_at), style: () => 'dim' },
      { header: 'TITLE', value: (conversation) => conversation.title, shrinks: true },
    ]);
    return `${rows}\n${summary}`;
  };
}

const indent = (text: string) => text.replace(/^/gm, '    ');

function transcript(messages: Schemas['Message'][]): string {
  if (messages.length === 0) return paint('dim', 'No messages yet.');
  return messages
    .map((message) => {
      const sender = paint('bold', `${message.sender_name ?? message.sender_id} (${message.internal ? 'internal note' : message.sender_type})`);
      return `${sender} ${paint('dim', `· ${relativeTime(message.created_at)}`)}\n${indent(message.body)}`;
    })
    .join('\n\n');
}

async function showConversation(api: Api, id: string): Promise<HumanOutput> {
  const conversation = (await getConversation(api, id)).data;
  return () => conversationText(api, conversation);
}

/** A conversation as `conversation show` prints it: title, facts, summary, transcript. */
export async function conversationText(api: Api, conversation: Schemas['ConversationDetail']): Promise<string> {
  const assignee = await memberNames(api, [conversation.assignee_id]);
  const facts = fields([
    ['status', showConversationStatus(conversation.status)],
    ['priority', showPriority(conversation.priority)],
    ['type', conversation.type],
    // How it came in, as it happened: never "ticket (via chat)" for an import.
    ['channel', conversation.channel === 'import' ? 'imported' : conversation.channel],
    ['contact', contactName(conversation.contact)],
    ['assignee', assignee(conversation.assignee_id)],
    ['tags', tagList(conversation.tags)],
    ['snoozed until', conversation.snoozed_until],
    ['rating', conversation.rating === null ? null : String(conversation.rating)],
    ['upvotes', String(conversation.upvotes)],
    ['created', relativeTime(conversation.created_at)],
    ['updated', relativeTime(conversation.updated_at)],
    ['id', conversation.id],
    ['product', conversation.product_id],
  ]);
  return [paint('bold', conversation.title), facts, conversation.ai_summary, transcript(conversation.messages)].filter(Boolean).join('\n\n');
}

type ConversationUpdate = Partial<Pick<Conversation, 'status' | 'priority'>> & { snoozeUntil?: string };

async function updateConversation(api: Api, id: string, options: ConversationUpdate): Promise<HumanOutput> {
  const { status, priority, snoozeUntil } = options;
  const body = { status, priority, snoozed_until: snoozeUntil === 'none' ? null : snoozeUntil };
  if (nothingGiven(body)) throw new UsageError('nothing to update: pass --status, --priority or --snooze-until');
  const { data } = await api.call(api.client.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body }));
  const snoozed = data.snoozed_until === null ? '' : `, snoozed until ${data.snoozed_until}`;
  return () => `Updated "${data.title}": ${showConversationStatus(data.status)}, ${showPriority(data.priority)}${snoozed}.`;
}

/** A reply goes to a customer: on a terminal it is shown and needs a yes; elsewhere only --yes sends it. */
async function confirmReply(api: Api, id: string, text: string): Promise<void> {
  if (!process.stdin.isTTY) throw new CliError('reply not sent: not on a terminal, so it cannot be confirmed; pass --yes to send it');
  const conversation = (await getConversation(api, id)).data;
  process.stderr.write(`To ${contactName(conversation.contact)}, on "${conversation.title}":\n\n${indent(text)}\n\n`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await prompt.question('Send this reply? [y/N] ').finally(() => prompt.close());
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('reply not sent');
}

async function reply(api: Api, id: string, text: string, options: { yes?: boolean }): Promise<HumanOutput> {
  if (options.yes !== true) await confirmReply(api, id, text);
  const { data } = await api.call(api.client.POST('/api/v1/conversations/{id}/messages', { params: { path: { id } }, body: { body: text } }));
  return () => `Sent (message ${data.id}).`;
}

async function assignConversation(api: Api, id: string, member: string | null): Promise<HumanOutput> {
  const { data } = await api.call(api.client.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body: { assignee_id: member } }));
  return async () => {
    if (data.assignee_id === null) return `Unassigned "${data.title}".`;
    return `Assigned "${data.title}" to ${(await memberNames(api, [data.assignee_id]))(data.assignee_id)}.`;
  };
}

/** A note is for the team only, so unlike a reply it needs no confirmation. */
async function addNote(api: Api, id: string, text: string): Promise<HumanOutput> {
  const { data } = await api.call(api.client.POST('/api/v1/conversations/{id}/notes', { params: { path: { id } }, body: { body: text } }));
  return () => `Noted (message ${data.id}); the team sees it, the customer does not.`;
}

export function defineConversationCommands(program: Command): void {
  const conversation = program.command('conversation').description('customers\' conversations: read, triage and reply');
  const list = conversation.command('list').description('list conversations, newest first')
    .addOption(new ListOption('--status <statuses>', 'only these statuses', CONVERSATION_STATUSES))
    .addOption(new ListOption('--type <types>', 'only these types', CONVERSATION_TYPES))
    .addOption(new ListOption('--priority <priorities>', 'only these priorities', PRIORITIES))
    .addOption(assigneeFilterOption())
    .addOption(choiceOption('--sort <order>', 'newest first (default), or the longest waiting first', ['newest', 'waiting']))
    .addOption(productOption('only conversations of this product'));
  addPageOptions(list, 'listConversations').action(withApi(listConversations));

  conversation.command('show').description('show a conversation with its messages')
    .argument('<id>', 'conversation UUID')
    .action(withApi(showConversation));

  conversation.command('update').description('change a conversation\'s status or priority, or snooze it').argument('<id>', 'conversation UUID')
    .addOption(choiceOption('--status <status>', 'new status', CONVERSATION_STATUSES))
    .addOption(choiceOption('--priority <priority>', 'new priority', PRIORITIES))
    .option('--snooze-until <instant>', 'snooze it until an ISO 8601 instant with its offset (2026-11-22T09:00:00+01:00); none wakes it')
    .action(withApi(updateConversation));

  conversation.command('reply').description('reply to the customer (asks first on a terminal; elsewhere needs --yes)')
    .argument('<id>', 'conversation UUID')
    .argument('<text>', 'the message')
    .option('-y, --yes', 'send without asking')
    .action(withApi(reply));

  conversation.command('assign').description('assign a conversation to a member, to yourself (me), or to nobody (none)')
    .argument('<id>', 'conversation UUID')
    .addArgument(new Argument('<member>', 'a member id (ldk member list), me or none').argParser(memberArgument))
    .action(withApi(assignConversation));

  conversation.command('note').description('add an internal note: the team sees it, the customer never does')
    .argument('<id>', 'conversation UUID')
    .argument('<text>', 'the note')
    .action(withApi(addNote));

  defineTagCommand<Conversation>(conversation, {
    argument: new Argument('<id>', 'conversation UUID'),
    read: async (api, id) => (await getConversation(api, id)).data,
    write: async (api, id, tags) =>
      (await api.call(api.client.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body: { tags } }))).data,
    name: (record) => `"${record.title}"`,
  });
}
