// A member's own settings (docs/accounts.md, "Your own settings"): the signature below their mailed
// replies, their time zone, and whether they want notifications by email.
import { invalidField } from '../../errors.js';

export interface MemberSettings {
  signature: string | null;
  time_zone: string | null;
  notify_email: boolean;
}

export const SIGNATURE_MAX = 2_000;
export const TIME_ZONE_MAX = 64;
/** What an IANA time zone name is made of (`America/Argentina/Buenos_Aires`, `Etc/GMT+1`); an offset like `+01:00` is not one. */
export const TIME_ZONE_PATTERN = '^[A-Za-z][A-Za-z0-9_+\\-/]*$';

/** Line breaks as people and systems write them: CRLF, CR, NEL, the line and paragraph separators. */
const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;
/**
 * What a signature cannot carry: the other C0 and C1 controls and DEL (a tab becomes a space first),
 * and the bidirectional embeddings, overrides and isolates, which could make a line read backwards.
 */
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A signature as it is kept: multi-line text with its line breaks as `\n`, no other control
 * characters, no spaces at the ends of lines, no blank lines around it, and without a `--` line of
 * its own at the top (the mail puts the separator there). Nothing left: null (no signature).
 */
export function normalizeSignature(text: string | null): string | null {
  if (text === null) return null;
  const lines = text.replace(LINE_BREAKS, '\n').replace(/\t/g, ' ').replace(CONTROLS, '').split('\n').map((line) => line.trimEnd());
  while (lines[0] === '') lines.shift();
  if (lines[0]?.trim() === '--') lines.shift();
  while (lines[0] === '') lines.shift();
  while (lines.at(-1) === '') lines.pop();
  const kept = lines.join('\n');
  return kept === '' ? null : kept;
}

/**
 * `name` when it is a time zone the runtime's time zone data knows (`Europe/Berlin`, `UTC`, an alias
 * like `Asia/Calcutta`), kept as written; a UTC offset (`+01:00`) is not a zone (no daylight saving
 * rules) and is refused, as is anything unknown. null clears it (UTC). `field` names it in the error.
 */
export function ianaTimeZone(name: string | null, field = 'time_zone'): string | null {
  if (name === null) return null;
  const refused = () => invalidField(field, `"${name.slice(0, 64)}" is not an IANA time zone name (e.g. "Europe/Berlin", "America/New_York", "UTC")`);
  if (name.length > TIME_ZONE_MAX || !new RegExp(TIME_ZONE_PATTERN).test(name)) throw refused();
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
  } catch {
    throw refused();
  }
  return name;
}
