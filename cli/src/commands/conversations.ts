// ldk conversation list|show|update|reply|tag
import { createInterface } from 'node:readline/promises';
import { Argument, type Command } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, Schemas } from '../api.js';
import { CONVERSATION_STATUSES, CONVERSATION_TYPES, PRIORITIES } from '../document.js';
import { CliError, UsageError } from '../errors.js';
import { addPageOptions, choiceOption, ListOption, nothingGiven, type PageOptions, productOption } from '../options.js';
import { fields, pageSummary, paint, relativeTime, table } from '../output.js';
import { contactName, conversationStatusStyle, priorityStyle, showConversationStatus, showPriority } from '../render.js';
import { scopedProductId } from '../resolve.js';
import { defineTagCommand } from './tags.js';

type Conversation = Schemas['Conversation'];

const getConversation = (api: Api, id: string) =>
  api.call(api.client.GET('/api/v1/conversations/{id}', { params: { path: { id } } }));

interface ListOptions extends PageOptions {
  status?: string;
  type?: string;
  priority?: string;
  product?: string;
}

async function listConversations(api: Api, options: ListOptions): Promise<HumanOutput> {
  const productId = await scopedProductId(api, options.product);
  const { status, type, priority, limit, offset } = options;
  const query = { product_id: productId ?? undefined, status, type, priority, limit, offset };
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
      const sender = paint('bold', `${message.sender_name ?? message.sender_id} (${message.sender_type})`);
      return `${sender} ${paint('dim', `· ${relativeTime(message.created_at)}`)}\n${indent(message.body)}`;
    })
    .join('\n\n');
}

async function showConversation(api: Api, id: string): Promise<HumanOutput> {
  const conversation = (await getConversation(api, id)).data;
  return () => {
    const facts = fields([
      ['status', showConversationStatus(conversation.status)],
      ['priority', showPriority(conversation.priority)],
      ['type', `${conversation.type} (via ${conversation.source})`],
      ['contact', contactName(conversation.contact)],
      ['rating', conversation.rating === null ? null : String(conversation.rating)],
      ['upvotes', String(conversation.upvotes)],
      ['created', relativeTime(conversation.created_at)],
      ['updated', relativeTime(conversation.updated_at)],
      ['id', conversation.id],
      ['product', conversation.product_id],
    ]);
    return [paint('bold', conversation.title), facts, conversation.ai_summary, transcript(conversation.messages)].filter(Boolean).join('\n\n');
  };
}

type ConversationUpdate = Partial<Pick<Conversation, 'status' | 'priority'>>;

async function updateConversation(api: Api, id: string, options: ConversationUpdate): Promise<HumanOutput> {
  const body = { status: options.status, priority: options.priority };
  if (nothingGiven(body)) throw new UsageError('nothing to update: pass --status or --priority');
  const { data } = await api.call(api.client.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body }));
  return () => `Updated "${data.title}": ${showConversationStatus(data.status)}, ${showPriority(data.priority)}.`;
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

export function defineConversationCommands(program: Command): void {
  const conversation = program.command('conversation').description('customers\' conversations: read, triage and reply');
  const list = conversation.command('list').description('list conversations, newest first')
    .addOption(new ListOption('--status <statuses>', 'only these statuses', CONVERSATION_STATUSES))
    .addOption(new ListOption('--type <types>', 'only these types', CONVERSATION_TYPES))
    .addOption(new ListOption('--priority <priorities>', 'only these priorities', PRIORITIES))
    .addOption(productOption('only conversations of this product'));
  addPageOptions(list, 'listConversations').action(withApi(listConversations));

  conversation.command('show').description('show a conversation with its messages')
    .argument('<id>', 'conversation UUID')
    .action(withApi(showConversation));

  conversation.command('update').description('change a conversation\'s status or priority').argument('<id>', 'conversation UUID')
    .addOption(choiceOption('--status <status>', 'new status', CONVERSATION_STATUSES))
    .addOption(choiceOption('--priority <priority>', 'new priority', PRIORITIES))
    .action(withApi(updateConversation));

  conversation.command('reply').description('reply to the customer (asks first on a terminal; elsewhere needs --yes)')
    .argument('<id>', 'conversation UUID')
    .argument('<text>', 'the message')
    .option('-y, --yes', 'send without asking')
    .action(withApi(reply));

  defineTagCommand<Conversation>(conversation, {
    argument: new Argument('<id>', 'conversation UUID'),
    read: async (api, id) => (await getConversation(api, id)).data,
    write: async (api, id, tags) =>
      (await api.call(api.client.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body: { tags } }))).data,
    name: (record) => `"${record.title}"`,
  });
}
