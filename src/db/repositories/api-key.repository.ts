import type { Executor, Page, PageOf } from './executor.js';
import { OLDEST_FIRST, countRows, readPage } from './paging.js';
import type { ApiKeyTable, MemberTable } from '../schema.js';

const KEY_COLUMNS = [
  'id', 'workspace_id', 'member_id', 'label', 'read_only', 'integration', 'created_at', 'revoked_at', 'last_used_at',
] as const;

export type ApiKeyRecord = Omit<ApiKeyTable, 'key_hash'>;

export interface ResolvedKey {
  key: ApiKeyRecord;
  member: MemberTable | null;
}

export function apiKeyRepository(db: Executor) {
  // Every request authenticates, and building and compiling this query with Kysely cost more
  // than running it (docs/benchmarks.md): it is compiled once; only the hash parameter varies.
  const byHash = db
    .selectFrom('api_keys as k')
    .leftJoin('members as m', (join) => join.onRef('m.id', '=', 'k.member_id').onRef('m.workspace_id', '=', 'k.workspace_id'))
    .select([
      'k.id', 'k.workspace_id', 'k.member_id', 'k.label', 'k.read_only', 'k.integration', 'k.created_at', 'k.revoked_at', 'k.last_used_at',
      'm.id as m_id', 'm.user_id as m_user_id', 'm.role as m_role', 'm.display_name as m_display_name',
      'm.avatar_url as m_avatar_url', 'm.availability as m_availability', 'm.created_at as m_created_at',
    ])
    .where('k.key_hash', '=', '')
    .compile();

  return {
    async insert(row: ApiKeyTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('api_keys').values(row).execute();
    },

    /** The key with this hash and the member tied to it, in one round trip. */
    async findByHash(keyHash: string, tx: Executor = db): Promise<ResolvedKey | undefined> {
      const query: typeof byHash = { ...byHash, parameters: [keyHash] };
      const { rows: [row] } = await tx.executeQuery(query);
      if (!row) return undefined;
      const { m_id, m_user_id, m_role, m_display_name, m_avatar_url, m_availability, m_created_at, ...key } = row;
      const member = m_id
        ? {
            id: m_id, workspace_id: key.workspace_id, user_id: m_user_id, role: m_role!, display_name: m_display_name,
            avatar_url: m_avatar_url, availability: m_availability!, created_at: m_created_at!,
          }
        : null;
      return { key, member };
    },

    async listByWorkspace(workspaceId: string, tx: Executor = db): Promise<ApiKeyRecord[]> {
      return tx
        .selectFrom('api_keys')
        .select(KEY_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },

    /** The workspace's keys that still work, oldest first (id breaks ties), and how many there are. */
    async listActive(workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<ApiKeyRecord>> {
      const active = tx.selectFrom('api_keys').where('workspace_id', '=', workspaceId).where('revoked_at', 'is', null);
      return readPage(OLDEST_FIRST, page, () => countRows(active), (read) => read.sliced(active).select(KEY_COLUMNS).execute());
    },

    async findActive(workspaceId: string, id: string, tx: Executor = db): Promise<ApiKeyRecord | undefined> {
      return tx.selectFrom('api_keys').select(KEY_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id)
        .where('revoked_at', 'is', null).executeTakeFirst();
    },

    /** Revokes every key of the member that still works. */
    async revokeForMember(workspaceId: string, memberId: string, revokedAt: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('workspace_id', '=', workspaceId).where('member_id', '=', memberId)
        .where('revoked_at', 'is', null).execute();
    },

    /** The key revoked (`now`: by this call; revoking twice keeps the first revocation time). */
    async revoke(id: string, revokedAt: string, tx: Executor = db): Promise<{ id: string; workspace_id: string; revoked_at: string; now: boolean } | undefined> {
      const { numUpdatedRows } = await tx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
      const row = await tx.selectFrom('api_keys').select(['id', 'workspace_id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
      return row ? { id: row.id, workspace_id: row.workspace_id, revoked_at: row.revoked_at!, now: numUpdatedRows > 0n } : undefined;
    },

    async touch(id: string, usedAt: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('api_keys').set({ last_used_at: usedAt }).where('id', '=', id).execute();
    },
  };
}

export type ApiKeyRepository = ReturnType<typeof apiKeyRepository>;
