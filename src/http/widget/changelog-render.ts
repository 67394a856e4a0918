// The public changelog as an HTML page and an Atom 1.0 feed. Every text is escaped; release
// descriptions are Markdown rendered safely (src/lib/html.ts), so a release note can never inject
// markup or script.
import type { Changelog, ChangelogEntry } from '../../domain/releases/changelog.service.js';
import { escapeText, renderMarkdown } from '../../lib/html.js';

const headingOf = (release: ChangelogEntry) => (release.version ? `${release.version} — ${release.title}` : release.title);
const anchorOf = (release: ChangelogEntry) => `release-${release.id}`;

/** A release's body: its notes and what it shipped. */
function releaseBody(release: ChangelogEntry): string {
  const notes = release.description ? renderMarkdown(release.description) : '';
  const shipped = release.issue_titles.length
    ? `<ul class="shipped">${release.issue_titles.map((title) => `<li>${escapeText(title)}</li>`).join('')}</ul>`
    : '';
  return notes + shipped;
}

export interface ChangelogLinks {
  page: string;
  feed: string;
}

const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fff}',
  'main{max-width:42rem;margin:0 auto;padding:2rem 1rem}',
  'h1{font-size:1.6rem}article{border-top:1px solid #ddd;padding:1rem 0}',
  'h2{font-size:1.2rem;margin:.2rem 0}time{color:#555;font-size:.9rem}',
  '@media (prefers-color-scheme:dark){body{background:#111;color:#eee}time{color:#aaa}article{border-color:#333}a{color:#8ab4f8}}',
].join('');

export function renderChangelogPage(changelog: Changelog, links: ChangelogLinks): string {
  const name = escapeText(changelog.product.name);
  const articles = changelog.releases.map((release) => [
    `<article id="${anchorOf(release)}">`,
    `<h2>${escapeText(headingOf(release))}</h2>`,
    `<time datetime="${release.released_at}">${release.released_at.slice(0, 10)}</time>`,
    releaseBody(release),
    '</article>',
  ].join(''));
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${name} changelog</title>`,
    `<link rel="alternate" type="application/atom+xml" title="${name} changelog" href="${escapeText(links.feed)}">`,
    `<style>${STYLE}</style></head>`,
    `<body><main><h1>${name}: what's new</h1>`,
    `<p><a href="${escapeText(links.feed)}">Subscribe (Atom feed)</a></p>`,
    articles.length ? articles.join('\n') : '<p>Nothing released yet.</p>',
    '</main></body></html>',
    '',
  ].join('\n');
}

export function renderChangelogFeed(changelog: Changelog, links: ChangelogLinks): string {
  const { product, releases } = changelog;
  const updated = releases.reduce((latest, release) => (release.updated_at > latest ? release.updated_at : latest), product.updated_at);
  const entries = releases.map((release) => [
    '  <entry>',
    `    <id>urn:uuid:${release.id}</id>`,
    `    <title>${escapeText(headingOf(release))}</title>`,
    `    <updated>${release.updated_at}</updated>`,
    `    <published>${release.released_at}</published>`,
    `    <link rel="alternate" type="text/html" href="${escapeText(`${links.page}#${anchorOf(release)}`)}"/>`,
    `    <content type="html">${escapeText(releaseBody(release))}</content>`,
    '  </entry>',
  ].join('\n'));
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>urn:uuid:${product.id}</id>`,
    `  <title>${escapeText(product.name)} changelog</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeText(links.feed)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeText(links.page)}"/>`,
    `  <author><name>${escapeText(product.name)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
