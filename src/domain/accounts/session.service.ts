// People's sessions (docs/accounts.md): sign-in with email and password, the server-side session
// behind the app's cookie (30 days after its last use; revocable), sign-out and password change.
// The cookie holds `lds_` + 40 base62 characters; only its SHA-256 is stored.
import type { Db } from '../../db/database.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { SessionRepository } from '../../db/repositories/session.repository.js';
import type { SsoRepository } from '../../db/repositories/sso.repository.js';
import type { MemberTable } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import type { AccountsLock } from './accounts-lock.js';
import { redactedChanges, type AuditLog } from '../audit/audit-log.js';
import type { Actor, Member, RequestOrigin } from './actor.js';
import { toMember } from './identity.service.js';
import type { PasswordHasher } from './passwords.js';
import type { SignInLockout } from './sign-in-lockout.js';

export const SESSION_LIFETIME_MS = 30 * 24 * 3600_000;
/** A session's expiry moves at most this often: one write a minute per session, not one per request. */
const EXTEND_EVERY_MS = 60_000;
const TOKEN_FORMAT = /^lds_[0-9A-Za-z]{40}$/;
const WRONG_CREDENTIALS = 'wrong email or password';

export interface StartedSession {
  token: string;
  expires_at: string;
  workspace_id: string;
  member: Member;
}

export interface SessionActor {
  actor: Actor;
  /** The new expiry when this request moved it (the cookie is sent again), else null. */
  extendedUntil: string | null;
}

/** Emails compare lowercased and trimmed, as accounts store them. */
export const canonicalEmail = (email: string): string => email.trim().toLowerCase();

export interface SessionServiceDeps {
  db: Db;
  accountsLock: Pick<AccountsLock, 'transaction'>;
  members: MemberRepository;
  sessions: SessionRepository;
  /** Whether a workspace's single sign-on turns password sign-in off for non-owners (docs/sso.md). */
  sso: Pick<SsoRepository, 'enforced'>;
  lockout: SignInLockout;
  hasher: PasswordHasher;
  audit: AuditLog;
  clock: Clock;
}

/** How a sign-in's entries name the person: the member whose email was given (the attempt was made as them). */
export const signInActor = (member: Pick<MemberTable, 'id' | 'display_name'>) => ({ type: 'member' as const, id: member.id, name: member.display_name });

export function createSessionService({ db, accountsLock, members, sessions, sso, lockout, hasher, audit, clock }: SessionServiceDeps) {
  const later = (from: string, ms: number) => new Date(Date.parse(from) + ms).toISOString();
  const unauthorized = () => new AppError('unauthorized', WRONG_CREDENTIALS);

  /** A new session of the member; in the caller's transaction when given. */
  async function start(member: MemberTable, tx: Executor = db): Promise<StartedSession> {
    const token = randomToken('lds_', 40);
    const now = clock.now();
    const expiresAt = later(now, SESSION_LIFETIME_MS);
    await sessions.insert({
      id: newId(), token_hash: sha256Hex(token), workspace_id: member.workspace_id, member_id: member.id,
      created_at: now, last_used_at: now, expires_at: expiresAt, revoked_at: null,
    }, tx);
    return { token, expires_at: expiresAt, workspace_id: member.workspace_id, member: toMember(member) };
  }

  /** The membership a sign-in opens: the asked workspace's, else the oldest. */
  async function membershipFor(userId: string, workspaceId: string | undefined): Promise<MemberTable | undefined> {
    const memberships = await members.membershipsOf(userId);
    return workspaceId === undefined ? memberships[0] : memberships.find((m) => m.workspace_id === workspaceId.toLowerCase());
  }

  /**
   * A failed sign-in in the log of each workspace the person belongs to (the asked one alone when
   * given), and the lock it started if it did. An email of nobody has no workspace to hold it.
   */
  async function recordFailure(userId: string | undefined, workspaceId: string | undefined, locked: boolean, request: RequestOrigin | null): Promise<void> {
    if (userId === undefined) return;
    const memberships = (await members.membershipsOf(userId)).filter((m) => workspaceId === undefined || m.workspace_id === workspaceId.toLowerCase());
    const actions = locked ? (['auth.sign_in_failed', 'auth.locked_out'] as const) : (['auth.sign_in_failed'] as const);
    await audit.record({ tx: db }, ...memberships.flatMap((member) => actions.map((action) => ({
      actor: signInActor(member), workspaceId: member.workspace_id, request, action, target_type: 'member' as const, target_id: member.id,
    }))));
  }

  return {
    start,

    /**
     * Wrong email, wrong password, an account without a password or without the asked workspace:
     * the same 401, after the same scrypt work. Every attempt counts toward the email's lockout
     * before the password is checked, and is withdrawn when it proves right.
     */
    async signIn(input: { email: string; password: string; workspace_id?: string }, request: RequestOrigin | null = null): Promise<StartedSession> {
      const email = canonicalEmail(input.email);
      const attempt = await lockout.attempt(email);
      const user = await members.findUserByEmail(email);
      let verified = false;
      if (user?.password_hash) verified = await hasher.verify(input.password, user.password_hash);
      else await hasher.verifyNothing(input.password);
      if (!verified) {
        await recordFailure(user?.id, input.workspace_id, attempt.locksOnFailure, request);
        throw unauthorized();
      }
      await lockout.succeeded(attempt);
      const member = await membershipFor(user!.id, input.workspace_id);
      if (!member) throw unauthorized();
      // Under the accounts lock, so that the session is never started for a member being removed.
      return accountsLock.transaction(member.workspace_id, async (work) => {
        const current = await members.findById(member.workspace_id, member.id, work.tx);
        if (!current) throw unauthorized();
        if (current.role !== 'owner' && (await sso.enforced(current.workspace_id, work.tx))) {
          throw new AppError('forbidden', 'this workspace signs in with single sign-on: use "Sign in with SSO" (owners can still use their password)');
        }
        await audit.record(work, {
          actor: signInActor(current), workspaceId: current.workspace_id, request, action: 'auth.signed_in', target_type: 'member', target_id: current.id,
        });
        return start(current, work.tx);
      });
    },

    /** The actor of a presented session token, or null when it is malformed, unknown, revoked or expired. */
    async authenticate(token: string): Promise<SessionActor | null> {
      if (!TOKEN_FORMAT.test(token)) return null;
      const found = await sessions.findActiveByHash(sha256Hex(token));
      const now = clock.now();
      if (!found || found.session.expires_at <= now) return null;
      const { session, member } = found;
      let extendedUntil: string | null = null;
      if (Date.parse(now) - Date.parse(session.last_used_at) >= EXTEND_EVERY_MS) {
        extendedUntil = later(now, SESSION_LIFETIME_MS);
        await sessions.extend(session.id, now, extendedUntil);
      }
      const actor: Actor = { workspaceId: session.workspace_id, apiKeyId: null, credentialId: session.id, readOnly: false, member: toMember(member) };
      return { actor, extendedUntil };
    },

    /** Revokes the session of this token, if it is one; nothing to revoke is not an error. */
    async signOut(token: string): Promise<void> {
      if (!TOKEN_FORMAT.test(token)) return;
      const found = await sessions.findActiveByHash(sha256Hex(token));
      if (found) await sessions.revoke(found.session.id, clock.now());
    },

    /**
     * Sets a new password and revokes every other session of the person (in every workspace);
     * the one making the change stays signed in. A wrong current password counts toward the lockout.
     */
    async changePassword(actor: Actor, input: { current_password: string; new_password: string }): Promise<void> {
      const user = actor.member?.user_id ? await members.findUserById(actor.member.user_id) : undefined;
      if (!user) throw new AppError('forbidden', 'this member has no user account, so no password');
      const attempt = await lockout.attempt(user.email);
      if (!user.password_hash || !(await hasher.verify(input.current_password, user.password_hash))) {
        throw invalidField('current_password', 'is not your current password');
      }
      await lockout.succeeded(attempt);
      const passwordHash = await hasher.hash(input.new_password);
      await db.transaction().execute(async (tx) => {
        await members.setPasswordHash(user.id, passwordHash, tx);
        await sessions.revokeForUser(user.id, actor.credentialId, clock.now(), tx);
        await audit.record({ tx }, {
          actor, action: 'auth.password_changed', target_type: 'member', target_id: actor.member!.id, changes: redactedChanges('password'),
        });
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
