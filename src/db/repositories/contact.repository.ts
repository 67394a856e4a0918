import { sql } from 'kysely';
import type { Executor } from './executor.js';
import type { ContactTable } from '../schema.js';

/** A new contact; the identity columns are set only for verified contacts. */
export type ContactRow = Omit<ContactTable, 'identity_product_id' | 'external_id'> & Partial<Pick<ContactTable, 'identity_product_id' | 'external_id'>>;
export type ContactRef = Pick<ContactTable, 'id' | 'name' | 'email' | 'external_id'>;
const REF_COLUMNS = ['id', 'name', 'email', 'external_id'] as const;

export type ContactChanges = Partial<Pick<ContactTable, 'name' | 'email' | 'identity_product_id' | 'external_id' | 'updated_at'>>;

export function contactRepository(db: Executor) {
  return {
    /** The verified contact a product's identity secret vouched for under the host site's user id. */
    async findByIdentity(workspaceId: string, productId: string, externalId: string, tx: Executor = db): Promise<ContactRef | undefined> {
      return tx
        .selectFrom('contacts')
        .select(REF_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('identity_product_id', '=', productId)
        .where('external_id', '=', externalId)
        .executeTakeFirst();
    },

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<ContactRef | undefined> {
      return tx.selectFrom('contacts').select(REF_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    async findByEmail(workspaceId: string, email: string, tx: Executor = db): Promise<ContactRef | undefined> {
      return tx.selectFrom('contacts').select(REF_COLUMNS).where('workspace_id', '=', workspaceId).where('email', '=', email).executeTakeFirst();
    },

    async update(workspaceId: string, id: string, changes: ContactChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('contacts').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

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
        .returning(REF_COLUMNS)
        .executeTakeFirstOrThrow();
    },
  };
}

export type ContactRepository = ReturnType<typeof contactRepository>;
