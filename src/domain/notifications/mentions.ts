// Who a note mentions (docs/inbox.md, "Notifications"): `@` and a member's display name, compared
// without case. Where several names fit at an `@` (Ann, Ann Lee), the longest that ends there
// wins; a name must end where a word ends ("@Annabel" is not Ann, "@Ann," and "@Ann's" are, and
// "@ann.smith" is nobody's Ann: a dot or hyphen between letters joins a word); the `@` must start
// a word (`ada@example.com` mentions nobody); and what is written as code (`…` spans and ```
// fenced blocks) mentions nobody. Members who share a name are all mentioned by it. The app's note
// box completes and previews mentions with these same rules (web/app/src/screens/inbox/mention-completion.tsx).

export interface Mentionable {
  id: string;
  display_name: string | null;
}

/** Fenced blocks (an unclosed one runs to the end) and inline code spans. */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
/** What continues a word: before an `@` it makes an address, after a name a longer word. */
export const WORD = /[\p{L}\p{N}\p{M}_]/u;
/** Characters that join two words into one (ann.smith, ann-marie) but end a sentence or a clause on their own. */
const JOINERS = new Set(['.', '-']);

export const fold = (text: string): string => text.normalize('NFC').toLowerCase();

/** Whether a name that ends before `index` ends a word there. */
function endsWord(text: string, index: number): boolean {
  const next = text[index];
  if (next === undefined) return true;
  if (WORD.test(next)) return false;
  return !(JOINERS.has(next) && text[index + 1] !== undefined && WORD.test(text[index + 1]!));
}

/** The ids of the members `body` mentions, each once, in the order first mentioned. */
export function mentionedMembers(body: string, members: readonly Mentionable[]): string[] {
  // Code is blanked rather than cut out, so that what stays keeps its neighbours.
  const text = body.normalize('NFC').replace(CODE, (code) => ' '.repeat(code.length));
  const names = new Map<string, string[]>();
  for (const { id, display_name } of members) {
    const name = display_name?.trim();
    if (name) names.set(fold(name), [...(names.get(fold(name)) ?? []), id]);
  }
  const longestFirst = [...names.keys()].sort((a, b) => b.length - a.length);
  const mentioned = new Set<string>();
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at > 0 && WORD.test(text[at - 1]!)) continue;
    const from = at + 1;
    // Compared over the name's own length: lowercasing keeps the length of nearly every text.
    const name = longestFirst.find((key) => fold(text.slice(from, from + key.length)) === key && endsWord(text, from + key.length));
    if (name) for (const id of names.get(name)!) mentioned.add(id);
  }
  return [...mentioned];
}
