// Search across the workspace's issues, conversations (their messages and notes included),
// contacts and help center articles (docs/search.md): the words of `q` must all match, the last one also as a prefix; an
// exact shortcode puts its issue first. The index and its ranking are the database's
// (src/db/full-text.ts); this service pages the results and reads their records.
import { MATCH_END, MATCH_START, type FullTextHit, type SearchType } from '../../db/full-text.js';
import type { ContactRepository } from '../../db/repositories/contact.repository.js';
import type { ConversationRepository } from '../../db/repositories/conversation.repository.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import type { ArticleRepository } from '../../db/repositories/help-center/article.repository.js';
import type { IssueRepository, IssueRow } from '../../db/repositories/issue.repository.js';
import type { SearchRepository } from '../../db/repositories/search.repository.js';
import type { Actor } from '../accounts/actor.js';
import { toContactProfile } from '../contacts/contact.shapes.js';
import { toConversation } from '../conversations/conversation.shapes.js';
import { toArticle } from '../help-center/help-center.shapes.js';
import { SHORTCODE } from '../issues/issue-refs.js';
import { toIssueListItem } from '../issues/issue.shapes.js';
import { highlighted, SEARCH_TYPES, type SearchResult } from './search.shapes.js';

export interface SearchInput {
  q: string;
  types?: readonly SearchType[];
  productId?: string;
}

/** The words the indexes see: runs of letters and digits (with their combining marks); the rest separates them. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
export const wordsOf = (q: string): string[] => q.normalize('NFC').match(WORD) ?? [];

export interface SearchServiceDeps {
  search: SearchRepository;
  issues: Pick<IssueRepository, 'findByShortcode' | 'findListRows'>;
  conversations: Pick<ConversationRepository, 'findManyWithContact'>;
  contacts: Pick<ContactRepository, 'findProfiles'>;
  articles: Pick<ArticleRepository, 'findMatching'>;
}

export function createSearchService({ search, issues, conversations, contacts, articles }: SearchServiceDeps) {
  /** The issue `q` names by its exact shortcode, when issues are searched and it passes the filters. */
  async function issueNamedBy(actor: Actor, input: SearchInput, types: readonly SearchType[]): Promise<IssueRow | undefined> {
    const q = input.q.trim();
    if (!types.includes('issue') || !SHORTCODE.test(q)) return undefined;
    const issue = await issues.findByShortcode(actor.workspaceId, q.toUpperCase());
    return issue && (input.productId === undefined || issue.product_id === input.productId) ? issue : undefined;
  }

  /** The records of the hits, in the hits' order (a record deleted meanwhile drops out). */
  async function resultsOf(actor: Actor, hits: FullTextHit[]): Promise<SearchResult[]> {
    const idsOf = (type: SearchType) => hits.filter((hit) => hit.type === type).map((hit) => hit.id);
    // Each type's records by id, in one statement each: the hits give the order.
    const [issueRows, conversationRows, contactRows, articleRows] = await Promise.all([
      issues.findListRows(actor.workspaceId, idsOf('issue')),
      conversations.findManyWithContact(actor.workspaceId, idsOf('conversation')),
      contacts.findProfiles(actor.workspaceId, idsOf('contact')),
      articles.findMatching(actor.workspaceId, idsOf('article'), {}),
    ]);
    const issueById = new Map(issueRows.map((row) => [row.id, toIssueListItem(row)]));
    const conversationById = new Map(conversationRows.map((row) => [row.id, toConversation(row)]));
    const contactById = new Map(contactRows.map((row) => [row.id, toContactProfile(row)]));
    const articleById = new Map(articleRows.map((row) => [row.id, toArticle(row)]));
    return hits.flatMap((hit): SearchResult[] => {
      const { snippet, highlights } = highlighted(hit.snippet);
      const base = { type: hit.type, id: hit.id, snippet, highlights };
      if (hit.type === 'issue') {
        const issue = issueById.get(hit.id);
        return issue ? [{ ...base, title: issue.title, issue }] : [];
      }
      if (hit.type === 'conversation') {
        const conversation = conversationById.get(hit.id);
        return conversation ? [{ ...base, title: conversation.title, conversation }] : [];
      }
      if (hit.type === 'article') {
        const article = articleById.get(hit.id);
        return article ? [{ ...base, title: article.title, article }] : [];
      }
      const contact = contactById.get(hit.id);
      return contact ? [{ ...base, title: contact.name ?? contact.email ?? '', contact }] : [];
    });
  }

  return {
    /** Best first; `total` counts every result. */
    async search(actor: Actor, input: SearchInput, page: Page): Promise<PageOf<SearchResult>> {
      const types = input.types ?? SEARCH_TYPES;
      const words = wordsOf(input.q);
      const named = await issueNamedBy(actor, input, types);
      const first: FullTextHit[] = named ? [{ type: 'issue', id: named.id, snippet: `${MATCH_START}${named.shortcode}${MATCH_END} ${named.title}` }] : [];
      // The named issue is result 0; the index's results follow it.
      const skipped = Math.max(0, page.offset - first.length);
      const wanted = page.limit - Math.max(0, first.length - page.offset);
      const found = words.length === 0
        ? { hits: [], total: 0 }
        : await search.search({
          workspaceId: actor.workspaceId, words, types, productId: input.productId, excludeIssueId: named?.id,
          // At least one row, so that the count comes back even when the named issue fills the page.
          limit: Math.max(1, wanted), offset: skipped,
        });
      const hits = [...first.slice(page.offset), ...found.hits.slice(0, wanted)].slice(0, page.limit);
      return { rows: await resultsOf(actor, hits), total: first.length + found.total };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
