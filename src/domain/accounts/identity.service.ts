// API-key authentication and the identity endpoints (me, members).
import type { ApiKeyRecord, ApiKeyRepository } from '../../db/repositories/api-key.repository.js';
import type { MemberRepository, MemberSettingsRow } from '../../db/repositories/member.repository.js';
import type { Page, PageOf } from '../../db/repositories/executor.js';
import type { MemberTable } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/tokens.js';
import type { Actor, Availability, Member, MemberRole } from './actor.js';
import { ianaTimeZone, normalizeSignature, type MemberSettings } from './member-settings.js';

const KEY_FORMAT = /^ldk_[0-9A-Za-z]{40}$/;
const LAST_USED_REFRESH_MS = 60_000;

const settingsOf = (row: MemberSettingsRow): MemberSettings & { availability: Availability } => ({
  signature: row.signature, time_zone: row.time_zone, notify_email: Number(row.notify_email) === 1, availability: row.availability as Availability,
});

/** The member a request acts as, for the settings that are theirs alone; a key without a member has none (400). */
function ownMember(actor: Actor): Member {
  if (actor.member) return actor.member;
  throw new AppError('validation_error', 'this API key has no member (an integration key): it has no settings of its own; use a key a member created, or a session');
}

export const toMember = (row: MemberTable): Member => ({
  id: row.id,
  user_id: row.user_id,
  role: row.role as MemberRole,
  display_name: row.display_name,
  avatar_url: row.avatar_url,
  availability: row.availability as Availability,
  created_at: row.created_at,
});

/**
 * A key acts as its member, or as the workspace itself when it was made as an integration key. A key
 * whose member is gone acts as nobody: it must never widen into an integration key (owner rank).
 */
export const actsAsSomeone = ({ key, member }: { key: Pick<ApiKeyRecord, 'integration'>; member: unknown }): boolean =>
  member !== null || key.integration === 1;

export interface IdentityServiceDeps {
  apiKeys: ApiKeyRepository;
  members: MemberRepository;
  clock: Clock;
  /** Reports a failed background write (last_used_at); it never fails the request. */
  onBackgroundError: (error: unknown) => void;
  /** After a member of the workspace came online: the conversations waiting for a free member may move. */
  onOnline: (workspaceId: string) => void;
}

export function createIdentityService({ apiKeys, members, clock, onBackgroundError, onOnline }: IdentityServiceDeps) {
  // When each key's last_used_at was last written by this process.
  const lastTouched = new Map<string, number>();

  function touchInBackground(keyId: string, storedLastUsed: string | null): void {
    const nowMs = Date.now();
    const previous = lastTouched.get(keyId) ?? (storedLastUsed ? Date.parse(storedLastUsed) : 0);
    if (nowMs - previous < LAST_USED_REFRESH_MS) return;
    lastTouched.set(keyId, nowMs);
    apiKeys.touch(keyId, clock.now()).catch(onBackgroundError);
  }

  /** The actor's identity; with a member, the member's own settings too. */
  async function me(actor: Actor) {
    const { member } = actor;
    const settings = member && (await members.settingsOf(actor.workspaceId, member.id));
    if (member && !settings) throw notFound('member');
    return {
      workspace_id: actor.workspaceId,
      api_key_id: actor.apiKeyId,
      member: member && settings
        ? { id: member.id, user_id: member.user_id, role: member.role, display_name: member.display_name, avatar_url: member.avatar_url, ...settingsOf(settings) }
        : null,
    };
  }

  return {
    /**
     * The actor for a presented key, or null when the key is malformed, unknown or revoked.
     * The key is found by its SHA-256 hash through a unique index: no secret is ever compared.
     */
    async authenticate(presentedKey: string): Promise<Actor | null> {
      if (!KEY_FORMAT.test(presentedKey)) return null;
      const found = await apiKeys.findByHash(sha256Hex(presentedKey));
      if (!found || found.key.revoked_at !== null || !actsAsSomeone(found)) return null;
      touchInBackground(found.key.id, found.key.last_used_at);
      return {
        workspaceId: found.key.workspace_id,
        apiKeyId: found.key.id,
        credentialId: found.key.id,
        readOnly: found.key.read_only === 1,
        member: found.member ? toMember(found.member) : null,
        apiKeyLabel: found.key.label,
      };
    },

    me,

    /** Changes the actor's own settings (only those given); the identity as `me` answers it after. */
    async updateMe(actor: Actor, changes: Partial<MemberSettings & { availability: Availability }>) {
      const member = ownMember(actor);
      const timeZone = changes.time_zone === undefined ? undefined : ianaTimeZone(changes.time_zone);
      const set = {
        ...(changes.signature !== undefined ? { signature: normalizeSignature(changes.signature) } : {}),
        ...(timeZone !== undefined ? { time_zone: timeZone } : {}),
        ...(changes.notify_email !== undefined ? { notify_email: changes.notify_email ? 1 : 0 } : {}),
        ...(changes.availability !== undefined ? { availability: changes.availability } : {}),
      };
      if (Object.keys(set).length > 0) await members.update(actor.workspaceId, member.id, set);
      if (changes.availability === 'online') onOnline(actor.workspaceId);
      return me(actor);
    },

    async listMembers(actor: Actor, page: Page): Promise<PageOf<Member>> {
      const { rows, total } = await members.list(actor.workspaceId, page);
      return { rows: rows.map(toMember), total };
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
