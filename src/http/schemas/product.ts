import { Type } from '@sinclair/typebox';
import { TRIAGE_MODES } from '../../domain/shared/enums.js';
import { WIDGET_CONFIG_MAX_BYTES, WIDGET_CONFIG_MAX_DEPTH } from '../../domain/products/product.service.js';
import { PREFIX_PATTERN, SLUG_MAX, SLUG_PATTERN } from '../../domain/products/product-naming.js';
import { Nullable, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';
import { ASSIGNMENT_MEMBERS_MAX, ASSIGNMENT_MODES, CAPACITY_MAX } from '../../domain/assignment/assignment-settings.js';

const Assignment = Type.Object(
  {
    mode: StringEnum(ASSIGNMENT_MODES, {
      description: '`off`: new conversations stay unassigned; `round_robin`: to the next online member of the list in turn; ' +
        '`balanced`: to the online member with the fewest open (open or in_progress) conversations of the product',
    }),
    capacity: Nullable(Type.Integer({ minimum: 1, maximum: CAPACITY_MAX }), {
      description: 'Open conversations of the product a member may hold; one at capacity is passed over. null: no limit',
    }),
    member_ids: Type.Array(Uuid('A member of this workspace'), {
      maxItems: ASSIGNMENT_MEMBERS_MAX, description: 'The members it assigns to, in turn order, each once; []: every member',
    }),
  },
  {
    additionalProperties: false,
    description: '[ext] Fair assignment of the product\'s new conversations (settings role; replaced as a whole). With nobody free a ' +
      'conversation waits unassigned and is assigned, oldest first, when a member comes online or a place comes free',
    examples: [{ mode: 'round_robin', capacity: 10, member_ids: [] }],
  },
);

const Name = TrimmedString({ minLength: 1, maxLength: 200, description: 'Product name, 1–200 characters after trimming' });
const Slug = Type.String({
  pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX,
  description: 'Lowercase letters and digits in words joined by single hyphens, max 64; unique in the workspace',
});
const IssuePrefix = Type.String({
  pattern: PREFIX_PATTERN.source,
  description: '1–3 uppercase letters/digits, unique in the workspace; the first part of issue shortcodes',
});
const WidgetConfig = Nullable(Type.Object({}, { additionalProperties: true }), {
  description: `Any JSON object (at most ${WIDGET_CONFIG_MAX_BYTES} bytes serialized, nested at most ${WIDGET_CONFIG_MAX_DEPTH} levels) or null; replaced as a whole`,
});
const Domain = Nullable(Type.String({ maxLength: 253 }));
const Triage = StringEnum(TRIAGE_MODES, {
  description:
    '[ext] What triage does with a conversation when its first contact message arrives: `off` nothing, `suggest` (the ' +
    'default) suggests linking it to an open issue or creating one, `auto` also accepts that suggestion at once',
});

const HelpSlug = Type.String({
  pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX,
  description: '[ext] The public help center\'s path segment, with the slug rules; unique across the installation; ' +
    'derived from the slug when not given. Settings role only',
});
const HelpCenter = Type.Boolean({ description: '[ext] Whether the public help center is on (default true). Settings role only' });

export const Product = Type.Object(
  {
    id: Uuid(),
    workspace_id: Uuid(),
    name: Type.String(),
    slug: Type.String(),
    issue_prefix: Type.String(),
    widget_key: Type.String({ description: '`wk_` + 24 base62 characters; used in the embed snippet', examples: ['wk_3fG7hJ2kL9mN4pQ8rS1tU6vW'] }),
    product_key: Type.String({ description: '`pk_` + 24 base62 characters', examples: ['pk_8aB2cD4eF6gH1iJ3kL5mN7oP'] }),
    widget_config: WidgetConfig,
    domain: Domain,
    embed_snippet: Type.String({
      // Described in words: Markdown renderers (and Redocly's no-unsafe-markdown rule) refuse script tags in descriptions.
      description: '[ext] The HTML that embeds the widget in a page: a script element loading {base}/widget.js, asynchronously, with ' +
        'data-widget-key set to the widget key; base is LOOPDESK_PUBLIC_URL, else the origin the request reached (see the example)',
    }),
    triage: Triage,
    inbound_email: Nullable(Type.String({
      description: '[ext] Mail to this address becomes conversations of the product (docs/email.md); generated and read-only: ' +
        'sent in a POST or PATCH it is a validation_error. null while the server has no inbound domain (LOOPDESK_INBOUND_DOMAIN)',
    })),
    help_slug: Type.String({ description: '[ext] The public help center\'s address: /help/{help_slug}; unique across the installation (docs/help-center.md)' }),
    help_center: Type.Boolean({ description: '[ext] Whether the public help center is on (off: its pages answer 404)' }),
    assignment: Assignment,
    created_at: Timestamp(),
    updated_at: Timestamp('[ext] when the product last changed'),
  },
  {
    $id: 'Product',
    additionalProperties: false,
    description: 'A product of the workspace',
    examples: [{
      id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', workspace_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', name: 'Acme Mobile App',
      slug: 'acme-mobile-app', issue_prefix: 'AMA', widget_key: 'wk_3fG7hJ2kL9mN4pQ8rS1tU6vW', product_key: 'pk_8aB2cD4eF6gH1iJ3kL5mN7oP',
      widget_config: null, domain: null,
      embed_snippet: '<script src="https://support.example.com/widget.js" data-widget-key="wk_3fG7hJ2kL9mN4pQ8rS1tU6vW" async></script>',
      triage: 'suggest', inbound_email: 'acme-mobile-app-k3x9q2@support.example.com', help_slug: 'acme-mobile-app', help_center: true,
      assignment: { mode: 'off', capacity: null, member_ids: [] },
      created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
    }],
  },
);

export const CreateProductBody = Type.Object(
  {
    name: Name,
    slug: Type.Optional(Slug),
    issue_prefix: Type.Optional(IssuePrefix),
    widget_config: Type.Optional(WidgetConfig),
    domain: Type.Optional(Domain),
    triage: Type.Optional(Triage),
    help_slug: Type.Optional(HelpSlug),
    help_center: Type.Optional(HelpCenter),
  },
  { additionalProperties: false, examples: [{ name: 'Acme Mobile App' }] },
);

export const UpdateProductBody = Type.Object(
  {
    name: Type.Optional(Name),
    slug: Type.Optional(Slug),
    issue_prefix: Type.Optional(IssuePrefix),
    widget_config: Type.Optional(WidgetConfig),
    domain: Type.Optional(Domain),
    triage: Type.Optional(Triage),
    help_slug: Type.Optional(HelpSlug),
    help_center: Type.Optional(HelpCenter),
    assignment: Type.Optional(Assignment),
  },
  { additionalProperties: false, examples: [{ issue_prefix: 'APP', widget_config: { color: '#3366ff' } }] },
);

export const IdentitySecret = Type.Object(
  { identity_secret: Type.String({ pattern: '^ids_[0-9A-Za-z]{40}$', description: 'Shown only here; keep it on the host site\'s server' }) },
  { $id: 'IdentitySecret', additionalProperties: false, description: 'A product\'s identity secret', examples: [{ identity_secret: 'ids_7Gx2mP9qR4sT6uV8wX1yZ3aB5cD7eF9gH2jK4lM6' }] },
);
