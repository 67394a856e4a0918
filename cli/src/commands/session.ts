// ldk login, ldk init, ldk whoami, ldk member list: who is calling, where, and for which product.
import { homedir } from 'node:os';
import type { Command } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, Schemas } from '../api.js';
import { authFilePath, findFolderProduct, normalizeBaseUrl, writeAuthFile, writeFolderProduct } from '../config.js';
import { addPageOptions, type PageOptions } from '../options.js';
import { fields, pageSummary, paint, relativeTime, table } from '../output.js';
import { findProduct } from '../resolve.js';

const memberName = (member: Schemas['KeyMember'] | null) =>
  member === null ? 'none (a key without a member)' : `${member.display_name ?? member.id} (${member.role})`;

/** Checks the key against the server, then saves both; a key the server refuses is not saved. */
async function login(api: Api): Promise<HumanOutput> {
  const me = (await api.call(api.client.GET('/api/v1/me'))).data;
  const path = writeAuthFile(api.credentials);
  return () => `Logged in to ${api.credentials.url} as ${memberName(me.member)}, workspace ${me.workspace_id}.\nSaved to ${path}.`;
}

async function init(api: Api, options: { product: string }): Promise<HumanOutput> {
  const product = await findProduct(api, options.product);
  const file = writeFolderProduct(product.id);
  return () => `This folder now works on ${paint('bold', product.name)} (${product.slug}, issues ${product.issue_prefix}-…): wrote ${file}.`;
}

async function whoami(api: Api): Promise<HumanOutput> {
  const me = (await api.call(api.client.GET('/api/v1/me'))).data;
  const folder = findFolderProduct();
  return () =>
    fields([
      ['member', memberName(me.member)],
      ['member id', me.member?.id ?? null],
      ['workspace', me.workspace_id],
      ['api key', me.api_key_id],
      ['server', api.credentials.url],
      ['product', folder && `${folder.productId} (from ${folder.file})`],
    ]);
}

async function listMembers(api: Api, options: PageOptions): Promise<HumanOutput> {
  const page = await api.call(api.client.GET('/api/v1/members', { params: { query: { limit: options.limit, offset: options.offset } } }));
  return () => {
    const rows = table(page.data, [
      { header: 'MEMBER', value: (member) => member.id },
      { header: 'ROLE', value: (member) => member.role },
      { header: 'JOINED', value: (member) => relativeTime(member.created_at), style: () => 'dim' },
      { header: 'NAME', value: (member) => member.display_name ?? '—', shrinks: true },
    ]);
    return page.data.length === 0 ? pageSummary(page.pagination, 0) : `${rows}\n${pageSummary(page.pagination, page.data.length)}`;
  };
}

export function defineSessionCommands(program: Command): void {
  const authFile = authFilePath().replace(homedir(), '~');
  program.command('login').description(`check a server URL and API key, and save them in ${authFile} (mode 0600)`)
    .requiredOption('--url <url>', 'the server\'s base URL, e.g. http://127.0.0.1:3000')
    .requiredOption('--key <key>', 'an API key (ldk_…)')
    .action(withApi(login, (options) => ({ url: normalizeBaseUrl(String(options.url), '--url'), key: String(options.key) })));

  program.command('init').description('tie this folder (and its subfolders) to a product: writes .loopdesk.json')
    .requiredOption('--product <slug|id>', 'the product')
    .action(withApi(init));

  program.command('whoami').description('the member, workspace and key you are using, and this folder\'s product').action(withApi(whoami));

  const member = program.command('member').description('the workspace\'s members');
  const list = member.command('list').description('list members (their ids are what issue assign takes)');
  addPageOptions(list, 'listMembers').action(withApi(listMembers));
}
