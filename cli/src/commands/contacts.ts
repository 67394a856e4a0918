// ldk contact list|show: the people who wrote in, and what they wrote about.
import type { Command } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api } from '../api.js';
import { addPageOptions, type PageOptions } from '../options.js';
import { fields, pageSummary, paint, relativeTime, table } from '../output.js';
import { contactName, conversationsTable } from '../render.js';

const lastSeen = (at: string | null) => (at === null ? 'never' : relativeTime(at));

async function listContacts(api: Api, options: PageOptions & { q?: string }): Promise<HumanOutput> {
  const query = { q: options.q, limit: options.limit, offset: options.offset };
  const page = await api.call(api.client.GET('/api/v1/contacts', { params: { query } }));
  return () => {
    const summary = pageSummary(page.pagination, page.data.length);
    if (page.data.length === 0) return summary;
    const rows = table(page.data, [
      { header: 'CONTACT', value: (contact) => contact.id },
      { header: 'CONVERSATIONS', value: (contact) => String(contact.conversations_count) },
      { header: 'LAST SEEN', value: (contact) => lastSeen(contact.last_seen_at), style: () => 'dim' },
      { header: 'NAME', value: (contact) => contactName(contact), shrinks: true },
    ]);
    return `${rows}\n${summary}`;
  };
}

async function showContact(api: Api, id: string): Promise<HumanOutput> {
  const contact = (await api.call(api.client.GET('/api/v1/contacts/{id}', { params: { path: { id } } }))).data;
  return () => {
    const facts = fields([
      ['name', contact.name],
      ['email', contact.email],
      ['verified', contact.verified ? 'yes (a signed identity token from the host site)' : 'no'],
      ['conversations', String(contact.conversations_count)],
      ['last seen', lastSeen(contact.last_seen_at)],
      ['created', relativeTime(contact.created_at)],
      ['id', contact.id],
    ]);
    return [paint('bold', contactName(contact)), facts, conversationsTable(contact.conversations, 'No conversations.')].join('\n\n');
  };
}

export function defineContactCommands(program: Command): void {
  const contact = program.command('contact').description('the people who wrote in: find them, see their conversations');
  const list = contact.command('list').description('list contacts, newest first')
    .option('--q <prefix>', 'only contacts whose name or email starts with this, without case');
  addPageOptions(list, 'listContacts').action(withApi(listContacts));
  contact.command('show').description('show a contact with their conversations').argument('<id>', 'contact UUID').action(withApi(showContact));
}
