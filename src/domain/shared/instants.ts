// Instants a request sends (a release's released_at, a conversation's snoozed_until), stored in one
// canonical form: UTC, milliseconds, `Z`, whatever offset was sent.
import { invalidField } from '../../errors.js';

/**
 * The instant `value` names, canonical. The date-time format admits instants JavaScript cannot
 * represent (a leap second) and years PostgreSQL refuses (0000, or 10000 once the offset is
 * applied): those are validation errors of `field`.
 */
export function canonicalInstant(field: string, value: string): string {
  const time = new Date(value);
  const year = time.getUTCFullYear();
  if (Number.isNaN(time.getTime()) || year < 1 || year > 9999) {
    throw invalidField(field, 'must be a date-time from year 0001 to 9999 (UTC), without a leap second');
  }
  return time.toISOString();
}
