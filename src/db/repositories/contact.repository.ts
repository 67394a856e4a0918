import { sql } from 'kysely';
import { compileOnce } from './compiled-query.js';
import type { Executor, Page, PageOf } from './executor.js';
import { countRows, readPage, type ListOrder } from './paging.js';
import type { ContactTable } from '../schema.js';

/** A new contact; the identity columns are set only for verified contacts; the keys are the repository's. */
export type ContactRow = Omit<ContactTable, 'identity_product_id' | 'external_id' | 'name_key' | 'email_key' | 'last_seen_at'>
  & Partial<Pick<ContactTable, 'identity_product_id' | 'external_id'>>;
export type ContactRef = Pick<ContactTable, 'id' | 'name' | 'email' | 'external_id'>;
const REF_COLUMNS = ['id', 'name', 'email', 'external_id'] as const;

export type ContactChanges = Partial<Pick<ContactTable, 'name' | 'email' | 'identity_product_id' | 'external_id' | 'updated_at'>>;

/** A contact as the contacts' list and detail show it. */
export type ContactProfileRow = Pick<ContactTable, 'id' | 'name' | 'email' | 'external_id' | 'created_at' | 'last_seen_at'> & { conversations_count: number };

/** The lowercase key the list's prefix filter ranges over (JavaScript's lowercase, the same in both databases). */
const keyOf = (text: string | null): string | null => (text === null ? null : text.toLowerCase());

/** The keys of whichever of name and email a write sets. */
const keysOf = (changes: { name?: string | null; email?: string | null }) => ({
  ...(changes.name !== undefined ? { name_key: keyOf(changes.name) } : {}),
  ...(changes.email !== undefined ? { email_key: keyOf(changes.email) } : {}),
});

/** The first string after every string that starts with `prefix`, in code point order (the last code point plus one). */
function afterPrefix(prefix: string): string {
  const points = [...prefix];
  const last = points.pop()!.codePointAt(0)!;
  return points.join('') + String.fromCodePoint(Math.min(last + 1, 0x10ffff));
}

const conversationsCount = sql<number>`(select count(*) from conversations c where c.workspace_id = ct.workspace_id and c.contact_id = ct.id)`
  .as('conversations_count');

const CONTACT_ORDER: ListOrder = [['ct.created_at', 'desc'], ['ct.id', 'desc']];

const PROFILE_COLUMNS = ['ct.id', 'ct.name', 'ct.email', 'ct.external_id', 'ct.created_at', 'ct.last_seen_at'] as const;

export function contactRepository(db: Executor) {
  const profiles = (tx: Executor, workspaceId: string) => tx.selectFrom('contacts as ct').where('ct.workspace_id', '=', workspaceId);
  const withCount = (row: Omit<ContactProfileRow, 'conversations_count'> & { conversations_count: unknown }): ContactProfileRow =>
    ({ ...row, conversations_count: Number(row.conversations_count ?? 0) });

  // Every message of a contact marks it seen.
  const markSeen = compileOnce(['workspaceId', 'id', 'at'], ({ workspaceId, id, at }: { workspaceId: string; id: string; at: string }) =>
    db.updateTable('contacts').set({ last_seen_at: at }).where('workspace_id', '=', workspaceId).where('id', '=', id));

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

    async findProfile(workspaceId: string, id: string, tx: Executor = db): Promise<ContactProfileRow | undefined> {
      const row = await profiles(tx, workspaceId).select(PROFILE_COLUMNS).select(conversationsCount).where('ct.id', '=', id).executeTakeFirst();
      return row && withCount(row);
    },

    /** The workspace's contacts among `ids`, as their profiles show them (in no particular order; others are simply absent). */
    async findProfiles(workspaceId: string, ids: readonly string[], tx: Executor = db): Promise<ContactProfileRow[]> {
      if (ids.length === 0) return [];
      const rows = await profiles(tx, workspaceId).select(PROFILE_COLUMNS).select(conversationsCount).where('ct.id', 'in', ids).execute();
      return rows.map(withCount);
    },

    /**
     * Newest first; `prefix` (lowercase) keeps the contacts whose name or email starts with it: two
     * ranges of the key indexes.
     */
    async list(workspaceId: string, prefix: string | undefined, page: Page, tx: Executor = db): Promise<PageOf<ContactProfileRow>> {
      let matching = profiles(tx, workspaceId);
      if (prefix) {
        const end = afterPrefix(prefix);
        matching = matching.where((eb) => eb.or([
          eb.and([eb('ct.name_key', '>=', prefix), eb('ct.name_key', '<', end)]),
          eb.and([eb('ct.email_key', '>=', prefix), eb('ct.email_key', '<', end)]),
        ]));
      }
      // The page's ids first, then the rows and their counts for those ids alone (as the issues' list).
      const found = await readPage(CONTACT_ORDER, page, () => countRows(matching), (read) =>
        read.sorted(tx.selectFrom('contacts as ct').select(PROFILE_COLUMNS).select(conversationsCount)
          .where('ct.id', 'in', read.sliced(matching.select('ct.id')))).execute());
      return { rows: found.rows.map(withCount), total: found.total };
    },

    async update(workspaceId: string, id: string, changes: ContactChanges, tx: Executor = db): Promise<void> {
      await tx.updateTable('contacts').set({ ...changes, ...keysOf(changes) }).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** The contact wrote at `at`. */
    async seen(workspaceId: string, id: string, at: string, tx: Executor = db): Promise<void> {
      await markSeen(tx, { workspaceId, id, at });
    },

    async insert(row: ContactRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('contacts').values({ ...row, ...keysOf(row) }).execute();
    },

    /**
     * Inserts the contact, or when the workspace already has one with this email returns that one;
     * `existingName` says whether a non-null `row.name` replaces its name (an import, which speaks for
     * the team) or not (mail, whose display name anybody can write). One statement, so concurrent
     * writes of the same email never race into a unique violation.
     */
    async upsertByEmail(row: ContactRow & { email: string }, existingName: 'replace' | 'keep', tx: Executor = db): Promise<ContactRef> {
      return tx
        .insertInto('contacts')
        .values({ ...row, ...keysOf(row) })
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'email']).doUpdateSet(existingName === 'keep' ? { name: sql`contacts.name` } : {
            name: sql`coalesce(excluded.name, contacts.name)`,
            name_key: sql`coalesce(excluded.name_key, contacts.name_key)`,
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
