// Rules for a product's slug, issue prefix and inbound name (docs/api.md, "Products"; docs/email.md).
import { randomInt } from 'node:crypto';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 64;
export const PREFIX_PATTERN = /^[A-Z0-9]{1,3}$/;

/** "Café Crème!" → "cafe-creme"; empty → `fallback` ("product"). */
export function slugFromName(name: string, fallback = 'product'): string {
  const folded = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  const slug = folded.replace(/[^a-z0-9]+/g, '-').slice(0, SLUG_MAX).replace(/^-+|-+$/g, '');
  return slug || fallback;
}

/** Room for a `-<n>` suffix of up to ten digits. */
const SUFFIX_ROOM = 11;

/**
 * What every slug freeSlug(base, …) returns starts with, so the slugs starting with it are all
 * freeSlug needs as `taken`. Not `base` itself: a long base is cut to make room for the suffix.
 */
export function slugStem(base: string): string {
  return base.slice(0, SLUG_MAX - SUFFIX_ROOM).replace(/-+$/, '');
}

/** `base`, else `base-2`, `base-3`, … : the first not in `taken`, kept within SLUG_MAX. */
export function freeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** "Acme Mobile App" → "AMA", "Widget" → "WID", no letters or digits → "P". */
export function prefixFromName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/\s+/)
    .map((word) => word.replace(/[^A-Za-z0-9]/g, '').toUpperCase())
    .filter((word) => word.length > 0);
  if (words.length === 0) return 'P';
  if (words.length >= 2) return words.slice(0, 3).map((word) => word[0]).join('');
  return words[0].slice(0, 3);
}

const INBOUND_SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The local part of a product's inbound address: `{slug}-{6 random characters}`, lowercase (mail
 * systems treat local parts without case), unique across workspaces with overwhelming odds (the
 * unique index has the last word), and readable in a forwarding rule.
 */
export function inboundName(slug: string): string {
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += INBOUND_SUFFIX_ALPHABET[randomInt(INBOUND_SUFFIX_ALPHABET.length)];
  return `${slug.slice(0, 40).replace(/-+$/, '')}-${suffix}`;
}

const REPLACEMENTS = '23456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * `wanted` if free, else its last character replaced by 2…9 then the letters, until free.
 * When every such variant is taken, the prefix grows (up to 3 characters) or, at 3, the
 * second-to-last character is varied too, so a free prefix is always found while one exists.
 */
export function freePrefix(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  const stem = wanted.slice(0, -1);
  for (const replacement of REPLACEMENTS) {
    const candidate = stem + replacement;
    if (candidate !== wanted && !taken.has(candidate)) return candidate;
  }
  if (wanted.length < 3) return freePrefix(wanted + '2', taken);
  for (const middle of REPLACEMENTS) {
    for (const last of REPLACEMENTS) {
      const candidate = wanted.slice(0, -2) + middle + last;
      if (!taken.has(candidate)) return candidate;
    }
  }
  throw new Error('no free issue prefix left in this workspace');
}
