// A savepoint inside a transaction (the same SQL on SQLite and PostgreSQL): what it wrote is kept
// unless it is rolled back to, which undoes it alone, the transaction going on either way.
import { sql } from 'kysely';
import type { Executor } from './executor.js';

export const savepoint = {
  open: (tx: Executor, name: string) => sql`savepoint ${sql.id(name)}`.execute(tx),
  /** Undoes what was written since it opened, and ends it. */
  async undo(tx: Executor, name: string): Promise<void> {
    await sql`rollback to savepoint ${sql.id(name)}`.execute(tx);
    await sql`release savepoint ${sql.id(name)}`.execute(tx);
  },
};
