import { findInWorkspace } from './compiled-query.js';
import { oldestFirstPage, type Executor, type Page, type PageOf } from './executor.js';
import type { MemberTable, UserTable } from '../schema.js';

const MEMBER_COLUMNS = ['id', 'workspace_id', 'user_id', 'role', 'display_name', 'avatar_url', 'created_at'] as const;

export function memberRepository(db: Executor) {
  return {
    async insert(row: MemberTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('members').values(row).execute();
    },

    async findUserByEmail(email: string, tx: Executor = db): Promise<UserTable | undefined> {
      return tx.selectFrom('users').select(['id', 'email', 'name', 'created_at']).where('email', '=', email).executeTakeFirst();
    },

    async insertUser(row: UserTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('users').values(row).execute();
    },

    findById: findInWorkspace<MemberTable>(db, 'members', MEMBER_COLUMNS),

    async list(workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<MemberTable>> {
      return oldestFirstPage<MemberTable>(tx, 'members', MEMBER_COLUMNS, workspaceId, page);
    },
  };
}

export type MemberRepository = ReturnType<typeof memberRepository>;
