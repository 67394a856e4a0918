import { findInWorkspace } from './compiled-query.js';
import { oldestFirstPage, type Executor, type Page, type PageOf } from './executor.js';
import type { MemberTable, UserTable } from '../schema.js';

const MEMBER_COLUMNS = ['id', 'workspace_id', 'user_id', 'role', 'display_name', 'avatar_url', 'created_at'] as const;
const LIST_ALL_PAGE_SIZE = 1000;

export function memberRepository(db: Executor) {
  const list = (workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<MemberTable>> =>
    oldestFirstPage<MemberTable>(tx, 'members', MEMBER_COLUMNS, workspaceId, page);

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
