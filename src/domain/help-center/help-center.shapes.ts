// Collections and articles as the API shows them (docs/help-center.md).
import type { CollectionRow } from '../../db/repositories/help-center/collection.repository.js';
import type { ArticleRow } from '../../db/repositories/help-center/article.repository.js';
import { excerptOf } from '../../lib/article-markdown.js';
import { parseTags } from '../tags/tags.js';

export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export const ARTICLE_TITLE_MAX = 200;
export const ARTICLE_BODY_MAX = 100_000;
export const COLLECTION_NAME_MAX = 200;
export const COLLECTION_DESCRIPTION_MAX = 2_000;

export interface Collection {
  id: string;
  product_id: string;
  name: string;
  slug: string;
  description: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface Article {
  id: string;
  product_id: string;
  collection_id: string | null;
  title: string;
  slug: string;
  body: string;
  excerpt: string;
  locale: string;
  translation_of: string | null;
  status: ArticleStatus;
  tags: string[];
  views: number;
  helpful: number;
  not_helpful: number;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

export const toCollection = (row: CollectionRow): Collection => ({
  id: row.id,
  product_id: row.product_id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  position: Number(row.position),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const toArticle = (row: ArticleRow): Article => ({
  id: row.id,
  product_id: row.product_id,
  collection_id: row.collection_id,
  title: row.title,
  slug: row.slug,
  body: row.body,
  excerpt: excerptOf(row.body_text),
  locale: row.locale,
  translation_of: row.translation_of,
  status: row.status as ArticleStatus,
  tags: parseTags(row.tags),
  views: Number(row.views),
  helpful: Number(row.helpful),
  not_helpful: Number(row.not_helpful),
  created_at: row.created_at,
  updated_at: row.updated_at,
  published_at: row.published_at,
});
