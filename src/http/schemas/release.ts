import { Type } from '@sinclair/typebox';
import { ISSUE_STATUSES, PRIORITIES } from '../../domain/shared/enums.js';
import { IdFilter, IssueRef, Nullable, PageQuery, Ref, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';
import { FreeText } from './issue.js';

const Title = TrimmedString({ minLength: 1, maxLength: 500, description: '1–500 characters after trimming' });
const Description = FreeText('Free-form (Markdown); null clears it');
const Version = Nullable(Type.String({ maxLength: 100, description: 'Free-form version label, max 100 characters' }));
const ReleasedAt = Nullable(Type.String({ format: 'date-time' }), {
  description: '[ext] When the release was published; null makes it a draft. Omitted on create: now.',
});

export const ReleaseProduct = Type.Object(
  { id: Uuid(), name: Type.String() },
  {
    $id: 'ReleaseProduct', additionalProperties: false, description: 'The product a release belongs to',
    examples: [{ id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', name: 'Acme Mobile App' }],
  },
);

export const ReleaseIssue = Type.Object(
  { id: Uuid(), title: Type.String(), status: StringEnum(ISSUE_STATUSES), priority: StringEnum(PRIORITIES) },
  {
    $id: 'ReleaseIssue', additionalProperties: false, description: 'An issue shipped in a release',
    examples: [{ id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8095', title: 'Checkout button does nothing on Android', status: 'released', priority: 'high' }],
  },
);

const releaseFields = {
  id: Uuid(),
  workspace_id: Uuid(),
  product_id: Uuid(),
  title: Type.String(),
  description: Nullable(Type.String()),
  version: Nullable(Type.String()),
  released_at: Nullable(Timestamp('null means a draft')),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  product: Ref(ReleaseProduct),
  linked_issues_count: Type.Integer({ description: 'Issues in the release' }),
};

const example = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8097', workspace_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091',
  product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', title: 'November fixes', description: null, version: '2.4.0',
  released_at: '2026-11-21T10:25:00.000Z', created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
  product: { id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', name: 'Acme Mobile App' }, linked_issues_count: 1,
};

export const Release = Type.Object(releaseFields, {
  $id: 'Release',
  additionalProperties: false, description: 'A release', examples: [example],
});

export const ReleaseDetail = Type.Object(
  {
    ...releaseFields,
    issues: Type.Array(Ref(ReleaseIssue)),
  },
  {
    $id: 'ReleaseDetail',
    additionalProperties: false,
    description: 'A release with its issues',
    examples: [{ ...example, issues: [{ id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8095', title: 'Checkout button does nothing on Android', status: 'released', priority: 'high' }] }],
  },
);

export const ReleaseListQuery = Type.Object({
  product_id: Type.Optional(IdFilter('Only releases of this product (UUID)')),
  ...PageQuery,
});

export const CreateReleaseBody = Type.Object(
  {
    product_id: Uuid('The release\'s product; must be a product of this workspace'),
    title: Title,
    description: Type.Optional(Description),
    version: Type.Optional(Version),
    issue_ids: Type.Optional(
      Type.Array(IssueRef('An issue of the product'), {
        maxItems: 1000, description: 'Issues of the product to include, by UUID or shortcode; they become released. Duplicates are ignored.',
      }),
    ),
    released_at: Type.Optional(ReleasedAt),
  },
  {
    additionalProperties: false,
    examples: [{ product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', title: 'November fixes', version: '2.4.0', issue_ids: ['0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8095'] }],
  },
);

export const UpdateReleaseBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    version: Type.Optional(Version),
    released_at: Type.Optional(ReleasedAt),
  },
  { additionalProperties: false, examples: [{ released_at: null }] },
);
