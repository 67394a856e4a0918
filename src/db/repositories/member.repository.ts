import type { Executor, Page, PageOf } from './executor.js';
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

    async findById(workspaceId: string, id: string, tx: Executor = db): Promise<MemberTable | undefined> {
      return tx
        .selectFrom('members')
        .select(MEMBER_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async list(workspaceId: string, page: Page, tx: Executor = db): Promise<PageOf<MemberTable>> {
      const [rows, count] = await Promise.all([
        tx
          .selectFrom('members')
          .select(MEMBER_COLUMNS)
          .where('workspace_id', '=', workspaceId)
          .orderBy('created_at', 'asc')
          .orderBy('id', 'asc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        tx
          .selectFrom('members')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
  };
}

export type MemberRepository = ReturnType<typeof memberRepository>;
