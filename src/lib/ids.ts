import { v7 as uuidv7 } from 'uuid';

// Time-ordered UUIDs keep primary-key indexes append-mostly and make ties on created_at sort
// in creation order.
export const newId = (): string => uuidv7();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The canonical (lowercase) form of a UUID, or null when the text is not one. */
export function parseUuid(text: string): string | null {
  return UUID.test(text) ? text.toLowerCase() : null;
}
