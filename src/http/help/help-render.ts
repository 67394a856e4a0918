// The public help center's pages and sitemap as text (docs/help-center.md, "The public pages"):
// plain HTML, no script, every text escaped; an article's Markdown through renderArticleHtml.
import type { CollectionRow } from '../../db/repositories/help-center/collection.repository.js';
import type { ArticlePage, HelpCenter, HelpHome, PublicArticle } from '../../domain/help-center/help-pages.service.js';
import { excerptOf, renderArticleHtml } from '../../lib/article-markdown.js';
import { escapeText } from '../../lib/html.js';
import type { Theme } from './help-theme.js';

/** Where the center's pages are: `base` the absolute URL of /help/{help slug}. */
export class HelpLinks {
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }
  home = (locale?: string) => `${this.base}${locale ? `?locale=${encodeURIComponent(locale)}` : ''}`;
  collection = (slug: string, locale: string) => `${this.base}/${encodeURIComponent(slug)}?locale=${encodeURIComponent(locale)}`;
  article = (article: { slug: string; locale: string }) => `${this.base}/articles/${encodeURIComponent(article.slug)}?locale=${encodeURIComponent(article.locale)}`;
  search = () => `${this.base}/search`;
}

interface Frame {
  center: HelpCenter;
  theme: Theme;
  links: HelpLinks;
  locale: string;
  title: string;
  description?: string;
  canonical?: string;
  /** hreflang alternates: the same page in other locales. */
  alternates?: { locale: string; href: string }[];
  /** The search box's text. */
  query?: string;
  main: string;
}

const attr = escapeText;

function page({ center, theme, links, locale, title, description, canonical, alternates = [], query = '', main }: Frame): string {
  const name = escapeText(center.product.name);
  const head = [
    '<!doctype html>',
    `<html lang="${attr(locale)}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(title)} · ${name} Help Center</title>`,
    description ? `<meta name="description" content="${attr(description)}">` : '',
    canonical ? `<link rel="canonical" href="${attr(canonical)}">` : '',
    ...alternates.map((alternate) => `<link rel="alternate" hreflang="${attr(alternate.locale)}" href="${attr(alternate.href)}">`),
    `<style>${theme.css}</style></head>`,
  ];
  const body = [
    '<body><a class="skip" href="#main">Skip to content</a>',
    `<header><div class="bar"><a class="home" href="${attr(links.home())}">${name} Help Center</a></div></header>`,
    '<div class="wrap">',
    `<form class="search" role="search" method="get" action="${attr(links.search())}">`,
    '<label for="q">Search the help center</label>',
    `<input id="q" name="q" type="search" maxlength="200" value="${attr(query)}">`,
    '<button type="submit">Search</button></form>',
    `<main id="main">${main}</main>`,
    `<footer><p>${name}</p></footer>`,
    '</div></body></html>',
    '',
  ];
  return [...head.filter((line) => line !== ''), ...body].join('\n');
}

const articleItem = (links: HelpLinks, article: PublicArticle, withExcerpt: boolean) => [
  `<li><a href="${attr(links.article(article))}" hreflang="${attr(article.locale)}" lang="${attr(article.locale)}">${escapeText(article.title)}</a>`,
  withExcerpt ? `<p class="excerpt" lang="${attr(article.locale)}">${escapeText(excerptOf(article.body_text))}</p>` : '',
  '</li>',
].join('');

const articleList = (links: HelpLinks, articles: readonly PublicArticle[], withExcerpt = false) =>
  `<ul class="articles">${articles.map((article) => articleItem(links, article, withExcerpt)).join('')}</ul>`;

const languageNames = (locale: string) => {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
};

function languages(links: HelpLinks, locales: readonly string[], current: string, href: (locale: string) => string): string {
  if (locales.length < 2) return '';
  const items = locales.map((locale) => locale === current
    ? `<li><span lang="${attr(locale)}" aria-current="true">${escapeText(languageNames(locale))}</span></li>`
    : `<li><a href="${attr(href(locale))}" hreflang="${attr(locale)}" lang="${attr(locale)}">${escapeText(languageNames(locale))}</a></li>`);
  return `<nav class="languages" aria-label="Languages"><ul>${items.join('')}</ul></nav>`;
}

export interface RenderContext {
  center: HelpCenter;
  theme: Theme;
  links: HelpLinks;
}

export function renderHome({ center, theme, links }: RenderContext, home: HelpHome): string {
  const sections = home.collections.filter((section) => section.articles.length > 0).map(({ collection, articles }) => [
    `<section aria-labelledby="c-${attr(collection.slug)}"><h2 id="c-${attr(collection.slug)}">`,
    `<a href="${attr(links.collection(collection.slug, home.locale))}">${escapeText(collection.name)}</a></h2>`,
    collection.description ? `<p>${escapeText(collection.description)}</p>` : '',
    articleList(links, articles),
    '</section>',
  ].join(''));
  if (home.loose.length > 0) {
    sections.push(`<section aria-labelledby="c-other"><h2 id="c-other">${home.collections.length ? 'Other articles' : 'Articles'}</h2>${articleList(links, home.loose)}</section>`);
  }
  const main = [
    `<h1>How can we help?</h1>`,
    languages(links, home.locales, home.locale, (locale) => links.home(locale)),
    sections.length ? sections.join('\n') : '<p>No articles yet.</p>',
  ].join('\n');
  return page({
    center, theme, links, locale: home.locale, title: 'Help Center', canonical: links.home(home.locale), main,
    alternates: home.locales.length > 1 ? home.locales.map((locale) => ({ locale, href: links.home(locale) })) : [],
  });
}

const crumbs = (links: HelpLinks, trail: { href: string; text: string }[], current: string) =>
  `<nav class="crumbs" aria-label="Breadcrumb"><ol>${trail.map((step) => `<li><a href="${attr(step.href)}">${escapeText(step.text)}</a></li>`).join('')}` +
  `<li aria-current="page">${escapeText(current)}</li></ol></nav>`;

export function renderCollection(context: RenderContext, view: { collection: CollectionRow; locale: string; articles: PublicArticle[] }): string {
  const { links } = context;
  const main = [
    crumbs(links, [{ href: links.home(view.locale), text: 'Help Center' }], view.collection.name),
    `<h1>${escapeText(view.collection.name)}</h1>`,
    view.collection.description ? `<p>${escapeText(view.collection.description)}</p>` : '',
    view.articles.length ? articleList(links, view.articles, true) : '<p>No articles in this collection yet.</p>',
  ].join('\n');
  return page({
    ...context, locale: view.locale, title: view.collection.name, description: view.collection.description ?? undefined,
    canonical: links.collection(view.collection.slug, view.locale), main,
  });
}

export function renderArticle(context: RenderContext, view: Extract<ArticlePage, { kind: 'article' }>): string {
  const { links } = context;
  const { article, collection, translations } = view;
  const trail = [{ href: links.home(article.locale), text: 'Help Center' }];
  if (collection) trail.push({ href: links.collection(collection.slug, article.locale), text: collection.name });
  const updated = article.updated_at.slice(0, 10);
  const main = [
    crumbs(links, trail, article.title),
    `<article><h1>${escapeText(article.title)}</h1>`,
    languages(links, translations.map((translation) => translation.locale), article.locale,
      (locale) => links.article(translations.find((translation) => translation.locale === locale)!)),
    `<div class="body">${renderArticleHtml(article.body)}</div>`,
    `<p class="excerpt">Updated <time datetime="${attr(article.updated_at)}">${updated}</time></p></article>`,
  ].join('\n');
  return page({
    ...context, locale: article.locale, title: article.title, description: excerptOf(article.body_text), canonical: links.article(article), main,
    alternates: translations.length > 1 ? translations.map((translation) => ({ locale: translation.locale, href: links.article(translation) })) : [],
  });
}

/** `results` null: no search made yet; `refusal`: why the search was not made. */
export function renderSearch(context: RenderContext, { q, locale, results, refusal }: { q: string; locale: string; results: PublicArticle[] | null; refusal?: string }): string {
  const { links } = context;
  const heading = results === null ? 'Search the help center' : `Results for “${q}”`;
  const body = refusal !== undefined ? `<p>${escapeText(refusal)}</p>` : results === null ? ''
    : results.length === 0 ? '<p>No articles match your search. Try other words.</p>'
      : `<p>${results.length === 1 ? '1 article' : `${results.length} articles`} found.</p>${articleList(links, results, true)}`;
  return page({ ...context, locale, title: heading, query: q, main: `<h1>${escapeText(heading)}</h1>\n${body}` });
}

export function renderNotFound(context: RenderContext | null, what: string): string {
  const main = `<h1>Page not found</h1>\n<p>${escapeText(what)}</p>`;
  if (context) return page({ ...context, locale: 'en', title: 'Page not found', main });
  return [
    '<!doctype html>', '<html lang="en"><head><meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Page not found</title></head>', `<body><main>${main}</main></body></html>`, '',
  ].join('\n');
}

/** The sitemap (sitemaps.org 0.9), each article with its translations as xhtml:link alternates. */
export function renderSitemap(links: HelpLinks, { collections, articles }: { collections: CollectionRow[]; articles: PublicArticle[] }, groupOf: (article: PublicArticle) => string): string {
  const url = (loc: string, lastmod: string | null, alternates: PublicArticle[] = []) => [
    '  <url>',
    `    <loc>${escapeText(loc)}</loc>`,
    lastmod ? `    <lastmod>${lastmod}</lastmod>` : '',
    ...(alternates.length > 1 ? alternates.map((alternate) =>
      `    <xhtml:link rel="alternate" hreflang="${escapeText(alternate.locale)}" href="${escapeText(links.article(alternate))}"/>`) : []),
    '  </url>',
  ].filter((line) => line !== '').join('\n');
  const locales = [...new Set(articles.map((article) => article.locale))].sort();
  const entries = [
    url(links.home(), null),
    ...collections.flatMap((collection) => locales.map((locale) => url(links.collection(collection.slug, locale), collection.updated_at))),
    ...articles.map((article) => url(links.article(article), article.updated_at, articles.filter((other) => groupOf(other) === groupOf(article)))),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}
