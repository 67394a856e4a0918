// An article's locale (a BCP 47 language tag, stored in its canonical form: `en`, `pt-BR`,
// `zh-Hant-TW`) and which of several locales best fits what a reader asks for (`?locale=` or
// Accept-Language): the first wanted tag with an exact match, else one of the same language.
import { invalidField } from '../../errors.js';

export const DEFAULT_LOCALE = 'en';
/** Long enough for any tag in use (a language, script, region and variant). */
export const LOCALE_MAX = 35;
/**
 * A language, then optionally a script, a region and one variant: the tags help centers use
 * (`en`, `pt-BR`, `zh-Hant-TW`, `es-419`, `de-CH-1901`), every one of which Intl accepts.
 */
export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))?$/;

/** The canonical form of a language tag, or null when it is not one. */
export function canonicalLocale(tag: string): string | null {
  if (tag.length > LOCALE_MAX || !LOCALE_PATTERN.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The canonical form of `tag`; a validation_error naming `field` when it is no language tag. */
export function requireLocale(tag: string, field = 'locale'): string {
  const locale = canonicalLocale(tag);
  if (locale === null) throw invalidField(field, `"${tag.slice(0, 40)}" is not a BCP 47 language tag (en, de, pt-BR, …)`);
  return locale;
}

const languageOf = (locale: string) => locale.split('-')[0].toLowerCase();

/** The tags of an Accept-Language header, best first (q=0 left out); malformed entries are skipped. */
export function acceptedLocales(header: string | undefined): string[] {
  if (!header) return [];
  const entries = header.split(',').flatMap((part, order) => {
    const [tag, ...params] = part.trim().split(';');
    const quality = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)).find((match) => match !== null);
    const q = quality ? Number(quality[1]) : 1;
    const locale = tag === '*' ? null : canonicalLocale(tag.trim());
    return locale !== null && q > 0 && Number.isFinite(q) ? [{ locale, q, order }] : [];
  });
  return entries.sort((a, b) => b.q - a.q || a.order - b.order).map((entry) => entry.locale);
}

/** The available locale that best fits the wanted ones (best first), or null when none fits. */
export function bestLocale(wanted: readonly string[], available: readonly string[]): string | null {
  for (const locale of wanted) {
    const exact = available.find((candidate) => candidate.toLowerCase() === locale.toLowerCase());
    if (exact) return exact;
    const sameLanguage = available.find((candidate) => languageOf(candidate) === languageOf(locale));
    if (sameLanguage) return sameLanguage;
  }
  return null;
}
