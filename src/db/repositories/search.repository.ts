// Full-text search (the dialect's, src/db/full-text.ts) and the records of the contacts it finds.
import type { FullTextQuery, FullTextSearch } from '../full-text.js';
import type { Executor } from './executor.js';
import type { ContactTable } from '../schema.js';

/** A contact with what its profile shows besides its own columns. */
export type SearchContactRow = Pick<ContactTable, 'id' | 'name' | 'email' | 'external_id' | 'created_at'> & {
  /** When the contact last wrote a message; null when never. */
  last_seen_at: string | null;
  conversations_count: number;
};

export function searchRepository(db: Executor, fullText: FullTextSearch) {
  return {
    search: (query: FullTextQuery, tx: Executor = db) => fullText.search(tx, query),

    /** The workspace's contacts among `ids` (in no particular order; others are simply absent). */
    async findContacts(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<SearchContactRow[]> {
      if (ids.length === 0) return [];
      const rows = await tx
        .selectFrom('contacts as ct')
        .where('ct.workspace_id', '=', workspaceId)
        .where('ct.id', 'in', ids)
        .select(['ct.id', 'ct.name', 'ct.email', 'ct.external_id', 'ct.created_at'])
        .select((eb) => eb
          .selectFrom('conversations as c')
          .whereRef('c.contact_id', '=', 'ct.id')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .as('conversations_count'))
        .select((eb) => eb
          .selectFrom('conversations as c')
          .innerJoin('messages as m', 'm.conversation_id', 'c.id')
          .whereRef('c.contact_id', '=', 'ct.id')
          .where('m.sender_type', '=', 'contact')
          .select((inner) => inner.fn.max('m.created_at').as('t'))
          .as('last_seen_at'))
        .execute();
      return rows.map((row) => ({ ...row, last_seen_at: row.last_seen_at ?? null, conversations_count: Number(row.conversations_count ?? 0) }));
    },
  };
}

export type SearchRepository = ReturnType<typeof searchRepository>;
