// The PATCH rule shared by every resource: only effective changes are written, and they are
// compared and written under the row's transaction lock.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { Clock } from '../../lib/clock.js';
import { holdLock, inTransaction, type Work } from './unit-of-work.js';

/**
 * The entries of `wanted` that differ from `current`: what an update really changes. Callers
 * set `updated_at` only when this is non-empty ("updated_at changes only on an effective change").
 */
export function effectiveChanges<T extends object>(current: T, wanted: Partial<T>): Partial<T> | null {
  const changes = Object.fromEntries(
    Object.entries(wanted).filter(([field, value]) => value !== undefined && current[field as keyof T] !== value),
  ) as Partial<T>;
  return Object.keys(changes).length > 0 ? changes : null;
}

export interface LockedUpdate<Row, Changes> {
  /** The row's lock, e.g. `issue:<id>`. */
  lockKey: string;
  /** Reads the row inside the transaction, after the lock is held. */
  read(tx: Executor): Promise<Row>;
  wanted: Changes;
  /** Writes the effective changes, `updated_at` already set; may throw to roll back. */
  write(work: Work, current: Row, changes: Changes): Promise<void>;
}

/**
 * Reads, compares and writes under the row's lock: concurrent PATCHes of one row apply one after
 * the other, each against the state the previous one left, so the last to commit wins whole and
 * updated_at follows the commit order. `changes` is null when nothing would change.
 */
export async function updateUnderLock<Row extends Changes, Changes extends { updated_at?: string }>(
  { db, dialect, clock }: { db: Db; dialect: Pick<Dialect, 'lockKeyInTransaction'>; clock: Clock },
  { lockKey, read, wanted, write }: LockedUpdate<Row, Changes>,
): Promise<{ current: Row; changes: Changes | null }> {
  return inTransaction(db, async (work) => {
    await holdLock(dialect, work, lockKey);
    const current = await read(work.tx);
    const changes = effectiveChanges<Changes>(current, wanted) as Changes | null;
    if (!changes) return { current, changes };
    changes.updated_at = clock.now();
    await write(work, current, changes);
    return { current, changes };
  });
}

/** The old values, as the API shows them, of the fields a change touches: an `*.updated` event's `previous`. */
export const previousOf = (shown: object, changes: object): Record<string, unknown> =>
  Object.fromEntries(Object.keys(changes).map((field) => [field, (shown as Record<string, unknown>)[field]]));
