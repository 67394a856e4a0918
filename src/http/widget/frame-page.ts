// The widget frame's HTML and its Content-Security-Policy. The frame runs its own scripts, styles
// and worker and talks to this server only; who may frame it follows product.domain:
// - a domain: this server itself ('self', for the demo page and the team's previews), the domain's
//   host and its subdomains, over http or https, on any port (the widget API's origin rule);
// - no domain: any http(s) page, as the widget API then accepts any origin (set a domain to restrict);
// - a domain whose host could not be written into a CSP (`*.acme.com`, a typo, an attempt at
//   injecting a directive): this server only, failing closed as the widget API's origin check does.
import { domainHost } from '../../lib/host-domain.js';
import { escapeText } from '../../lib/html.js';
import type { WidgetBuild } from './widget-build.js';

const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/;
/** A host a CSP source can name: DNS labels (IDNs in punycode) or a bracketed IPv6 address. */
const CSP_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/;

/** Whom the frame may be embedded by: `*` (anyone), a host (and its subdomains), or '' (this server only). */
export function parentHostOf(domain: string | null): string {
  if (domain === null) return '*';
  const host = domainHost(domain);
  return CSP_HOST.test(host) ? host : '';
}

export function frameAncestors(parentHost: string): string {
  if (parentHost === '*') return '*';
  if (parentHost === '') return "'self'";
  const hosts = IP_LITERAL.test(parentHost) ? [parentHost] : [parentHost, `*.${parentHost}`];
  return ["'self'", ...hosts.flatMap((host) => [`http://${host}:*`, `https://${host}:*`])].join(' ');
}

export function framePolicy(parentHost: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    // https: for the images of help center articles (docs/help-center.md), as their public pages allow.
    "img-src 'self' data: https:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors(parentHost)}`,
  ].join('; ');
}

/** Asset paths relative to the frame's URL, /widget/frame/{key}: `../assets/…`. */
const asset = (file: string) => escapeText(`../${file}`);

function page(title: string, build: WidgetBuild, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(title)}</title>`,
    ...build.frame.styles.map((file) => `<link rel="stylesheet" href="${asset(file)}">`),
    body,
    '</html>',
    '',
  ].join('\n');
}

export function renderFramePage(build: WidgetBuild, frame: { productName: string; widgetKey: string; parentHost: string }): string {
  return page(
    `${frame.productName} support`,
    build,
    [
      `<script type="module" src="${asset(build.frame.script)}"></script>`,
      '</head><body>',
      `<div id="app" tabindex="-1" data-widget-key="${escapeText(frame.widgetKey)}" data-parent-host="${escapeText(frame.parentHost)}">`,
      '<p class="notice">Loading…</p></div>',
      '<noscript><p class="notice">Support needs JavaScript.</p></noscript>',
      '</body>',
    ].join('\n'),
  );
}

/** What the frame shows instead of the widget (an unknown key, a disabled widget): text, no script. */
export function renderFrameNotice(build: WidgetBuild, message: string): string {
  return page('Support', build, `</head><body><p class="notice">${escapeText(message)}</p></body>`);
}
