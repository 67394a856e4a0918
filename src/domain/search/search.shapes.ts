// What a search answers: a result per issue, conversation or contact, with an excerpt of the
// text that matched and where in it the matches are.
import { MATCH_END, MATCH_START, SEARCH_TYPES, type SearchType } from '../../db/full-text.js';
import type { ContactProfile } from '../contacts/contact.shapes.js';
import type { Conversation } from '../conversations/conversation.shapes.js';
import type { Article } from '../help-center/help-center.shapes.js';
import type { IssueListItem } from '../issues/issue.shapes.js';

export { SEARCH_TYPES };

/** The longest query: a search is a few words, and every word is work for the index. */
export const SEARCH_QUERY_MAX = 200;

/** A match in a snippet: offsets in Unicode code points, `end` excluded. */
export interface Highlight {
  start: number;
  end: number;
}

export interface SearchResult {
  type: SearchType;
  id: string;
  title: string;
  snippet: string;
  highlights: Highlight[];
  issue?: IssueListItem;
  conversation?: Conversation;
  contact?: ContactProfile;
  article?: Article;
}

/** A snippet whose matches the database marked, as plain text and the matches' offsets. */
export function highlighted(marked: string): { snippet: string; highlights: Highlight[] } {
  const highlights: Highlight[] = [];
  let snippet = '';
  let length = 0;
  let start: number | null = null;
  for (const character of marked) {
    if (character === MATCH_START) start = length;
    else if (character === MATCH_END) {
      if (start !== null && length > start) highlights.push({ start, end: length });
      start = null;
    } else {
      snippet += character;
      length++;
    }
  }
  return { snippet, highlights };
}
