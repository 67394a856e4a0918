import type { Executor, Page, PageOf } from './executor.js';
import { OLDEST_FIRST, countRows, readPage } from './paging.js';
import type { InvitationTable } from '../schema.js';

const COLUMNS = ['id', 'workspace_id', 'email', 'role', 'token_hash', 'invited_by', 'member_id', 'created_at', 'expires_at', 'accepted_at'] as const;

export function invitationRepository(db: Executor) {
  /** Invitations of the workspace that can still be taken at `now`. */
  const pending = (tx: Executor, workspaceId: string, now: string) =>
    tx.selectFrom('invitations').where('workspace_id', '=', workspaceId).where('accepted_at', 'is', null).where('expires_at', '>', now);

  return {
    async insert(row: InvitationTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('invitations').values(row).execute();
    },

    async findByHash(tokenHash: string, tx: Executor = db): Promise<InvitationTable | undefined> {
      return tx.selectFrom('invitations').select(COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    async findPending(workspaceId: string, id: string, now: string, tx: Executor = db): Promise<InvitationTable | undefined> {
      return pending(tx, workspaceId, now).select(COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** Pending invitations, oldest first (id breaks ties), and how many there are. */
    async listPending(workspaceId: string, now: string, page: Page, tx: Executor = db): Promise<PageOf<InvitationTable>> {
      const matching = pending(tx, workspaceId, now);
      return readPage(OLDEST_FIRST, page, () => countRows(matching), (read) => read.sliced(matching).select(COLUMNS).execute());
    },

    /** Withdraws the workspace's earlier invitations of this email: only the newest link works. */
    async deleteUnacceptedFor(workspaceId: string, email: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('invitations').where('workspace_id', '=', workspaceId).where('email', '=', email).where('accepted_at', 'is', null).execute();
    },

    async delete(workspaceId: string, id: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('invitations').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Marks the invitation taken; false when it was taken already (a concurrent acceptance won). */
    async markAccepted(id: string, acceptedAt: string, tx: Executor = db): Promise<boolean> {
      const result = await tx.updateTable('invitations').set({ accepted_at: acceptedAt }).where('id', '=', id).where('accepted_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type InvitationRepository = ReturnType<typeof invitationRepository>;
