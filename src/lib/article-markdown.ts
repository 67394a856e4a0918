// Help center articles (docs/help-center.md, "What survives of the Markdown"): the HTML their public
// pages show and the plain text the excerpt, search and passages read, both from markdown-it's one
// parse. Nothing written can add markup or script: raw HTML is off (it is shown as text), every
// text and attribute is escaped by markdown-it, and a link or image keeps its target only when it
// is http(s), mailto: (links) or relative; any other scheme (javascript:, data:, vbscript:, file:)
// leaves the text without the link. Links get rel="nofollow noopener". The output holds only the
// elements markdown-it makes, so no sanitizer runs after it.
import MarkdownIt from 'markdown-it';

/** A scheme (`name:`) before any `/`, `?` or `#`: what makes a URL absolute. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https']);

/** Whether `url` may be kept: relative, or of a scheme the set names. Control characters and backslashes never. */
function allowedUrl(url: string, schemes: ReadonlySet<string>): boolean {
  // Browsers drop tabs and line breaks inside a scheme ("java\tscript:"); a backslash reads as a slash.
  if (/[\u0000-\u001F\u007F\\]/.test(url)) return false;
  const scheme = SCHEME.exec(url.trim());
  return scheme === null ? !url.trim().startsWith('//') : schemes.has(scheme[1].toLowerCase());
}

const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const markdown = new MarkdownIt({ html: false, linkify: true });
// markdown-it calls validateLink for links and images alike; images are checked again below.
markdown.validateLink = (url) => allowedUrl(url, LINK_SCHEMES);

const defaultRender = markdown.renderer.renderToken.bind(markdown.renderer);
markdown.renderer.rules.link_open = (tokens, index, options) => {
  tokens[index].attrSet('rel', 'nofollow noopener');
  return defaultRender(tokens, index, options);
};
const defaultImage = markdown.renderer.rules.image!;
markdown.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index];
  // Not an image a page may load (a mailto: target): its description as text.
  if (!allowedUrl(String(token.attrGet('src') ?? ''), IMAGE_SCHEMES)) return markdown.utils.escapeHtml(self.renderInlineAsText(token.children ?? [], options, env));
  token.attrSet('loading', 'lazy');
  return defaultImage(tokens, index, options, env, self);
};
const levelOf = (tag: string) => Number(tag.slice(1));

/**
 * The article's body as the public page shows it. Its headings are moved so that the highest
 * becomes an h2 (the page's title is its h1), keeping their order: `#` or `##` sections alike.
 */
export function renderArticleHtml(body: string): string {
  const tokens = markdown.parse(body.replace(NOT_XML, ''), {});
  const levels = tokens.filter((token) => token.type === 'heading_open').map((token) => levelOf(token.tag));
  const shift = levels.length ? 2 - Math.min(...levels) : 0;
  for (const token of tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close') token.tag = `h${Math.min(6, levelOf(token.tag) + shift)}`;
  }
  return markdown.renderer.render(tokens, markdown.options, {});
}

/** The block tokens after which a text's parts are separated by a line break. */
const BLOCK_END = /_close$|^(code_block|fence|hr)$/;

/** The article's text: what a reader reads, without Markdown's marks, one block per line, spaces collapsed. */
export function articleText(body: string): string {
  const parts: string[] = [];
  for (const token of markdown.parse(body.replace(NOT_XML, ''), {})) {
    if (token.type === 'inline') {
      for (const child of token.children ?? []) {
        if (child.type === 'text' || child.type === 'code_inline') parts.push(child.content);
        else if (child.type === 'softbreak' || child.type === 'hardbreak') parts.push(' ');
        else if (child.type === 'image') parts.push(child.content);
      }
    } else if (token.type === 'code_block' || token.type === 'fence') parts.push(token.content);
    if (BLOCK_END.test(token.type) && token.block) parts.push('\n');
  }
  return parts.join('').split('\n').map((line) => line.replace(/\s+/g, ' ').trim()).filter((line) => line.length > 0).join('\n');
}

export const EXCERPT_LENGTH = 200;

/** The first 200 characters of the text, on one line. */
export const excerptOf = (text: string): string => [...text.replace(/\s+/g, ' ')].slice(0, EXCERPT_LENGTH).join('').trim();
