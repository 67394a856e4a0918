import { findInWorkspace } from './compiled-query.js';
import { oldestFirstPage, type Executor, type Page, type PageOf } from './executor.js';
import type { MemberTable, UserTable } from '../schema.js';

const MEMBER_COLUMNS = ['id', 'workspace_id', 'user_id', 'role', 'display_name', 'avatar_url', 'availability', 'created_at'] as const;
const USER_COLUMNS = ['id', 'email', 'name', 'created_at', 'password_hash'] as const;
const LIST_ALL_PAGE_SIZE = 1000;

/** A member's own settings as stored (notify_email 0 or 1). */
export interface MemberSettingsRow {
  signature: string | null;
  time_zone: string | null;
  notify_email: number;
  /** `online` | `away` (docs/automation.md, "Assignment"). */
  availability: string;
}

export function memberRepository(db: Executor) {
  const list = (workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<MemberTable>> =>
    oldestFirstPage<MemberTable>(tx, 'members', MEMBER_COLUMNS, workspaceId, page);

  return {
    async insert(row: MemberTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('members').values(row).execute();
    },

    async findUserByEmail(email: string, tx: Executor = db): Promise<UserTable | undefined> {
      return tx.selectFrom('users').select(USER_COLUMNS).where('email', '=', email).executeTakeFirst();
    },

    async findUserById(id: string, tx: Executor = db): Promise<UserTable | undefined> {
      return tx.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    async insertUser(row: UserTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('users').values(row).execute();
    },

    async setPasswordHash(userId: string, passwordHash: string, tx: Executor = db): Promise<void> {
      await tx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    },

    findById: findInWorkspace<MemberTable>(db, 'members', MEMBER_COLUMNS),

    /** The member a user account is in a workspace, if any. */
    async findByUser(workspaceId: string, userId: string, tx: Executor = db): Promise<MemberTable | undefined> {
      return tx.selectFrom('members').select(MEMBER_COLUMNS).where('workspace_id', '=', workspaceId).where('user_id', '=', userId)
        .orderBy('created_at', 'asc').orderBy('id', 'asc').executeTakeFirst();
    },

    /** Every workspace membership of a user account, oldest first. */
    async membershipsOf(userId: string, tx: Executor = db): Promise<MemberTable[]> {
      return tx.selectFrom('members').select(MEMBER_COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    },

    async countOwners(workspaceId: string, tx: Executor = db): Promise<number> {
      const row = await tx.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId).where('role', '=', 'owner').executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** A member's own settings (PATCH /api/v1/me), or undefined when the member is gone. */
    async settingsOf(workspaceId: string, id: string, tx: Executor = db): Promise<MemberSettingsRow | undefined> {
      return tx.selectFrom('members').select(['signature', 'time_zone', 'notify_email', 'availability'])
        .where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    /** How a member signs a mailed reply: name, signature, time zone; undefined when they are gone. */
    async replySignerOf(workspaceId: string, id: string, tx: Executor = db): Promise<Pick<MemberTable & MemberSettingsRow, 'display_name' | 'signature' | 'time_zone'> | undefined> {
      return tx.selectFrom('members').select(['display_name', 'signature', 'time_zone'])
        .where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    async update(workspaceId: string, id: string, changes: Partial<Pick<MemberTable, 'role' | 'display_name' | 'user_id' | 'availability'> & MemberSettingsRow>, tx: Executor = db): Promise<void> {
      await tx.updateTable('members').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('members').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    list,

    /** Every member of the workspace, oldest first, read a page at a time (the admin CLI's listing). */
    async listAll(workspaceId: string, tx: Executor = db): Promise<MemberTable[]> {
      const members: MemberTable[] = [];
      for (;;) {
        const { rows } = await list(workspaceId, { limit: LIST_ALL_PAGE_SIZE, offset: members.length }, tx);
        members.push(...rows);
        if (rows.length < LIST_ALL_PAGE_SIZE) return members;
      }
    },
  };
}

export type MemberRepository = ReturnType<typeof memberRepository>;
