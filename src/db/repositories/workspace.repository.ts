import type { Executor } from './executor.js';
import type { WorkspaceTable } from '../schema.js';

export function workspaceRepository(db: Executor) {
  return {
    async insert(row: WorkspaceTable, tx: Executor = db): Promise<void> {
      await tx.insertInto('workspaces').values(row).execute();
    },

    async findById(id: string, tx: Executor = db): Promise<WorkspaceTable | undefined> {
      return tx.selectFrom('workspaces').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
    },

    async exists(id: string, tx: Executor = db): Promise<boolean> {
      const row = await tx.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },

    /** Every workspace, oldest first (id breaks ties). */
    async list(tx: Executor = db): Promise<WorkspaceTable[]> {
      return tx.selectFrom('workspaces').select(['id', 'name', 'created_at']).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    },

    async count(tx: Executor = db): Promise<number> {
      const row = await tx.selectFrom('workspaces').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type WorkspaceRepository = ReturnType<typeof workspaceRepository>;
