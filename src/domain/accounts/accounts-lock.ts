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
import { actsAsSomeone, toMember } from './identity.service.js';
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

  /** The actor's key or session as it is now, in the shape the "acts as someone" rule reads; undefined once it ended. */
  async function credentialOf(actor: Actor, tx: Executor): Promise<{ member_id: string | null; integration: number } | undefined> {
    if (actor.apiKeyId !== null) return apiKeys.findActive(actor.workspaceId, actor.apiKeyId, tx);
    const session = await sessions.findActiveById(actor.credentialId, tx);
    return session && session.expires_at > clock.now() ? { member_id: session.member_id, integration: 0 } : undefined;
  }

  /** The actor as the locked rows say it is now: 401 when its credential no longer acts as anyone. */
  async function current(actor: Actor, tx: Executor): Promise<Actor> {
    const credential = await credentialOf(actor, tx);
    if (!credential) throw ended();
    const member = credential.member_id === null ? null : (await members.findById(actor.workspaceId, credential.member_id, tx)) ?? null;
    if (!actsAsSomeone({ key: credential, member })) throw ended();
    return { ...actor, member: member && toMember(member) };
  }

  /** Takes the workspace's accounts lock until the transaction ends. */
  const lock = (tx: Executor, workspaceId: string) => dialect.lockKeyInTransaction(tx, `accounts:${workspaceId}`);

  /** `body` in a new transaction that holds the workspace's accounts lock first. */
  const transaction = <T>(workspaceId: string, body: (work: Work) => Promise<T>): Promise<T> =>
    inTransaction(db, async (work) => {
      await lock(work.tx, workspaceId);
      return body(work);
    });

  return {
    /** For a caller's own transaction (the admin CLI's creates, inside the first start's). */
    lock,

    /** For writes made without an actor: sign-in, taking an invitation. */
    transaction,

    /**
     * A settings write: one transaction holding the workspace's accounts lock, given the actor as
     * it is now, whose settings role is checked again there.
     */
    async settingsWrite<T>(actor: Actor, body: (work: Work, actor: Actor) => Promise<T>): Promise<T> {
      requireSettingsRole(actor);
      return transaction(actor.workspaceId, async (work) => {
        const now = await current(actor, work.tx);
        requireSettingsRole(now);
        return body(work, now);
      });
    },
  };
}

export type AccountsLock = ReturnType<typeof createAccountsLock>;
