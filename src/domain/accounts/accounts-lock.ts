// Who may do what to a workspace's accounts is decided on rows the deciding transaction holds.
// Every write to a workspace's members, API keys, invitations and sessions takes the workspace's
// accounts lock first (a PostgreSQL advisory lock for the transaction; on SQLite a transaction
// already excludes every other), and a settings write then reads again who is asking: the key or
// session may have been revoked, its member removed or demoted, since the request was
// authenticated. So two such writes never interleave: a key is never created for a member being
// removed, a removed admin never removes anyone, and a workspace never loses its last owner.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { ApiKeyRepository } from '../../db/repositories/api-key.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { SessionRepository } from '../../db/repositories/session.repository.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { inTransaction, type Work } from '../shared/unit-of-work.js';
import type { Actor } from './actor.js';
import { toMember } from './identity.service.js';
import { requireSettingsRole } from './roles.js';

export interface AccountsLockDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction'>;
  apiKeys: Pick<ApiKeyRepository, 'findActive'>;
  sessions: Pick<SessionRepository, 'findActiveById'>;
  members: Pick<MemberRepository, 'findById'>;
  clock: Clock;
}

export function createAccountsLock({ db, dialect, apiKeys, sessions, members, clock }: AccountsLockDeps) {
  const ended = () => new AppError('unauthorized', 'this credential was revoked, or its member removed, while the request ran');

  /** The member the actor's credential acts as now (undefined: the credential no longer acts as anyone). */
  async function currentMemberId(actor: Actor, tx: Executor): Promise<string | null | undefined> {
    if (actor.apiKeyId !== null) {
      const key = await apiKeys.findActive(actor.workspaceId, actor.apiKeyId, tx);
      return key && (key.member_id ?? (key.integration === 1 ? null : undefined));
    }
    const session = await sessions.findActiveById(actor.credentialId, tx);
    return session && session.expires_at > clock.now() ? session.member_id : undefined;
  }

  /** The actor as the locked rows say it is now. */
  async function current(actor: Actor, tx: Executor): Promise<Actor> {
    const memberId = await currentMemberId(actor, tx);
    if (memberId === undefined) throw ended();
    if (memberId === null) return { ...actor, member: null };
    const member = await members.findById(actor.workspaceId, memberId, tx);
    if (!member) throw ended();
    return { ...actor, member: toMember(member) };
  }

  /** Takes the workspace's accounts lock until the transaction ends. */
  const lock = (tx: Executor, workspaceId: string) => dialect.lockKeyInTransaction(tx, `accounts:${workspaceId}`);

  return {
    /** For writes made without an actor: sign-in, taking an invitation, the admin CLI. */
    lock,

    /**
     * A settings write: one transaction holding the workspace's accounts lock, given the actor as
     * it is now, whose settings role is checked again there.
     */
    async settingsWrite<T>(actor: Actor, body: (work: Work, actor: Actor) => Promise<T>): Promise<T> {
      requireSettingsRole(actor);
      return inTransaction(db, async (work) => {
        await lock(work.tx, actor.workspaceId);
        const now = await current(actor, work.tx);
        requireSettingsRole(now);
        return body(work, now);
      });
    },
  };
}

export type AccountsLock = ReturnType<typeof createAccountsLock>;
