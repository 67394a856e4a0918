// A contact's name, whichever way it comes in (mail, the widget, an identity token, the API): on one
// line, without control characters or bidi overrides (src/lib/one-line.ts), trimmed. A name that
// sends a reply's `To` over two lines, or reads backwards in the inbox, is never stored.
import { invalidField } from '../../errors.js';
import { oneLine } from '../../lib/one-line.js';

/** The name as stored; null when there is none or nothing is left of it (where a blank name means no name). */
export const contactName = (name: string | null | undefined): string | null => (name ? oneLine(name) || null : null);

/** A name the contract says must not be blank (the widget's `name`, an import's `contact.name`): refused when nothing is left of it. */
export function nonBlankContactName(field: string, name: string | null | undefined): string | null {
  const stored = contactName(name);
  if (stored === null && name !== undefined && name !== null) throw invalidField(field, 'must not be blank');
  return stored;
}
