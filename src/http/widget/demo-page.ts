// /widget/demo: a host page on this server with the embed snippet, where a new user tries the
// widget against their own server before touching their site. The page's styles are allowed by
// their hash and nothing inline runs, so it also shows the snippet working under a strict CSP.
import { createHash } from 'node:crypto';
import { embedSnippet } from '../../domain/products/product.service.js';
import { escapeText } from '../../lib/html.js';

const STYLE = [
  'body{font:16px/1.55 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f7f9}',
  'main{max-width:44rem;margin:0 auto;padding:2rem 1rem 8rem}',
  'pre{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}',
  'code{font:14px/1.45 ui-monospace,monospace}label{display:block;font-weight:600;margin:.5rem 0}',
  'input{font:inherit;padding:.4rem .6rem;width:20rem;max-width:100%}button{font:inherit;padding:.4rem .9rem}',
  ':focus-visible{outline:3px solid #1a73e8;outline-offset:2px}',
  '@media (prefers-color-scheme:dark){body{background:#111;color:#eee}pre{background:#1b1b1f;border-color:#333}}',
].join('');
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** Scripts from this server only (widget.js), the widget's iframe, the styles above by hash; never framed. */
export const DEMO_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src ${STYLE_HASH}`,
  "connect-src 'self'",
  "frame-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(title)}</title>`,
    `<style>${STYLE}</style>`,
    `</head><body><main>${body}</main></body></html>`,
    '',
  ].join('\n');
}

/** The page for one product: the snippet as text, and the snippet itself at the end of the body. */
export function renderDemoPage(base: string, product: { name: string; widgetKey: string }): string {
  const snippet = embedSnippet(base, product.widgetKey);
  return page(`${product.name}: try the widget`, [
    `<h1>${escapeText(product.name)}: try the widget</h1>`,
    '<p>This page embeds the support widget exactly as your site will, with this snippet before <code>&lt;/body&gt;</code>:</p>',
    `<pre><code>${escapeText(snippet)}</code></pre>`,
    '<p>Open it with the button at the bottom right (or Tab to it), send a message, then answer it from the API',
    '(<code>POST /api/v1/conversations/{id}/messages</code>) or the team app: the reply appears here live.',
    "Set the product's <code>domain</code> so that only your site (and its subdomains) can embed it, and",
    '<code>data-identity-token</code> to sign your users in (docs/widget.md).</p>',
    snippet,
  ].join('\n'));
}

/** The demo's front door: which page to open, and a box to go there with a widget key. */
export function renderDemoIndex(): string {
  return page('Try the widget', [
    '<h1>Try the widget</h1>',
    "<p>Every product has a widget key (<code>widget_key</code> in <code>GET /api/v1/products</code>). Open",
    '<code>/widget/demo/&lt;widget_key&gt;</code> to try its widget on a page of this server.</p>',
    '<form method="get" action="demo"><label for="key">Widget key</label>',
    '<input id="key" name="key" required pattern="wk_[0-9A-Za-z]+" placeholder="wk_…"> <button type="submit">Open the demo</button></form>',
  ].join('\n'));
}
