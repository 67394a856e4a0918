import { Type } from '@sinclair/typebox';
import {
  ARTICLE_BODY_MAX, ARTICLE_STATUSES, ARTICLE_TITLE_MAX, COLLECTION_DESCRIPTION_MAX, COLLECTION_NAME_MAX,
} from '../../domain/help-center/help-center.shapes.js';
import { LOCALE_MAX, LOCALE_PATTERN } from '../../domain/help-center/locales.js';
import { SLUG_MAX, SLUG_PATTERN } from '../../domain/products/product-naming.js';
import { CsvFilter, IdFilter, NOT_BLANK, Nullable, PageQuery, Ref, StringEnum, Timestamp, TrimmedString, Uuid } from './common.js';
import { SEARCH_QUERY_MAX } from '../../domain/search/search.shapes.js';
import { TagNames, TagsInput } from './tag.js';

const Slug = (unique: string) => Type.String({
  pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX,
  description: `Lowercase letters and digits in words joined by single hyphens, max ${SLUG_MAX}; unique ${unique}. Made from the name when not given; ` +
    'kept when the name changes',
});

const COLLECTION_EXAMPLE = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80e1', product_id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8094', name: 'Billing', slug: 'billing',
  description: 'Invoices, payment methods and refunds', position: 0, created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z',
};

export const Collection = Type.Object(
  {
    id: Uuid(),
    product_id: Uuid(),
    name: Type.String(),
    slug: Type.String(),
    description: Nullable(Type.String()),
    position: Type.Integer({ description: 'Collections are listed by position, then creation' }),
    created_at: Timestamp(),
    updated_at: Timestamp('Changes on every effective change'),
  },
  { $id: 'Collection', additionalProperties: false, description: '[ext] A collection (section) of a product\'s help center', examples: [COLLECTION_EXAMPLE] },
);

const CollectionName = TrimmedString({ minLength: 1, maxLength: COLLECTION_NAME_MAX, description: `1–${COLLECTION_NAME_MAX} characters after trimming` });
const CollectionDescription = Nullable(Type.String({ maxLength: COLLECTION_DESCRIPTION_MAX }), { description: `At most ${COLLECTION_DESCRIPTION_MAX} characters; null: none` });
const Position = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Order among the product\'s collections (0–1,000,000); after the last when not given' });

export const CreateCollectionBody = Type.Object(
  {
    product_id: Uuid('The collection\'s product; must be a product of this workspace'),
    name: CollectionName,
    slug: Type.Optional(Slug('among the product\'s collections')),
    description: Type.Optional(CollectionDescription),
    position: Type.Optional(Position),
  },
  { additionalProperties: false, examples: [{ product_id: COLLECTION_EXAMPLE.product_id, name: 'Billing' }] },
);

export const UpdateCollectionBody = Type.Object(
  {
    name: Type.Optional(CollectionName),
    slug: Type.Optional(Slug('among the product\'s collections')),
    description: Type.Optional(CollectionDescription),
    position: Type.Optional(Position),
  },
  { additionalProperties: false, examples: [{ position: 2 }] },
);

export const CollectionListQuery = Type.Object({
  product_id: Type.Optional(IdFilter('Only collections of this product (UUID)')),
  ...PageQuery,
});

const ARTICLE_EXAMPLE = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80e2', product_id: COLLECTION_EXAMPLE.product_id, collection_id: COLLECTION_EXAMPLE.id,
  title: 'How do I reset my password?', slug: 'how-do-i-reset-my-password',
  body: 'Open **Settings → Account** and choose *Reset password*. We email you a link that works for one hour.',
  excerpt: 'Open Settings → Account and choose Reset password. We email you a link that works for one hour.',
  locale: 'en', translation_of: null, status: 'published', tags: ['account'], views: 0, helpful: 0, not_helpful: 0,
  created_at: '2026-11-21T10:25:00.000Z', updated_at: '2026-11-21T10:25:00.000Z', published_at: '2026-11-21T10:25:00.000Z',
};

export const Article = Type.Object(
  {
    id: Uuid(),
    product_id: Uuid(),
    collection_id: Nullable(Uuid(), { description: 'Its collection; null: none' }),
    title: Type.String(),
    slug: Type.String({ description: 'Unique among the product\'s articles in its locale' }),
    body: Type.String({ description: 'Markdown, as written (raw HTML is shown as text on the public pages)' }),
    excerpt: Type.String({ description: 'The first 200 characters of its text (the Markdown without its marks)' }),
    locale: Type.String({ description: 'A BCP 47 language tag, in canonical form' }),
    translation_of: Nullable(Uuid(), { description: 'The original this article translates; null: an original' }),
    status: StringEnum(ARTICLE_STATUSES, { description: 'Only published articles are public' }),
    tags: TagNames(),
    views: Type.Integer({ minimum: 0, description: 'Views counted on its public page and in the widget' }),
    helpful: Type.Integer({ minimum: 0, description: '"Was this helpful?" answered yes' }),
    not_helpful: Type.Integer({ minimum: 0, description: '"Was this helpful?" answered no' }),
    created_at: Timestamp(),
    updated_at: Timestamp('Changes on every effective change'),
    published_at: Nullable(Timestamp('When it was last published; null while a draft')),
  },
  { $id: 'Article', additionalProperties: false, description: '[ext] A help center article', examples: [ARTICLE_EXAMPLE] },
);

const Title = TrimmedString({ minLength: 1, maxLength: ARTICLE_TITLE_MAX, description: `1–${ARTICLE_TITLE_MAX} characters after trimming` });
const Body = Type.String({ maxLength: ARTICLE_BODY_MAX, description: `Markdown, at most ${ARTICLE_BODY_MAX.toLocaleString('en')} characters; stored as sent; not blank once published` });
const Locale = Type.String({
  maxLength: LOCALE_MAX, pattern: LOCALE_PATTERN.source, 'x-route-parsed': true,
  description: 'A BCP 47 language tag (en, de, pt-BR, zh-Hant); stored in canonical form. Default en',
});
const TranslationOf = Nullable(Uuid(), {
  description: 'The original this article translates: another article of the product, no translation itself; every article of a ' +
    'translation group has its own locale. null: an original',
});
const CollectionRef = Nullable(Uuid(), { description: 'A collection of the article\'s product; null: none' });
const Status = StringEnum(ARTICLE_STATUSES, { description: 'draft (the default) or published' });

export const CreateArticleBody = Type.Object(
  {
    product_id: Uuid('The article\'s product; must be a product of this workspace'),
    collection_id: Type.Optional(CollectionRef),
    title: Title,
    slug: Type.Optional(Slug('among the product\'s articles in the locale')),
    body: Body,
    locale: Type.Optional(Locale),
    translation_of: Type.Optional(TranslationOf),
    status: Type.Optional(Status),
    tags: Type.Optional(TagsInput()),
  },
  {
    additionalProperties: false,
    examples: [{ product_id: ARTICLE_EXAMPLE.product_id, title: ARTICLE_EXAMPLE.title, body: ARTICLE_EXAMPLE.body, status: 'published' }],
  },
);

export const UpdateArticleBody = Type.Object(
  {
    collection_id: Type.Optional(CollectionRef),
    title: Type.Optional(Title),
    slug: Type.Optional(Slug('among the product\'s articles in the locale')),
    body: Type.Optional(Body),
    locale: Type.Optional(Locale),
    translation_of: Type.Optional(TranslationOf),
    status: Type.Optional(Status),
    tags: Type.Optional(TagsInput()),
  },
  { additionalProperties: false, examples: [{ status: 'published' }] },
);

export const ArticleListQuery = Type.Object({
  product_id: Type.Optional(IdFilter('Only articles of this product (UUID)')),
  collection_id: Type.Optional(IdFilter('Only articles of this collection (UUID)')),
  status: Type.Optional(CsvFilter('Only articles of these statuses', ARTICLE_STATUSES)),
  locale: Type.Optional(Type.String({ maxLength: LOCALE_MAX, pattern: LOCALE_PATTERN.source, 'x-route-parsed': true, description: 'Only articles in this locale (a BCP 47 tag)' })),
  q: Type.Optional(Type.String({
    minLength: 1, maxLength: SEARCH_QUERY_MAX, pattern: NOT_BLANK,
    description: 'Words to find in the title and text, as GET /search finds them; best match first instead of newest first',
  })),
  ...PageQuery,
});

export const ArticlePreviewBody = Type.Object(
  { body: Body },
  { additionalProperties: false, examples: [{ body: '## Steps\n\nOpen **Settings**, then [Security](https://example.com/security).' }] },
);

export const ArticlePreview = Type.Object(
  {
    html: Type.String({ description: 'The body as the public page and the widget render it: no raw HTML, script, event attribute or javascript: link' }),
    excerpt: Type.String({ description: 'The excerpt the article would have: the first 200 characters of its text' }),
  },
  {
    $id: 'ArticlePreview', additionalProperties: false, description: '[ext] A Markdown body rendered as a published article shows it',
    examples: [{ html: '<h2>Steps</h2>\n<p>Open <strong>Settings</strong>, then <a href="https://example.com/security" rel="nofollow noopener">Security</a>.</p>\n', excerpt: 'Steps\nOpen Settings, then Security.' }],
  },
);

// Answers and suggested articles (docs/help-center.md, "Answers").
export const ANSWER_QUESTION_MAX = 500;

const FOUND_ARTICLE_EXAMPLE = {
  article: {
    id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f80e2', title: 'Reset your password', slug: 'reset-your-password',
    excerpt: 'Open Settings, then Security, and choose Reset password. We send a link to your address.',
    url: 'https://support.example.com/help/acme/articles/reset-your-password?locale=en',
  },
  passage: 'Open Settings, then Security, and choose Reset password. We send a link to your address; it works for an hour.',
  score: 0.9123,
};

export const FoundArticle = Type.Object(
  {
    article: Type.Object({
      id: Uuid(), title: Type.String(), slug: Type.String(), excerpt: Type.String({ description: 'The first 200 characters of its text' }),
      url: Type.String({ description: 'Its public page' }),
    }, { additionalProperties: false }),
    passage: Type.String({ maxLength: 400, description: 'The best-matching passage of its text (at most 400 characters)' }),
    score: Type.Number({ description: 'How well the passage matches: a cosine with a model, the share of the question\'s words without; at or above the calibrated threshold' }),
  },
  { $id: 'FoundArticle', additionalProperties: false, description: '[ext] A published article that answers the question, with its best passage', examples: [FOUND_ARTICLE_EXAMPLE] },
);

export const FoundArticles = Type.Array(Ref(FoundArticle), { maxItems: 5, description: 'Best first, at most 5, one per translation group; empty when nothing clears the threshold' });

export const AnswersQuery = Type.Object({
  q: TrimmedString({ minLength: 1, maxLength: ANSWER_QUESTION_MAX, description: `The visitor's question, 1–${ANSWER_QUESTION_MAX} characters, not blank` }),
}, { additionalProperties: false });

export const Answers = Type.Object(
  {
    data: FoundArticles,
    answer: Nullable(Type.Object({
      text: Type.String({ maxLength: 1000, description: 'Written by the chat model from the passages in `data` only' }),
      citations: Type.Array(Uuid(), { minItems: 1, description: 'The articles (of `data`) the answer is drawn from' }),
    }, { additionalProperties: false }), { description: 'Null without a chat model, without passages, or when the model gave no grounded answer' }),
  },
  {
    additionalProperties: false,
    examples: [{ data: [FOUND_ARTICLE_EXAMPLE], answer: { text: 'Open Settings → Security → Reset password; the emailed link works for an hour.', citations: [FOUND_ARTICLE_EXAMPLE.article.id] } }],
  },
);

export const SuggestedArticles = Type.Object({ data: FoundArticles }, { additionalProperties: false, examples: [{ data: [FOUND_ARTICLE_EXAMPLE] }] });
