// The public help center's look, from the product's widget colour (docs/help-center.md): the
// colour fills the header, with black or white text (whichever reads better on it), and links and
// the search button use it darkened until it reads on white at 4.5:1 (WCAG AA), so any colour a
// team picks stays readable. One stylesheet per colour, allowed by its hash in the page's CSP.
import { createHash } from 'node:crypto';

export const DEFAULT_COLOUR = '#3b5bdb';

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2's relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** `colour` darkened in steps toward black until it reads on white at `ratio`. */
function readableOnWhite(colour: string, ratio = 4.5): string {
  let rgb = rgbOf(colour);
  while (contrast(hexOf(rgb), '#ffffff') < ratio) rgb = rgb.map((c) => c * 0.92) as Rgb;
  return hexOf(rgb);
}

export interface Theme {
  css: string;
  /** The CSP source that allows exactly this stylesheet inline. */
  styleSource: string;
}

const themes = new Map<string, Theme>();

export function themeFor(colour: string | null): Theme {
  const brand = (colour ?? DEFAULT_COLOUR).toLowerCase();
  const cached = themes.get(brand);
  if (cached) return cached;
  const full = hexOf(rgbOf(brand));
  const onBrand = contrast(full, '#000000') >= contrast(full, '#ffffff') ? '#000000' : '#ffffff';
  const accent = readableOnWhite(full);
  const css = [
    'body{font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#fff}',
    `a{color:${accent}}a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid ${accent};outline-offset:2px}`,
    `.skip{position:absolute;left:-999px;top:0;background:#fff;color:${accent};padding:.5rem}.skip:focus{left:.5rem}`,
    `header{background:${full};color:${onBrand}}header .bar{max-width:48rem;margin:0 auto;padding:1rem}`,
    `header a.home{color:${onBrand};font-weight:600;font-size:1.15rem;text-decoration:none}header a.home:focus-visible{outline-color:${onBrand}}`,
    '.wrap{max-width:48rem;margin:0 auto;padding:1rem}',
    'form.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:0 0 1rem}form.search label{width:100%;font-weight:600}',
    'form.search input{flex:1;min-width:10rem;font:inherit;padding:.5rem;border:1px solid #6b6b6b;border-radius:4px}',
    `form.search button{font:inherit;padding:.5rem 1rem;border:0;border-radius:4px;background:${accent};color:#fff;cursor:pointer}`,
    'h1{font-size:1.8rem;line-height:1.25}h2{font-size:1.3rem}ul.articles{padding-left:1.2rem}ul.articles li{margin:.35rem 0}',
    '.excerpt{color:#4a4a4a;margin:.1rem 0 .8rem}nav.crumbs ol{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4rem}',
    'nav.crumbs li+li::before{content:"/";margin-right:.4rem;color:#6b6b6b}nav.languages ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.8rem}',
    '.body img{max-width:100%;height:auto}.body pre{overflow:auto;background:#f4f4f5;padding:.75rem;border-radius:4px}',
    '.body code{background:#f4f4f5;padding:0 .2rem;border-radius:3px}.body blockquote{border-left:4px solid #d4d4d8;margin-left:0;padding-left:1rem;color:#3f3f46}',
    'footer{border-top:1px solid #e4e4e7;margin-top:2rem;color:#52525b;font-size:.9rem}',
  ].join('');
  const theme = { css, styleSource: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
  themes.set(brand, theme);
  return theme;
}

/** The page's Content-Security-Policy: no script at all, this stylesheet only, images over https, forms to this server. */
export const pagePolicy = (theme: Theme): string =>
  `default-src 'none'; style-src ${theme.styleSource}; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
