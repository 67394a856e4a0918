// A workspace's OpenID Connect provider and the sign-ins begun with it (docs/sso.md).
import type { Executor } from './executor.js';
import type { SsoConfigTable, SsoSignInTable } from '../schema.js';

const CONFIG_COLUMNS = [
  'workspace_id', 'issuer', 'client_id', 'client_secret', 'allowed_domains', 'default_role', 'enforce', 'created_at', 'updated_at',
] as const;
const SIGN_IN_COLUMNS = ['state_hash', 'workspace_id', 'browser_hash', 'nonce', 'code_verifier', 'redirect_uri', 'created_at', 'expires_at'] as const;
/** Expired sign-ins removed by one start, at most: the table stays small without a job of its own. */
const PURGE_BATCH = 100;

export function ssoRepository(db: Executor) {
  return {
    async find(workspaceId: string, tx: Executor = db): Promise<SsoConfigTable | undefined> {
      return tx.selectFrom('sso_configs').select(CONFIG_COLUMNS).where('workspace_id', '=', workspaceId).executeTakeFirst();
    },

    /** Whether password sign-in is off for the workspace's non-owners. */
    async enforced(workspaceId: string, tx: Executor = db): Promise<boolean> {
      const row = await tx.selectFrom('sso_configs').select('enforce').where('workspace_id', '=', workspaceId).executeTakeFirst();
      return Number(row?.enforce ?? 0) === 1;
    },

    /** The only workspace of the server, when there is exactly one. */
    async onlyWorkspace(tx: Executor = db): Promise<string | undefined> {
      const rows = await tx.selectFrom('workspaces').select('id').limit(2).execute();
      return rows.length === 1 ? rows[0].id : undefined;
    },

    async upsert(row: SsoConfigTable, tx: Executor = db): Promise<void> {
      const { workspace_id: _key, created_at: _created, ...changes } = row;
      await tx.insertInto('sso_configs').values(row).onConflict((c) => c.column('workspace_id').doUpdateSet(changes)).execute();
    },

    /** Removes the workspace's provider and the sign-ins begun with it; whether there was one. */
    async delete(workspaceId: string, tx: Executor = db): Promise<boolean> {
      await tx.deleteFrom('sso_sign_ins').where('workspace_id', '=', workspaceId).execute();
      const result = await tx.deleteFrom('sso_configs').where('workspace_id', '=', workspaceId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Records a begun sign-in, and forgets a batch of expired ones. */
    async beginSignIn(row: SsoSignInTable, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('sso_sign_ins')
        .where('state_hash', 'in', (eb) => eb.selectFrom('sso_sign_ins').select('state_hash').where('expires_at', '<=', row.created_at).limit(PURGE_BATCH))
        .execute();
      await tx.insertInto('sso_sign_ins').values(row).execute();
    },

    /** Takes the sign-in of this state: at most one caller ever gets it (the row is deleted), expired or not. */
    async takeSignIn(stateHash: string, tx: Executor = db): Promise<SsoSignInTable | undefined> {
      const rows = await tx.deleteFrom('sso_sign_ins').where('state_hash', '=', stateHash).returning(SIGN_IN_COLUMNS).execute();
      return rows[0];
    },
  };
}

export type SsoRepository = ReturnType<typeof ssoRepository>;
