import { Type } from '@sinclair/typebox';
import { ISSUE_STATUSES, PRIORITIES } from '../../domain/shared/enums.js';
import { CsvFilter, CsvIdFilter, IdFilter, Nullable, PageQuery, Ref, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';
import { ConversationSummary } from './conversation.js';
import { TagFilter, TagNames, TagsInput } from './tag.js';

const Title = TrimmedString({ minLength: 1, maxLength: 500, description: 'Non-empty after trimming, max 500 characters' });
/** Free-form texts have no length limit of their own: only the 1 MiB body limit bounds them (docs/api.md). */
export const FreeText = (description: string) => Nullable(Type.String(), { description });
const Description = FreeText('Free-form; null or "" clears it');
const Status = StringEnum(ISSUE_STATUSES);
const Priority = StringEnum(PRIORITIES);
const AssigneeRef = Type.Union([Uuid(), Type.Literal('me'), Type.Null()], {
  description: 'A member id, the literal `me` ([ext] on create) for the key\'s member, or null',
});

const issueFields = {
  id: Uuid(),
  product_id: Uuid(),
  shortcode: Type.String({ description: '<PREFIX>-<number>; unique in the workspace forever; immutable', examples: ['APP-12'] }),
  title: Type.String(),
  description: Nullable(Type.String()),
  status: Status,
  priority: Priority,
  assignee_id: Nullable(Uuid('Member id of the assignee')),
  resolution_comment: Nullable(Type.String()),
  is_ai_generated: Type.Boolean({ description: 'true for an issue made by accepting a triage suggestion ([ext] its draft came from the conversation); false for issues created through the API' }),
  tags: TagNames(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  sources_count: Type.Integer({ description: '[ext] How many deduplicating creates (POST /issues/maybe) and accepted triage suggestions reported this issue' }),
};

const example = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8095', product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', shortcode: 'AMA-12',
  title: 'Checkout button does nothing on Android', description: 'Reported by three customers this week.',
  status: 'pending', priority: 'high', assignee_id: null, resolution_comment: null, is_ai_generated: false,
  tags: ['billing'], created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z', sources_count: 0,
};

export const IssueListItem = Type.Object(
  { ...issueFields, linked_conversations_count: Type.Integer({ description: 'Conversations linked to the issue' }) },
  { $id: 'IssueListItem', additionalProperties: false, description: 'An issue as listed', examples: [{ ...example, linked_conversations_count: 2 }] },
);

export const Issue = Type.Object(
  { ...issueFields, linked_conversations: Type.Array(Ref(ConversationSummary)) },
  { $id: 'Issue', additionalProperties: false, description: 'An issue with its linked conversations', examples: [{ ...example, linked_conversations: [] }] },
);

export const IssueListQuery = Type.Object({
  product_id: Type.Optional(IdFilter('Only issues of this product (UUID)')),
  status: Type.Optional(CsvFilter('Statuses', ISSUE_STATUSES)),
  priority: Type.Optional(CsvFilter('Priorities', PRIORITIES)),
  assignee_id: Type.Optional(CsvIdFilter('Comma-separated member ids, `none` for unassigned, [ext] `me` for the key\'s member', ['none', 'me'])),
  tag: Type.Optional(TagFilter()),
  ...PageQuery,
});

export const CreateIssueBody = Type.Object(
  {
    product_id: Uuid('The issue\'s product; must be a product of this workspace'),
    title: Title,
    description: Type.Optional(Description),
    status: Type.Optional(Status),
    priority: Type.Optional(Priority),
    assignee_id: Type.Optional(AssigneeRef),
  },
  {
    additionalProperties: false,
    examples: [{ product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', title: 'Checkout button does nothing on Android', priority: 'high' }],
  },
);

export const UpdateIssueBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    status: Type.Optional(Status),
    priority: Type.Optional(Priority),
    assignee_id: Type.Optional(AssigneeRef),
    resolution_comment: Type.Optional(FreeText('How the issue was fixed; null or "" clears it')),
    tags: Type.Optional(TagsInput()),
  },
  { additionalProperties: false, examples: [{ status: 'done', resolution_comment: 'Fixed in the payment SDK update' }] },
);

const MAYBE_STATUSES = ISSUE_STATUSES.filter((status) => status !== 'released');

export const MaybeIssueBody = Type.Object(
  {
    product_id: CreateIssueBody.properties.product_id,
    title: Title,
    description: Type.Optional(FreeText('Free-form; improves match quality')),
    status: Type.Optional(StringEnum(MAYBE_STATUSES, { description: 'Used only when an issue is created' })),
    priority: Type.Optional(StringEnum(PRIORITIES, { description: 'Used only when an issue is created' })),
    assignee_id: Type.Optional(Type.Union([Uuid(), Type.Literal('me'), Type.Null()], {
      description: 'A member id or [ext] `me`; used only when an issue is created',
    })),
    conversation_id: Type.Optional(Uuid('[ext] A conversation of the product, linked to the returned issue (created or matched)')),
  },
  {
    additionalProperties: false,
    examples: [{
      product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', title: 'El botón de pago no hace nada en Android',
      description: 'Al pulsar Pagar no pasa nada.',
    }],
  },
);

const Similarity = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const PossibleDuplicate = Type.Object(
  {
    id: Uuid(),
    shortcode: issueFields.shortcode,
    title: Type.String(),
    score: Similarity('Its similarity to the report'),
  },
  { additionalProperties: false, description: 'An open issue of the product that came close to the report' },
);

export const DeduplicatingCreateResult = Type.Object(
  {
    data: Ref(Issue),
    matched_existing: Type.Boolean({ description: 'true when an existing open issue was returned' }),
    api_source_id: Uuid('The provenance record of this call'),
    score: Nullable(Similarity('[ext] The best candidate\'s similarity (0..1), matched or not; null when the product has no open issue')),
    detector: Type.String({
      description: '[ext] The matcher that decided (as recorded with the call), e.g. `lexical` or `openai:multilingual-e5-small-q4`',
    }),
    possible_duplicates: Type.Array(PossibleDuplicate, {
      maxItems: 3,
      description:
        '[ext] When an issue was created: up to 3 open issues whose similarity fell in the review band, just below the ' +
        'matching threshold, best first; empty on a match or when nothing came close',
    }),
  },
  {
    $id: 'DeduplicatingCreateResult',
    additionalProperties: false,
    description: 'The issue a deduplicating create returned, whether it already existed, and [ext] why',
    examples: [{
      data: { ...example, linked_conversations: [], sources_count: 1 }, matched_existing: true, api_source_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8098',
      score: 0.982, detector: 'local:Xenova/multilingual-e5-small', possible_duplicates: [],
    }],
  },
);

export const LinkConversationBody = Type.Object(
  { conversation_id: Uuid('A conversation of the issue\'s product') },
  { additionalProperties: false, examples: [{ conversation_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8096' }] },
);
