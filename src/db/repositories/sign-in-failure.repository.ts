import type { Executor } from './executor.js';

export function signInFailureRepository(db: Executor) {
  return {
    async record(row: { id: string; email: string; failed_at: string }, tx: Executor = db): Promise<void> {
      await tx.insertInto('sign_in_failures').values(row).execute();
    },

    /** When the email's sign-ins failed since `since`, oldest first. */
    async since(email: string, since: string, tx: Executor = db): Promise<string[]> {
      const rows = await tx.selectFrom('sign_in_failures').select('failed_at').where('email', '=', email).where('failed_at', '>', since)
        .orderBy('failed_at', 'asc').execute();
      return rows.map((row) => row.failed_at);
    },

    async withdraw(id: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('sign_in_failures').where('id', '=', id).execute();
    },

    /** Forgets failures too old to matter to any lockout. */
    async purgeBefore(before: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('sign_in_failures').where('failed_at', '<', before).execute();
    },
  };
}

export type SignInFailureRepository = ReturnType<typeof signInFailureRepository>;
