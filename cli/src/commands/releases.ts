// ldk release list|show|create|publish
import { type Command, Option } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, Schemas } from '../api.js';
import { CliError } from '../errors.js';
import { addPageOptions, type PageOptions, productOption } from '../options.js';
import { fields, pageSummary, paint, relativeTime, table } from '../output.js';
import { issueStatusStyle, priorityStyle } from '../render.js';
import { issueIds, issuesInStatus, requiredProductId, scopedProductId } from '../resolve.js';

type Release = Schemas['Release'];

const releaseName = (release: Release) => `${paint('bold', release.version ?? '(no version)')} "${release.title}"`;
const publication = (release: Release) => (release.released_at === null ? 'draft' : `published ${relativeTime(release.released_at)}`);

const getRelease = (api: Api, id: string) => api.call(api.client.GET('/api/v1/releases/{id}', { params: { path: { id } } }));

async function listReleases(api: Api, options: PageOptions & { product?: string }): Promise<HumanOutput> {
  const productId = await scopedProductId(api, options.product);
  const query = { product_id: productId ?? undefined, limit: options.limit, offset: options.offset };
  const page = await api.call(api.client.GET('/api/v1/releases', { params: { query } }));
  return () => {
    const summary = pageSummary(page.pagination, page.data.length);
    if (page.data.length === 0) return summary;
    const rows = table(page.data, [
      { header: 'RELEASE', value: (release) => release.id },
      { header: 'VERSION', value: (release) => release.version ?? '—', style: () => 'bold' },
      { header: 'PRODUCT', value: (release) => release.product.name },
      { header: 'ISSUES', value: (release) => String(release.linked_issues_count) },
      {
        header: 'PUBLISHED',
        value: (release) => (release.released_at === null ? 'draft' : relativeTime(release.released_at)),
        style: (release) => (release.released_at === null ? 'yellow' : 'dim'),
      },
      { header: 'TITLE', value: (release) => release.title, shrinks: true },
    ]);
    return `${rows}\n${summary}`;
  };
}

function releaseIssues(release: Schemas['ReleaseDetail']): string {
  if (release.issues.length === 0) return paint('dim', 'No issues.');
  return table(release.issues, [
    { header: 'STATUS', value: (issue) => issue.status, style: (issue) => issueStatusStyle(issue.status) },
    { header: 'PRIORITY', value: (issue) => issue.priority, style: (issue) => priorityStyle(issue.priority) },
    { header: 'ISSUE', value: (issue) => issue.title, shrinks: true },
  ]);
}

function releaseDetail(release: Schemas['ReleaseDetail']): string {
  const facts = fields([
    ['version', release.version],
    ['product', release.product.name],
    ['published', release.released_at === null ? 'no (draft)' : relativeTime(release.released_at)],
    ['created', relativeTime(release.created_at)],
    ['id', release.id],
  ]);
  return [paint('bold', release.title), facts, release.description, releaseIssues(release)].filter(Boolean).join('\n\n');
}

async function showRelease(api: Api, id: string): Promise<HumanOutput> {
  const { data } = await getRelease(api, id);
  return () => releaseDetail(data);
}

interface CreateOptions {
  title: string;
  version?: string;
  description?: string;
  issues?: string[];
  allDone?: boolean;
  draft?: boolean;
  product?: string;
}

/** The issues a release ships: those named (shortcodes resolved), or every done issue of the product. */
async function shippedIssueIds(api: Api, productId: string, options: CreateOptions): Promise<string[] | undefined> {
  if (options.issues) return issueIds(api, options.issues);
  if (!options.allDone) return undefined;
  const done = await issuesInStatus(api, productId, 'done');
  if (done.length === 0) throw new CliError('no done issues to release: nothing was created (drop --all-done to create a release without issues)');
  return done.map((issue) => issue.id);
}

async function createRelease(api: Api, options: CreateOptions): Promise<HumanOutput> {
  const productId = await requiredProductId(api, options.product);
  const body = {
    product_id: productId,
    title: options.title,
    version: options.version,
    description: options.description,
    issue_ids: await shippedIssueIds(api, productId, options),
    released_at: options.draft ? null : undefined,
  };
  const { data } = await api.call(api.client.POST('/api/v1/releases', { body }));
  const count = `${data.issues.length} issue${data.issues.length === 1 ? '' : 's'}`;
  return () => `Created ${releaseName(data)} (${publication(data)}, id ${data.id}), shipping ${count}.\n\n${releaseIssues(data)}`;
}

/** Publishes a draft now; a release already published is left as it is. */
async function publishRelease(api: Api, id: string): Promise<HumanOutput> {
  const current = (await getRelease(api, id)).data;
  if (current.released_at !== null) return () => `${releaseName(current)} is already ${publication(current)}; nothing changed.`;
  const body = { released_at: new Date().toISOString() };
  const { data } = await api.call(api.client.PATCH('/api/v1/releases/{id}', { params: { path: { id } }, body }));
  return () => `Published ${releaseName(data)}.`;
}

const issueList = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean);

export function defineReleaseCommands(program: Command): void {
  const release = program.command('release').description('releases: ship done issues');
  const list = release.command('list').description('list releases, newest first').addOption(productOption('only releases of this product'));
  addPageOptions(list, 'listReleases').action(withApi(listReleases));

  release.command('show').description('show a release with its issues').argument('<id>', 'release UUID').action(withApi(showRelease));

  release.command('create').description('create a release; the issues it lists become released')
    .requiredOption('--title <title>', 'the release\'s title')
    .option('--version <version>', 'version label, e.g. 2.4.0')
    .option('-d, --description <text>', 'release notes (Markdown)')
    .addOption(new Option('--issues <issues>', 'the issues it ships, comma-separated shortcodes or UUIDs').argParser(issueList))
    .addOption(new Option('--all-done', 'ship every done issue of the product').conflicts('issues'))
    .option('--draft', 'create it unpublished (ldk release publish later)')
    .addOption(productOption('the product'))
    .action(withApi(createRelease));

  release.command('publish').description('publish a draft release now').argument('<id>', 'release UUID').action(withApi(publishRelease));
}
