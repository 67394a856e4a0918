// One transaction and the work that must wait for its commit (indexing a new issue's text, say):
// what a write unit registers with `afterCommit` runs once the data is committed, never when the
// transaction rolls back. It also knows the named locks the transaction holds, so a write that
// needs one can check it was taken.
import type { Db } from '../../db/database.js';
import { isDeadlockVictim, type Dialect } from '../../db/dialect.js';
import type { Executor } from '../../db/repositories/executor.js';
import { savepoint } from '../../db/repositories/savepoint.js';
import type { EventActor } from '../../events/event-types.js';

export interface Work {
  readonly tx: Executor;
  /** The keys of the locks `holdLock` took: held until the transaction ends. */
  readonly locks: Set<string>;
  afterCommit(task: () => void): void;
  /** [ext] Who the events of this transaction say made the change, when it was not a request's own write (a rule, a macro). */
  readonly actor?: EventActor;
  /**
   * Reads the write units of a transaction share when it asked for them (`sharedReads`: a rule
   * job's runs, several writes of one conversation in a row), by key: what only writes made
   * through those units change within it (a unit's write drops what it changed). A savepoint works
   * on a copy, kept when its body returns and dropped when it is rolled back.
   */
  readonly shared?: Map<string, unknown>;
  /**
   * Rows written once, at the end of the transaction (`stage`), by kind: the events a transaction
   * records, in one insert and one announcement however many writes recorded them. A savepoint
   * stages on its own, joined to its transaction's when its body returns, dropped when rolled back.
   */
  readonly staged: Map<string, Staged>;
}

interface Staged {
  readonly items: unknown[];
  readonly write: (work: Work, items: readonly unknown[]) => Promise<void>;
}

/**
 * Adds `items` to the rows of kind `key` that `write` writes at the end of the transaction, after
 * everything before them was staged (`flushStaged`: its body's end, or earlier when a write must
 * see them), with the Work flushing them (the transaction's own: its after-commit tasks). Only
 * rows nothing in the transaction reads back: their ids and times are chosen when staged.
 */
export function stage<T>(work: Work, key: string, items: readonly T[], write: (work: Work, items: readonly T[]) => Promise<void>): void {
  const staged = work.staged.get(key);
  if (staged) staged.items.push(...items);
  else work.staged.set(key, { items: [...items], write: write as Staged['write'] });
}

/** Writes what `work` staged, kind by kind in the order first staged, and forgets it. */
export async function flushStaged(work: Work): Promise<void> {
  for (const [key, { items, write }] of work.staged) {
    work.staged.delete(key);
    await write(work, items);
  }
}

/** `read` once per transaction sharing its reads (`Work.shared`), under `key`; at every call otherwise. */
export function sharedRead<T>(work: Work, key: string, read: () => Promise<T>): Promise<T> {
  if (!work.shared) return read();
  let value = work.shared.get(key) as Promise<T> | undefined;
  if (!value) work.shared.set(key, (value = read()));
  return value;
}

/**
 * How many times a transaction PostgreSQL chose to end a deadlock is run: rolled back, it changed
 * nothing, and run again once the others have committed it nearly always goes through.
 */
const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs `body` in one transaction, then what it registered with `afterCommit`. A deadlock's victim
 * runs again from the start (a new transaction and Work): nothing of a rolled-back run is kept, so
 * a body does only database work, leaving the rest to `afterCommit`.
 */
export async function inTransaction<T>(
  db: Db, body: (work: Work) => Promise<T>, { actor, sharedReads = false }: { actor?: EventActor; sharedReads?: boolean } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const committed: (() => void)[] = [];
    let result: T;
    try {
      result = await db.transaction().execute(async (tx) => {
        const work: Work = {
          tx, locks: new Set(), afterCommit: (task) => committed.push(task), staged: new Map(), ...(actor && { actor }), ...(sharedReads && { shared: new Map() }),
        };
        const value = await body(work);
        await flushStaged(work);
        return value;
      });
    } catch (error) {
      if (attempt < DEADLOCK_ATTEMPTS && isDeadlockVictim(error)) continue;
      throw error;
    }
    for (const task of committed) task();
    return result;
  }
}

/** Takes a named lock until the transaction ends (once: a second call for a key held returns at once). */
export async function holdLock(dialect: Pick<Dialect, 'lockKeyInTransaction'>, work: Work, key: string): Promise<void> {
  if (work.locks.has(key)) return;
  await dialect.lockKeyInTransaction(work.tx, key);
  work.locks.add(key);
}

/**
 * Takes the named locks not held yet, in one statement and in sorted order: every transaction that
 * takes several locks of a kind takes them in that order, so none waits on another in a circle.
 */
export async function holdLocks(dialect: Pick<Dialect, 'lockKeysInTransaction'>, work: Work, keys: Iterable<string>): Promise<void> {
  const wanted = [...new Set(keys)].filter((key) => !work.locks.has(key)).sort();
  if (wanted.length === 0) return;
  await dialect.lockKeysInTransaction(work.tx, wanted);
  for (const key of wanted) work.locks.add(key);
}

/** Savepoints this process opened: each its own name. */
let savepointsOpened = 0;

/**
 * Runs `body` in a savepoint of `work`'s transaction, as a Work of its own whose events carry
 * `actor`: when it returns, its writes, the locks it took and its after-commit tasks join the
 * transaction's; when it throws, its writes are undone alone (the transaction goes on), its tasks
 * and shared reads dropped, and the error rethrown.
 */
export async function inSavepoint<T>(work: Work, body: (inner: Work) => Promise<T>, { actor }: { actor?: EventActor } = {}): Promise<T> {
  // A name of its own: one that returned is not released (its writes are kept all the same, and the
  // transaction's end releases it: a round trip spared), and a rollback to this one must not stop
  // at a savepoint a body opened inside it.
  const name = `unit_${++savepointsOpened}`;
  const locks = new Set(work.locks);
  const committed: (() => void)[] = [];
  const shared = work.shared && new Map(work.shared);
  const staged = new Map<string, Staged>();
  await savepoint.open(work.tx, name);
  let result: T;
  try {
    result = await body({ tx: work.tx, locks, afterCommit: (task) => committed.push(task), staged, ...(actor && { actor }), ...(shared && { shared }) });
  } catch (error) {
    await savepoint.undo(work.tx, name);
    throw error;
  }
  for (const key of locks) work.locks.add(key);
  if (shared) {
    work.shared!.clear();
    for (const [key, value] of shared) work.shared!.set(key, value);
  }
  for (const [key, { items, write }] of staged) stage(work, key, items, write);
  for (const task of committed) work.afterCommit(task);
  return result;
}
