// TypeBox schemas of the help center in the widget API (docs/help-center.md, "In the widget").
import { Type } from '@sinclair/typebox';
import { LOCALE_MAX, LOCALE_PATTERN } from '../../domain/help-center/locales.js';
import { SEARCH_QUERY_MAX } from '../../domain/search/search.shapes.js';
import { Nullable, PageQuery, Timestamp, Uuid } from '../schemas/common.js';

const T = '2026-11-21T10:25:00.000Z';
const EXAMPLE_SUMMARY = {
  id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8101', title: 'Reset your password', slug: 'reset-your-password',
  excerpt: 'Open Settings, then Security, and choose Reset password. We send a link to your email.', locale: 'en',
  url: 'https://support.example.com/help/acme/articles/reset-your-password?locale=en',
};

export const WidgetArticlesQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: SEARCH_QUERY_MAX, description: 'Words to find in titles and texts (best match first); empty or absent: the suggestions, most read first' })),
  locale: Type.Optional(Type.String({
    maxLength: LOCALE_MAX, pattern: LOCALE_PATTERN.source, 'x-route-parsed': true,
    description: 'The visitor\'s language (a BCP 47 tag): each translation group is shown in the locale that fits it best, else its original',
  })),
  ...PageQuery,
});

const summaryFields = {
  id: Uuid(),
  title: Type.String(),
  slug: Type.String(),
  excerpt: Type.String({ description: 'The first 200 characters of its text' }),
  locale: Type.String({ description: 'A BCP 47 language tag' }),
  url: Type.String({ description: 'Its public page (/help/{help slug}/articles/{slug}?locale=…)' }),
};

export const WidgetArticleSummary = Type.Object(summaryFields, {
  $id: 'WidgetArticleSummary', additionalProperties: false, description: 'A published help center article, in a list', examples: [EXAMPLE_SUMMARY],
});

export const WidgetArticle = Type.Object(
  {
    ...summaryFields,
    html: Type.String({ description: 'The body rendered as the public page renders it: no raw HTML, script, event attribute or javascript: link; links rel="nofollow noopener"' }),
    translations: Type.Array(
      Type.Object({ id: Uuid(), locale: Type.String(), title: Type.String() }, { additionalProperties: false }),
      { description: 'The published translations of its group (the original among them when this is a translation)' },
    ),
    helpful: Nullable(Type.Boolean(), { description: 'This session\'s answer to "Was this helpful?"; null without one or without a session' }),
    updated_at: Timestamp(),
  },
  {
    $id: 'WidgetArticle', additionalProperties: false, description: 'A published help center article with its rendered body',
    examples: [{ ...EXAMPLE_SUMMARY, html: '<p>Open <strong>Settings</strong>, then Security.</p>\n', translations: [], helpful: null, updated_at: T }],
  },
);

export const ArticleFeedbackBody = Type.Object(
  { helpful: Type.Boolean({ description: 'true: it helped; false: it did not' }) },
  { additionalProperties: false, examples: [{ helpful: true }] },
);

export const ArticleFeedback = Type.Object(
  { helpful: Type.Boolean({ description: 'The session\'s vote now' }) },
  { $id: 'WidgetArticleFeedback', additionalProperties: false, description: 'The session\'s answer to "Was this helpful?"', examples: [{ helpful: true }] },
);

export const WIDGET_ARTICLE_SCHEMAS = [WidgetArticleSummary, WidgetArticle, ArticleFeedback];
