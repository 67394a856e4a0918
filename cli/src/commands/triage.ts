// ldk triage list|accept|dismiss: what triage suggests doing with customers' conversations.
import type { Command } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, RequestBody, Schemas } from '../api.js';
import { PRIORITIES, SUGGESTION_KINDS, SUGGESTION_STATUSES } from '../document.js';
import { addPageOptions, choiceOption, ListOption, type PageOptions, productOption } from '../options.js';
import { pageSummary, paint, relativeTime, table } from '../output.js';
import { issueName } from '../render.js';
import { issueIds, scopedProductId } from '../resolve.js';

type Suggestion = Schemas['Suggestion'];

/** What accepting it does: the issue it links to, or the issue it drafts. */
const proposal = (suggestion: Suggestion) =>
  suggestion.kind === 'link' ? `link to ${suggestion.issue?.shortcode ?? '?'} ${suggestion.issue?.title ?? ''}`.trim() : `create "${suggestion.title}"`;

interface ListOptions extends PageOptions {
  status?: string;
  kind?: string;
  product?: string;
  conversation?: string;
}

async function listSuggestions(api: Api, options: ListOptions): Promise<HumanOutput> {
  const { status, kind, limit, offset, conversation } = options;
  const page = conversation === undefined
    ? await api.call(api.client.GET('/api/v1/suggestions', {
      params: { query: { product_id: (await scopedProductId(api, options.product)) ?? undefined, status, kind, limit, offset } },
    }))
    : await api.call(api.client.GET('/api/v1/conversations/{id}/suggestions', { params: { path: { id: conversation }, query: { limit, offset } } }));
  return () => {
    const summary = pageSummary(page.pagination, page.data.length);
    if (page.data.length === 0) return summary;
    const rows = table(page.data, [
      { header: 'SUGGESTION', value: (suggestion) => suggestion.id },
      { header: 'STATUS', value: (suggestion) => suggestion.status, style: (suggestion) => (suggestion.status === 'open' ? 'cyan' : 'dim') },
      { header: 'SCORE', value: (suggestion) => (suggestion.score === null ? '—' : suggestion.score.toFixed(2)) },
      { header: 'CONVERSATION', value: (suggestion) => suggestion.conversation_id },
      { header: 'CREATED', value: (suggestion) => relativeTime(suggestion.created_at), style: () => 'dim' },
      { header: 'SUGGESTS', value: proposal, shrinks: true },
    ]);
    return `${rows}\n${summary}`;
  };
}

interface AcceptOptions {
  title?: string;
  description?: string;
  priority?: Schemas['Suggestion']['priority'] & string;
  issue?: string;
}

async function accept(api: Api, id: string, options: AcceptOptions): Promise<HumanOutput> {
  const body: RequestBody<'acceptSuggestion'> = { title: options.title, description: options.description, priority: options.priority };
  if (options.issue !== undefined) [body.issue_id] = await issueIds(api, [options.issue]);
  const { data } = await api.call(api.client.POST('/api/v1/suggestions/{id}/accept', { params: { path: { id } }, body }));
  const issue = issueName(data.issue!);
  return () => (data.kind === 'link' ? `Linked the conversation to ${issue}.` : `Created ${issue} from the conversation.`);
}

async function dismiss(api: Api, id: string): Promise<HumanOutput> {
  const { data } = await api.call(api.client.POST('/api/v1/suggestions/{id}/dismiss', { params: { path: { id } } }));
  return () => `Dismissed: ${paint('dim', proposal(data))}.`;
}

export function defineTriageCommands(program: Command): void {
  const triage = program.command('triage').description('what triage suggests for conversations: link them to an issue, or create one');
  const list = triage.command('list').description('the triage queue (open suggestions unless --status), oldest first')
    .addOption(new ListOption('--status <statuses>', 'only these statuses', SUGGESTION_STATUSES))
    .addOption(new ListOption('--kind <kinds>', 'only these kinds', SUGGESTION_KINDS))
    .addOption(productOption('only suggestions of this product\'s conversations'))
    .option('--conversation <id>', 'this conversation\'s suggestions instead, every status');
  addPageOptions(list, 'listSuggestions').action(withApi(listSuggestions));

  triage.command('accept').description('accept a suggestion: link the conversation, or create the drafted issue')
    .argument('<id>', 'suggestion UUID')
    .option('--title <title>', 'create: the issue\'s title instead of the draft\'s')
    .option('--description <text>', 'create: the issue\'s description instead of the draft\'s')
    .addOption(choiceOption('--priority <priority>', 'create: the issue\'s priority instead of the draft\'s', PRIORITIES))
    .option('--issue <issue>', 'link: link to this issue instead (shortcode or UUID)')
    .action(withApi(accept));

  triage.command('dismiss').description('dismiss a suggestion; nothing else changes')
    .argument('<id>', 'suggestion UUID')
    .action(withApi(dismiss));
}
