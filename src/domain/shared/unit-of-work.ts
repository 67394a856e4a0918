// One transaction and the work that must wait for its commit (indexing a new issue's text, say):
// what a write unit registers with `afterCommit` runs once the data is committed, never when the
// transaction rolls back.
import type { Db } from '../../db/database.js';
import type { Executor } from '../../db/repositories/executor.js';

export interface Work {
  readonly tx: Executor;
  afterCommit(task: () => void): void;
}

export async function inTransaction<T>(db: Db, body: (work: Work) => Promise<T>): Promise<T> {
  const committed: (() => void)[] = [];
  const result = await db.transaction().execute((tx) => body({ tx, afterCommit: (task) => committed.push(task) }));
  for (const task of committed) task();
  return result;
}
