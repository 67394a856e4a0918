// ldk search WORDS: issues, conversations, contacts and help center articles of the whole workspace
// that match, one line each, grouped by type (in that order; best first within a group).
import { type Command, Option } from 'commander';
import { type HumanOutput, withApi } from '../action.js';
import type { Api, Schemas } from '../api.js';
import { SEARCH_TYPES } from '../document.js';
import { addPageOptions, ListOption, type PageOptions } from '../options.js';
import { type Column, highlight, pageSummary, table } from '../output.js';
import { contactName, conversationStatusStyle, issueStatusStyle } from '../render.js';
import { productIdOf } from '../resolve.js';

type Result = Schemas['SearchResult'];

/** The snippet, its matches marked. The column that gives way on a narrow terminal: the title says what the record is. */
const MATCH: Column<Result> = { header: 'MATCH', value: (result) => highlight(result.snippet, result.highlights), shrinks: true };

const GROUPS: Record<Result['type'], Column<Result>[]> = {
  issue: [
    { header: 'ISSUE', value: (result) => result.issue?.shortcode ?? result.id, style: () => 'bold' },
    { header: 'STATUS', value: (result) => result.issue?.status ?? '', style: (result) => result.issue && issueStatusStyle(result.issue.status) },
    { header: 'TITLE', value: (result) => result.title },
    MATCH,
  ],
  conversation: [
    { header: 'CONVERSATION', value: (result) => result.id },
    { header: 'STATUS', value: (result) => result.conversation?.status ?? '', style: (result) => result.conversation && conversationStatusStyle(result.conversation.status) },
    { header: 'TITLE', value: (result) => result.title },
    MATCH,
  ],
  contact: [
    { header: 'CONTACT', value: (result) => result.id },
    { header: 'NAME', value: (result) => contactName(result.contact ?? null) },
    MATCH,
  ],
  article: [
    { header: 'ARTICLE', value: (result) => result.article?.slug ?? result.id },
    { header: 'STATUS', value: (result) => result.article?.status ?? '' },
    { header: 'TITLE', value: (result) => result.title },
    MATCH,
  ],
};

interface SearchOptions extends PageOptions {
  type?: string;
  product?: string;
}

async function search(api: Api, words: string[], options: SearchOptions): Promise<HumanOutput> {
  const { product, type, limit, offset } = options;
  const query = { q: words.join(' '), types: type, product_id: product === undefined ? undefined : await productIdOf(api, product), limit, offset };
  const page = await api.call(api.client.GET('/api/v1/search', { params: { query } }));
  return () => {
    const groups = SEARCH_TYPES.flatMap((name) => {
      const results = page.data.filter((result) => result.type === name);
      return results.length === 0 ? [] : [table(results, GROUPS[name])];
    });
    return [...groups, pageSummary(page.pagination, page.data.length)].join('\n\n');
  };
}

export function defineSearchCommand(program: Command): void {
  const command = program.command('search').description('find issues, conversations, contacts and articles by words, best match first')
    .argument('<words...>', 'all must match, case and accents ignored; the last also as the start of a word; a shortcode (APP-12) puts its issue first')
    .addOption(new ListOption('--type <types>', 'only these kinds of records', SEARCH_TYPES))
    .addOption(new Option('--product <slug|id>', 'only issues and conversations of this product, and contacts with a conversation in it (default: every product)'))
    .addHelpText('after', `
In MATCH, the matched words are in bold on a terminal with colours, and between [ and ] elsewhere
(into a pipe, or with NO_COLOR).`);
  addPageOptions(command, 'search').action(withApi(search));
}
