import { Type } from '@sinclair/typebox';
import { ISSUE_STATUSES, PRIORITIES, SUGGESTION_KINDS, SUGGESTION_STATUSES } from '../../domain/shared/enums.js';
import { CsvFilter, IdFilter, IssueRef, Nullable, PageQuery, Ref, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';
import { FreeText } from './issue.js';

const Similarity = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const EXAMPLE_ISSUE = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8095', shortcode: 'AMA-12', title: 'Checkout button does nothing on Android', status: 'pending',
  priority: 'high',
};

export const IssueBase = Type.Object(
  {
    id: Uuid(),
    shortcode: Type.String({ description: '<PREFIX>-<number>', examples: ['AMA-12'] }),
    title: Type.String(),
    status: StringEnum(ISSUE_STATUSES),
    priority: StringEnum(PRIORITIES),
  },
  { $id: 'IssueBase', additionalProperties: false, description: 'An issue as a suggestion names it, as it is now', examples: [EXAMPLE_ISSUE] },
);

const EXAMPLE_SUGGESTION = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80d1', conversation_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80b1', kind: 'create', status: 'open',
  issue: null, title: 'Export does nothing on Android', description: 'Tapping Export on Android shows nothing and no file is saved.',
  priority: 'normal', score: 0.61, possible_duplicates: [{ issue: EXAMPLE_ISSUE, score: 0.61 }],
  created_at: '2026-11-21T10:25:01.000Z', updated_at: '2026-11-21T10:25:01.000Z',
};

export const Suggestion = Type.Object(
  {
    id: Uuid(),
    conversation_id: Uuid(),
    kind: StringEnum(SUGGESTION_KINDS, { description: '`link`: link the conversation to an open issue that says the same; `create`: create an issue from it' }),
    status: StringEnum(SUGGESTION_STATUSES, { description: '`open` until accepted or dismissed (a re-run dismisses the open ones)' }),
    issue: Nullable(Ref(IssueBase), { description: 'link: the issue to link to; create: the issue accepting made (null until then)' }),
    title: Nullable(Type.String(), { description: 'create: the draft\'s title (at most 120 characters unless edited on accept); link: null' }),
    description: Nullable(Type.String(), { description: 'create: the draft\'s description, the conversation\'s summary when it had one; link: null' }),
    priority: Nullable(StringEnum(PRIORITIES), { description: 'create: the draft\'s priority, the conversation\'s; link: null' }),
    score: Nullable(Similarity('The best open issue\'s similarity to the conversation when triage ran; null when the product had none, or a person chose another issue on accept')),
    possible_duplicates: Type.Array(
      Type.Object({ issue: Ref(IssueBase), score: Similarity('Its similarity to the conversation') }, { additionalProperties: false }),
      { maxItems: 3, description: 'create: up to 3 open issues whose similarity fell in the review band, best first; link: empty' },
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'Suggestion',
    additionalProperties: false,
    description: '[ext] What triage suggests doing with a conversation: link it to an open issue, or create one',
    examples: [EXAMPLE_SUGGESTION],
  },
);

export const SuggestionQueueQuery = Type.Object({
  status: Type.Optional(CsvFilter('Statuses (default open)', SUGGESTION_STATUSES)),
  product_id: Type.Optional(IdFilter('Only suggestions for conversations of this product (UUID)')),
  kind: Type.Optional(CsvFilter('Kinds', SUGGESTION_KINDS)),
  ...PageQuery,
});

export const AcceptSuggestionBody = Type.Object(
  {
    title: Type.Optional(TrimmedString({ minLength: 1, maxLength: 500, description: 'create: the issue\'s title instead of the draft\'s; 1–500 characters after trimming' })),
    description: Type.Optional(FreeText('create: the issue\'s description instead of the draft\'s; null or "" for none')),
    priority: Type.Optional(StringEnum(PRIORITIES, { description: 'create: the issue\'s priority instead of the draft\'s' })),
    issue_id: Type.Optional(IssueRef('link: an issue of the conversation\'s product to link to instead of the suggested one')),
  },
  {
    additionalProperties: false,
    description: 'Optional: edits made before accepting',
    examples: [{ title: 'Export does nothing on Android 14', priority: 'high' }],
  },
);
