// Invitations (docs/accounts.md): a one-time link `{base}/app/invite/{token}`, valid 7 days, where a
// person sets a name and a password and joins the workspace, signed in. The token is `ldi_` + 40
// base62 characters, stored as its SHA-256. A new invitation of an email replaces the workspace's
// earlier ones (only the newest link works). The first start's owner link names no email and hands
// over the existing owner member; its taker gives the email.
import type { Db } from '../../db/database.js';
import type { Executor, Page, PageOf } from '../../db/repositories/executor.js';
import type { InvitationRepository } from '../../db/repositories/invitation.repository.js';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { WorkspaceRepository } from '../../db/repositories/workspace.repository.js';
import type { InvitationTable, UserTable } from '../../db/schema.js';
import { AppError, invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditLog } from '../audit/audit-log.js';
import { newId, parseUuid } from '../../lib/ids.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import type { AccountsLock } from './accounts-lock.js';
import type { Actor, MemberRole, RequestOrigin } from './actor.js';
import type { PasswordHasher } from './passwords.js';
import { requireOwnerRankFor, requireSettingsRole } from './roles.js';
import { canonicalEmail, signInActor, type SessionService, type StartedSession } from './session.service.js';
import type { SignInLockout } from './sign-in-lockout.js';

export const INVITATION_LIFETIME_MS = 7 * 24 * 3600_000;
const TOKEN_FORMAT = /^ldi_[0-9A-Za-z]{40}$/;

/** What creating an invitation answers: the link is shown only then. */
export interface IssuedInvitation {
  id: string;
  email: string | null;
  role: MemberRole;
  url: string;
  expires_at: string;
}

export interface PendingInvitation {
  id: string;
  email: string | null;
  role: MemberRole;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

/** The page where the invitation is taken, in the team app. */
export const invitationUrl = (base: string, token: string): string => `${base}/app/invite/${token}`;

const toPending = (row: InvitationTable): PendingInvitation => ({
  id: row.id, email: row.email, role: row.role as MemberRole, invited_by: row.invited_by, created_at: row.created_at, expires_at: row.expires_at,
});

export interface InvitationServiceDeps {
  db: Db;
  accountsLock: Pick<AccountsLock, 'settingsWrite' | 'transaction'>;
  workspaces: WorkspaceRepository;
  members: MemberRepository;
  invitations: InvitationRepository;
  sessionService: Pick<SessionService, 'start'>;
  lockout: SignInLockout;
  hasher: PasswordHasher;
  audit: AuditLog;
  clock: Clock;
}

export function createInvitationService(deps: InvitationServiceDeps) {
  const { db, accountsLock, workspaces, members, invitations, sessionService, lockout, hasher, audit, clock } = deps;
  const nowPlus = (ms: number) => new Date(Date.parse(clock.now()) + ms).toISOString();

  /** An invitation that can be taken, by its token; 404 when unknown, used or expired. */
  async function takeable(token: string): Promise<InvitationTable> {
    const row = TOKEN_FORMAT.test(token) ? await invitations.findByHash(sha256Hex(token)) : undefined;
    if (!row || row.accepted_at !== null || row.expires_at <= clock.now()) throw notFound('invitation');
    return row;
  }

  /** Throws not_found unless the invitation is pending in the actor's workspace. */
  async function findPending(actor: Actor, id: string, tx: Executor = db): Promise<InvitationTable> {
    requireSettingsRole(actor);
    const invitationId = parseUuid(id);
    const row = invitationId ? await invitations.findPending(actor.workspaceId, invitationId, clock.now(), tx) : undefined;
    if (!row) throw notFound('invitation');
    return row;
  }

  async function requireNotMember(workspaceId: string, user: UserTable | undefined, tx: Executor = db): Promise<void> {
    if (user && (await members.findByUser(workspaceId, user.id, tx))) throw invalidField('email', 'is already a member of this workspace');
  }

  /**
   * Whether this account may take the invitation: not if it is a member of the workspace already
   * (but for the member a hand-over gives), and an account without a password only through a
   * hand-over, which only the administrator issues: whoever invites can read the link, so an
   * ordinary link must never set the password of an account that has memberships elsewhere.
   */
  async function requireJoinable(invitation: InvitationTable, user: UserTable | undefined, tx: Executor = db): Promise<void> {
    if (!user) return;
    const membership = await members.findByUser(invitation.workspace_id, user.id, tx);
    if (membership && membership.id !== invitation.member_id) throw invalidField('email', 'is already a member of this workspace');
    if (!user.password_hash && invitation.member_id === null && (await members.membershipsOf(user.id, tx)).length > 0) {
      throw invalidField('email', 'belongs to an account without a password: ask the server\'s administrator for a link (loopdesk member invite)');
    }
  }

  async function issue(
    input: { workspaceId: string; email: string | null; role: MemberRole; invitedBy: string | null; memberId?: string },
    tx: Executor,
  ): Promise<{ token: string; row: InvitationTable }> {
    if (input.email !== null) {
      if (input.memberId === undefined) await requireNotMember(input.workspaceId, await members.findUserByEmail(input.email, tx), tx);
      await invitations.deleteUnacceptedFor(input.workspaceId, input.email, tx);
    }
    const token = randomToken('ldi_', 40);
    const row: InvitationTable = {
      id: newId(), workspace_id: input.workspaceId, email: input.email, role: input.role, token_hash: sha256Hex(token),
      invited_by: input.invitedBy, member_id: input.memberId ?? null, created_at: clock.now(), expires_at: nowPlus(INVITATION_LIFETIME_MS),
      accepted_at: null,
    };
    await invitations.insert(row, tx);
    return { token, row };
  }

  const issued = ({ token, row }: { token: string; row: InvitationTable }, base: string): IssuedInvitation =>
    ({ id: row.id, email: row.email, role: row.role as MemberRole, url: invitationUrl(base, token), expires_at: row.expires_at });

  /**
   * The account the taker ends up with, prepared outside the transaction (scrypt takes a while):
   * an existing password must be given again, so a link can never take over another workspace's
   * person; an account without a password gets this one.
   */
  async function prepareAccount(email: string, password: string): Promise<{ user: UserTable | undefined; newHash: string | null }> {
    const user = await members.findUserByEmail(email);
    if (!user?.password_hash) return { user, newHash: await hasher.hash(password) };
    const attempt = await lockout.attempt(email);
    if (!(await hasher.verify(password, user.password_hash))) {
      throw invalidField('password', 'this email already has a Loopdesk account: enter its password');
    }
    await lockout.succeeded(attempt);
    return { user, newHash: null };
  }

  return {
    /** [ext] POST /api/v1/members/invitations: settings role; only owner rank may invite an owner. */
    async create(asked: Actor, input: { email: string; role: MemberRole }, base: string): Promise<IssuedInvitation> {
      const email = canonicalEmail(input.email);
      const invitation = await accountsLock.settingsWrite(asked, async (work, actor) => {
        requireOwnerRankFor(actor, input.role, 'invite an owner');
        const issuedNow = await issue({ workspaceId: actor.workspaceId, email, role: input.role, invitedBy: actor.member?.id ?? null }, work.tx);
        await audit.record(work, { actor, action: 'invitation.created', target_type: 'invitation', target_id: issuedNow.row.id });
        return issuedNow;
      });
      return issued(invitation, base);
    },

    /**
     * `loopdesk member invite`: the administrator of the database invites anyone. A member made
     * with `loopdesk member create --email`, whose account has no password yet, is handed over:
     * the link gives that member (with this role) its password.
     */
    async createAsAdministrator(input: { workspaceId: string; email: string; role: MemberRole }, base: string): Promise<IssuedInvitation> {
      const email = canonicalEmail(input.email);
      const invitation = await db.transaction().execute(async (tx) => {
        if (!(await workspaces.exists(input.workspaceId, tx))) throw new AppError('not_found', `workspace ${input.workspaceId} not found`);
        const user = await members.findUserByEmail(email, tx);
        const passwordless = user && !user.password_hash ? await members.findByUser(input.workspaceId, user.id, tx) : undefined;
        return issue({ workspaceId: input.workspaceId, email, role: input.role, invitedBy: null, memberId: passwordless?.id }, tx);
      });
      return issued(invitation, base);
    },

    /** The first start's link for the owner it created (inside the bootstrap's transaction); its URL is made once the server listens. */
    async createOwnerLink(workspaceId: string, ownerId: string, tx: Executor): Promise<{ token: string; expires_at: string }> {
      const { token, row } = await issue({ workspaceId, email: null, role: 'owner', invitedBy: null, memberId: ownerId }, tx);
      return { token, expires_at: row.expires_at };
    },

    async listPending(actor: Actor, page: Page): Promise<PageOf<PendingInvitation>> {
      requireSettingsRole(actor);
      const { rows, total } = await invitations.listPending(actor.workspaceId, clock.now(), page);
      return { rows: rows.map(toPending), total };
    },

    findPending,

    /** Withdraws a pending invitation; only owner rank may withdraw an owner's. */
    async remove(asked: Actor, id: string): Promise<void> {
      await accountsLock.settingsWrite(asked, async (work, actor) => {
        const row = await findPending(actor, id, work.tx);
        requireOwnerRankFor(actor, row.role as MemberRole, 'withdraw an owner\'s invitation');
        await invitations.delete(actor.workspaceId, row.id, work.tx);
        await audit.record(work, { actor, action: 'invitation.withdrawn', target_type: 'invitation', target_id: row.id });
      });
    },

    /** GET /auth/invitations/{token}: what the invitation page shows. */
    async describe(token: string): Promise<{ email: string | null; workspace_name: string; role: MemberRole }> {
      const row = await takeable(token);
      const workspace = await workspaces.findById(row.workspace_id);
      return { email: row.email, workspace_name: workspace!.name, role: row.role as MemberRole };
    },

    /** POST /auth/invitations/{token}: joins the workspace (or takes the owner over) and signs in. */
    async accept(token: string, input: { name: string; password: string; email?: string }, request: RequestOrigin | null = null): Promise<StartedSession> {
      const invitation = await takeable(token);
      if (invitation.email !== null && input.email !== undefined && canonicalEmail(input.email) !== invitation.email) {
        throw invalidField('email', `this invitation is for ${invitation.email}`);
      }
      const email = invitation.email ?? (input.email === undefined ? null : canonicalEmail(input.email));
      if (email === null) throw invalidField('email', 'is required: this link names no email');
      await requireJoinable(invitation, await members.findUserByEmail(email));
      const prepared = await prepareAccount(email, input.password);

      return accountsLock.transaction(invitation.workspace_id, async (work) => {
        const { tx } = work;
        if (!(await invitations.markAccepted(invitation.id, clock.now(), tx))) throw notFound('invitation');
        const user = await members.findUserByEmail(email, tx);
        if (user?.password_hash !== prepared.user?.password_hash || (!user?.password_hash && prepared.newHash === null)) {
          throw invalidField('password', 'the account changed meanwhile: try again');
        }
        await requireJoinable(invitation, user, tx);
        const userId = user?.id ?? newId();
        if (!user) await members.insertUser({ id: userId, email, name: input.name, created_at: clock.now(), password_hash: prepared.newHash }, tx);
        else if (prepared.newHash !== null) await members.setPasswordHash(userId, prepared.newHash, tx);

        const handedOver = invitation.member_id ? await members.findById(invitation.workspace_id, invitation.member_id, tx) : undefined;
        const changes = { user_id: userId, display_name: input.name, role: invitation.role };
        const member = handedOver
          ? { ...handedOver, ...changes }
          : { id: newId(), workspace_id: invitation.workspace_id, avatar_url: null, availability: 'online', created_at: clock.now(), ...changes };
        if (handedOver) await members.update(member.workspace_id, member.id, changes, tx);
        else await members.insert(member, tx);
        await audit.record(work, {
          actor: signInActor(member), workspaceId: member.workspace_id, request, action: 'member.joined', target_type: 'member', target_id: member.id,
        });
        return sessionService.start(member, tx);
      });
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
