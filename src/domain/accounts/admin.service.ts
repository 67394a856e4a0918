// Workspace, member and key administration: the admin CLI and the first-start bootstrap.
import type { Db } from '../../db/database.js';
import type { ApiKeyRepository, ApiKeyRecord } from '../../db/repositories/api-key.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { WorkspaceRepository } from '../../db/repositories/workspace.repository.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { SYSTEM_ACTOR, type AuditLog } from '../audit/audit-log.js';
import { newId } from '../../lib/ids.js';
import type { AccountsLock } from './accounts-lock.js';
import type { Member, MemberRole } from './actor.js';
import { newApiKey } from './api-key.service.js';
import { toMember } from './identity.service.js';
import type { InvitationService } from './invitation.service.js';

export interface AdminServiceDeps {
  db: Db;
  accountsLock: Pick<AccountsLock, 'lock'>;
  workspaces: WorkspaceRepository;
  members: MemberRepository;
  apiKeys: ApiKeyRepository;
  ownerLinks: Pick<InvitationService, 'createOwnerLink'>;
  audit: AuditLog;
  clock: Clock;
}

export interface IssuedKey {
  id: string;
  key: string;
  workspace_id: string;
  member_id: string | null;
  read_only: boolean;
  created_at: string;
}

/** What the first start made: the key (shown once) and the owner's one-time invitation. */
export interface FirstStart {
  key: IssuedKey;
  ownerInvitation: { token: string; expires_at: string };
}

export const toKeyListing = (row: ApiKeyRecord) => ({
  id: row.id,
  label: row.label,
  workspace_id: row.workspace_id,
  member_id: row.member_id,
  read_only: row.read_only === 1,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  last_used_at: row.last_used_at,
});

export function createAdminService({ db, accountsLock, workspaces, members, apiKeys, ownerLinks, audit, clock }: AdminServiceDeps) {
  /** What the administrator of the database does is the system's doing in the audit log. */
  const bySystem = (workspaceId: string) => ({ actor: SYSTEM_ACTOR, workspaceId, request: null });

  async function requireWorkspace(workspaceId: string, tx: Executor = db): Promise<void> {
    if (!(await workspaces.exists(workspaceId, tx))) throw new AppError('not_found', `workspace ${workspaceId} not found`);
  }

  /**
   * fn inside the caller's transaction when there is one, else inside a new one, holding the
   * workspace's accounts lock (src/domain/accounts/accounts-lock.ts), once the workspace is known to exist.
   */
  const inAccountsTransaction = <T>(workspaceId: string, tx: Executor | undefined, fn: (tx: Executor) => Promise<T>): Promise<T> => {
    const locked = async (trx: Executor) => {
      await accountsLock.lock(trx, workspaceId);
      await requireWorkspace(workspaceId, trx);
      return fn(trx);
    };
    return tx ? locked(tx) : db.transaction().execute(locked);
  };

  // The creates take an optional transaction so that the first-start bootstrap is one commit.
  const service = {
    async createWorkspace(name: string, tx: Executor = db) {
      const row = { id: newId(), name, created_at: clock.now() };
      await workspaces.insert(row, tx);
      return row;
    },

    listWorkspaces() {
      return workspaces.list();
    },

    /** With an email, the user account is created or reused and linked; without, a chat-integration member. */
    async createMember(input: { workspaceId: string; name: string; role: MemberRole; email?: string }, outerTx?: Executor): Promise<Member> {
      return inAccountsTransaction(input.workspaceId, outerTx, async (tx) => {
        let userId: string | null = null;
        if (input.email !== undefined) {
          const email = input.email.trim().toLowerCase();
          const existing = await members.findUserByEmail(email, tx);
          userId = existing?.id ?? newId();
          if (!existing) await members.insertUser({ id: userId, email, name: input.name, created_at: clock.now(), password_hash: null }, tx);
        }
        const row = {
          id: newId(), workspace_id: input.workspaceId, user_id: userId, role: input.role,
          display_name: input.name, avatar_url: null, availability: 'online', created_at: clock.now(),
        };
        await members.insert(row, tx);
        await audit.record({ tx }, { ...bySystem(row.workspace_id), action: 'member.created', target_type: 'member', target_id: row.id });
        return toMember(row);
      });
    },

    /** Every member of the workspace, oldest first. */
    async listMembers(workspaceId: string): Promise<Member[]> {
      await requireWorkspace(workspaceId);
      return (await members.listAll(workspaceId)).map(toMember);
    },

    async createKey(input: { workspaceId: string; memberId?: string; readOnly?: boolean; label?: string }, outerTx?: Executor): Promise<IssuedKey> {
      return inAccountsTransaction(input.workspaceId, outerTx, async (tx) => {
        if (input.memberId !== undefined && !(await members.findById(input.workspaceId, input.memberId, tx))) {
          throw new AppError('not_found', `member ${input.memberId} not found in workspace ${input.workspaceId}`);
        }
        const { key, row } = newApiKey(
          { workspaceId: input.workspaceId, memberId: input.memberId ?? null, readOnly: input.readOnly ?? false, label: input.label ?? null }, clock.now(),
        );
        await apiKeys.insert(row, tx);
        await audit.record({ tx }, { ...bySystem(row.workspace_id), action: 'api_key.created', target_type: 'api_key', target_id: row.id });
        return { id: row.id, key, workspace_id: row.workspace_id, member_id: row.member_id, read_only: row.read_only === 1, created_at: row.created_at };
      });
    },

    async listKeys(workspaceId: string) {
      await requireWorkspace(workspaceId);
      return (await apiKeys.listByWorkspace(workspaceId)).map(toKeyListing);
    },

    /** Revokes a key (`loopdesk key revoke`); the first revocation is the system's in its workspace's audit log. */
    async revokeKey(keyId: string): Promise<{ id: string; revoked_at: string }> {
      return db.transaction().execute(async (tx) => {
        const revoked = await apiKeys.revoke(keyId, clock.now(), tx);
        if (!revoked) throw new AppError('not_found', `key ${keyId} not found`);
        if (revoked.now) await audit.record({ tx }, { ...bySystem(revoked.workspace_id), action: 'api_key.revoked', target_type: 'api_key', target_id: revoked.id });
        return { id: revoked.id, revoked_at: revoked.revoked_at };
      });
    },

    /**
     * On an empty database: workspace "Default", an owner member, one key and the owner's
     * invitation (to give the owner an email, a name and a password), in one transaction (a failure
     * half-way leaves the database empty, so the next start bootstraps again). Returns the key and
     * the invitation (each shown once), or null when the database already has a workspace.
     */
    bootstrapIfEmpty(): Promise<FirstStart | null> {
      return db.transaction().execute(async (tx) => {
        if ((await workspaces.count(tx)) > 0) return null;
        const workspace = await service.createWorkspace('Default', tx);
        const owner = await service.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' }, tx);
        const key = await service.createKey({ workspaceId: workspace.id, memberId: owner.id, label: 'bootstrap' }, tx);
        return { key, ownerInvitation: await ownerLinks.createOwnerLink(workspace.id, owner.id, tx) };
      });
    },
  };
  return service;
}

export type AdminService = ReturnType<typeof createAdminService>;
