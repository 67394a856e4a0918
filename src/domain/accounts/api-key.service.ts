// API keys (docs/api.md "Authentication"): `ldk_` + 40 base62 characters, only the SHA-256 stored,
// the key shown once. Created by the admin CLI and, as a settings operation, by [ext]
// /api/v1/api-keys, where a key may act as any member up to the caller's rank: only owner rank
// (src/domain/accounts/roles.ts) makes keys of owners or keys without a member (integration keys, which hold
// settings power themselves).
import type { ApiKeyRecord, ApiKeyRepository } from '../../db/repositories/api-key.repository.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { ApiKeyTable } from '../../db/schema.js';
import { invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditLog } from '../audit/audit-log.js';
import { newId, parseUuid } from '../../lib/ids.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import type { AccountsLock } from './accounts-lock.js';
import type { Actor, MemberRole } from './actor.js';
import { requireOwnerRankFor, requireSettingsRole } from './roles.js';

/** A new key and the row that stores its hash. */
export function newApiKey(input: { workspaceId: string; memberId: string | null; readOnly: boolean; label: string | null }, now: string) {
  const key = randomToken('ldk_', 40);
  const row: ApiKeyTable = {
    id: newId(), workspace_id: input.workspaceId, member_id: input.memberId, label: input.label, key_hash: sha256Hex(key),
    read_only: input.readOnly ? 1 : 0, integration: input.memberId === null ? 1 : 0, created_at: now, revoked_at: null, last_used_at: null,
  };
  return { key, row };
}

export interface ApiKeyListing {
  id: string;
  label: string | null;
  read_only: boolean;
  member_id: string | null;
  created_at: string;
  last_used_at: string | null;
}

export type CreatedApiKey = Omit<ApiKeyListing, 'last_used_at'> & { key: string };

const toListing = (row: ApiKeyRecord): ApiKeyListing => ({
  id: row.id, label: row.label, read_only: row.read_only === 1, member_id: row.member_id, created_at: row.created_at, last_used_at: row.last_used_at,
});

export interface ApiKeyServiceDeps {
  accountsLock: Pick<AccountsLock, 'settingsWrite'>;
  apiKeys: ApiKeyRepository;
  members: MemberRepository;
  audit: AuditLog;
  clock: Clock;
}

export function createApiKeyService({ accountsLock, apiKeys, members, audit, clock }: ApiKeyServiceDeps) {
  /** The role of the member a key acts as; null for a key without a member. */
  async function roleOf(workspaceId: string, memberId: string | null, tx?: Executor): Promise<MemberRole | null> {
    if (memberId === null) return null;
    return ((await members.findById(workspaceId, memberId, tx))?.role as MemberRole | undefined) ?? null;
  }

  async function findActive(actor: Actor, id: string, tx?: Executor): Promise<ApiKeyRecord> {
    requireSettingsRole(actor);
    const keyId = parseUuid(id);
    const row = keyId ? await apiKeys.findActive(actor.workspaceId, keyId, tx) : undefined;
    if (!row) throw notFound('API key');
    return row;
  }

  return {
    findActive,

    /**
     * `member_id` omitted: the caller's own member (none for an integration key); null: a key
     * without a member. The member is read under the accounts lock, so it cannot be removed before
     * the key is committed.
     */
    async create(asked: Actor, input: { label?: string | null; read_only?: boolean; member_id?: string | null }): Promise<CreatedApiKey> {
      return accountsLock.settingsWrite(asked, async (work, actor) => {
        const { tx } = work;
        const requested = input.member_id === undefined ? (actor.member?.id ?? null) : input.member_id;
        const memberId = requested === null ? null : parseUuid(requested);
        const role = await roleOf(actor.workspaceId, memberId, tx);
        if (requested !== null && role === null) throw invalidField('member_id', 'is not a member of this workspace');
        requireOwnerRankFor(actor, role, memberId === null ? 'create a key without a member' : 'create a key for an owner');
        const { key, row } = newApiKey({ workspaceId: actor.workspaceId, memberId, readOnly: input.read_only ?? false, label: input.label ?? null }, clock.now());
        await apiKeys.insert(row, tx);
        await audit.record(work, { actor, action: 'api_key.created', target_type: 'api_key', target_id: row.id });
        return { id: row.id, key, label: row.label, read_only: row.read_only === 1, member_id: row.member_id, created_at: row.created_at };
      });
    },

    /** The workspace's keys that still work, oldest first; never the keys themselves. */
    async list(actor: Actor, page: Page): Promise<PageOf<ApiKeyListing>> {
      requireSettingsRole(actor);
      const { rows, total } = await apiKeys.listActive(actor.workspaceId, page);
      return { rows: rows.map(toListing), total };
    },

    async revoke(asked: Actor, id: string): Promise<void> {
      await accountsLock.settingsWrite(asked, async (work, actor) => {
        const { tx } = work;
        const row = await findActive(actor, id, tx);
        requireOwnerRankFor(actor, await roleOf(actor.workspaceId, row.member_id, tx), row.member_id ? 'revoke an owner\'s key' : 'revoke a key without a member');
        await apiKeys.revoke(row.id, clock.now(), tx);
        await audit.record(work, { actor, action: 'api_key.revoked', target_type: 'api_key', target_id: row.id });
      });
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
