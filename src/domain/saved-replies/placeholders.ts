// The placeholders a saved reply may hold, filled when it is posted (docs/inbox.md):
// {{contact.name}}, {{contact.first_name}}, {{agent.name}} and {{product.name}}, spaces inside the
// braces allowed. A value that is missing becomes empty; anything else in braces stays as written.

export const PLACEHOLDERS = ['contact.name', 'contact.first_name', 'agent.name', 'product.name'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export interface PlaceholderSources {
  contactName: string | null;
  /** The posting member's display name; null for a key without a member. */
  agentName: string | null;
  productName: string;
}

/** The first word of a name ("Ada" of "Ada Lovelace"). */
const firstWord = (name: string) => name.trim().split(/\s+/u)[0] ?? '';

/**
 * A Map, not an object: a name in braces is looked up among these keys alone, so `{{constructor}}`
 * or `{{__proto__}}` finds nothing and stays as written instead of printing an object's internals.
 */
export function placeholderValues({ contactName, agentName, productName }: PlaceholderSources): ReadonlyMap<Placeholder, string> {
  return new Map<Placeholder, string>([
    ['contact.name', contactName?.trim() ?? ''],
    ['contact.first_name', contactName ? firstWord(contactName) : ''],
    ['agent.name', agentName?.trim() ?? ''],
    ['product.name', productName],
  ]);
}

const PLACEHOLDER = /\{\{\s*([a-z_.]+)\s*\}\}/g;

export function fillPlaceholders(text: string, values: ReadonlyMap<Placeholder, string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values.get(name as Placeholder) ?? whole);
}
