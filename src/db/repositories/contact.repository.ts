import { sql } from 'kysely';
import type { Executor } from './executor.js';
import type { ContactTable } from '../schema.js';

export type ContactRow = ContactTable;
export type ContactRef = Pick<ContactTable, 'id' | 'name' | 'email'>;

export function contactRepository(db: Executor) {
  return {
    async insert(row: ContactRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('contacts').values(row).execute();
    },

    /**
     * Inserts the contact, or when the workspace already has one with this email returns that one,
     * taking `row.name` when it is not null. One statement, so concurrent imports of the same
     * email never race into a unique violation.
     */
    async upsertByEmail(row: ContactRow & { email: string }, tx: Executor = db): Promise<ContactRef> {
      return tx
        .insertInto('contacts')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'email']).doUpdateSet({
            name: sql`coalesce(excluded.name, contacts.name)`,
            // updated_at moves only when the name really changes.
            updated_at: sql`case when excluded.name is not null and (contacts.name is null or contacts.name <> excluded.name)
              then excluded.updated_at else contacts.updated_at end`,
          }),
        )
        .returning(['id', 'name', 'email'])
        .executeTakeFirstOrThrow();
    },
  };
}

export type ContactRepository = ReturnType<typeof contactRepository>;
