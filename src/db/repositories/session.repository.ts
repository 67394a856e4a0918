import type { Executor } from './executor.js';
import type { MemberTable, SessionTable } from '../schema.js';

export interface ResolvedSession {
  session: SessionTable;
  member: MemberTable;
}

export function sessionRepository(db: Executor) {
  return {
    async insert(row: SessionTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('sessions').values(row).execute();
    },

    /** The unrevoked session with this token hash and its member, in one round trip. */
    async findActiveByHash(tokenHash: string, tx: Executor = db): Promise<ResolvedSession | undefined> {
      const row = await tx
        .selectFrom('sessions as s')
        .innerJoin('members as m', (join) => join.onRef('m.id', '=', 's.member_id').onRef('m.workspace_id', '=', 's.workspace_id'))
        .select([
          's.id', 's.token_hash', 's.workspace_id', 's.member_id', 's.created_at', 's.last_used_at', 's.expires_at', 's.revoked_at',
          'm.user_id as m_user_id', 'm.role as m_role', 'm.display_name as m_display_name', 'm.avatar_url as m_avatar_url', 'm.availability as m_availability',
          'm.created_at as m_created_at',
        ])
        .where('s.token_hash', '=', tokenHash)
        .where('s.revoked_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      const { m_user_id, m_role, m_display_name, m_avatar_url, m_availability, m_created_at, ...session } = row;
      return {
        session,
        member: {
          id: session.member_id, workspace_id: session.workspace_id, user_id: m_user_id, role: m_role, display_name: m_display_name,
          avatar_url: m_avatar_url, availability: m_availability, created_at: m_created_at,
        },
      };
    },

    /** The unrevoked session with this id (expired or not: the caller compares expires_at). */
    async findActiveById(id: string, tx: Executor = db): Promise<Pick<SessionTable, 'id' | 'member_id' | 'expires_at'> | undefined> {
      return tx.selectFrom('sessions').select(['id', 'member_id', 'expires_at']).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    },

    async extend(id: string, lastUsedAt: string, expiresAt: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('sessions').set({ last_used_at: lastUsedAt, expires_at: expiresAt }).where('id', '=', id).execute();
    },

    async revoke(id: string, revokedAt: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('sessions').set({ revoked_at: revokedAt }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },

    async revokeForMember(memberId: string, revokedAt: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('sessions').set({ revoked_at: revokedAt }).where('member_id', '=', memberId).where('revoked_at', 'is', null).execute();
    },

    /** Revokes every session of the user account, in every workspace, except `keepId`. */
    async revokeForUser(userId: string, keepId: string, revokedAt: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('sessions').set({ revoked_at: revokedAt })
        .where('member_id', 'in', (eb) => eb.selectFrom('members').select('id').where('user_id', '=', userId))
        .where('id', '!=', keepId)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}

export type SessionRepository = ReturnType<typeof sessionRepository>;
