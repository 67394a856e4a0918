import { Type } from '@sinclair/typebox';
import { SEARCH_QUERY_MAX, SEARCH_TYPES } from '../../domain/search/search.shapes.js';
import { CsvFilter, IdFilter, NOT_BLANK, Nullable, PageQuery, Ref, StringEnum, Timestamp, Uuid } from './common.js';
import { ContactProfile } from './contact.js';
import { Conversation } from './conversation.js';
import { Article } from './help-center.js';
import { IssueListItem } from './issue.js';

export { SEARCH_QUERY_MAX };

export const SearchResult = Type.Object(
  {
    type: StringEnum(SEARCH_TYPES, { description: 'Which record this is; the record itself is under the key of that name' }),
    id: Uuid('The record\'s id'),
    title: Type.String({ description: 'The issue\'s, conversation\'s or article\'s title, the contact\'s name (or email)' }),
    snippet: Type.String({
      description: 'Plain text: an excerpt of the text that matched best (a title, description, message, note, name or email); ' +
        'render it as text, never as HTML',
    }),
    highlights: Type.Array(
      Type.Object(
        { start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false },
      ),
      { description: 'The matches in `snippet`, in order: offsets in Unicode code points, `end` excluded' },
    ),
    issue: Type.Optional(Ref(IssueListItem)),
    conversation: Type.Optional(Ref(Conversation)),
    contact: Type.Optional(Ref(ContactProfile)),
    article: Type.Optional(Ref(Article)),
  },
  {
    $id: 'SearchResult', additionalProperties: false, description: '[ext] An issue, conversation or contact that matches a search',
    examples: [{
      type: 'conversation', id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1', title: 'Export does nothing',
      snippet: 'The export button does nothing on Android.', highlights: [{ start: 4, end: 10 }],
    }],
  },
);

export const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 1, maxLength: SEARCH_QUERY_MAX, pattern: NOT_BLANK,
    description: `The words to find (at most ${SEARCH_QUERY_MAX} characters, not blank): all of them, case and accents ignored, ` +
      'the last also as the start of a word; an exact shortcode (APP-12) puts its issue first',
  }),
  types: Type.Optional(CsvFilter('Only these kinds of records', SEARCH_TYPES)),
  product_id: Type.Optional(IdFilter('Only issues and conversations of this product, and contacts with a conversation in it (UUID)')),
  ...PageQuery,
});
