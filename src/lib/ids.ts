import { randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

// Time-ordered UUIDs keep primary-key indexes append-mostly and make ties on created_at sort
// in creation order.
export const newId = (): string => uuidv7();

const idsAt = { msecs: -Infinity, seq: 0 };

/**
 * A UUIDv7 of the millisecond `iso` names, for rows whose id must sort with their own
 * (clock-given) time; ids made for one millisecond in a row sort in the order they were made.
 */
export function newIdAt(iso: string): string {
  const msecs = Date.parse(iso);
  // A fresh counter starts in the lower half of its 32 bits, leaving room to count up.
  idsAt.seq = msecs === idsAt.msecs ? (idsAt.seq + 1) >>> 0 : randomInt(2 ** 31);
  idsAt.msecs = msecs;
  return uuidv7({ msecs, seq: idsAt.seq });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The canonical (lowercase) form of a UUID, or null when the text is not one. */
export function parseUuid(text: string): string | null {
  return UUID.test(text) ? text.toLowerCase() : null;
}

/**
 * The smallest UUIDv7 of the millisecond `iso` names: every UUIDv7 made before that moment sorts
 * below it (as text and as a PostgreSQL uuid), so `id < floor` bounds a time range by primary key.
 */
export function uuidv7Floor(iso: string): string {
  const hex = Math.max(0, Date.parse(iso)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}
