// Signing in with the workspace's OpenID Connect provider (docs/sso.md). `start` records the
// sign-in (state as its SHA-256, nonce, PKCE verifier, the browser's cookie as its SHA-256, ten
// minutes to finish) and gives the provider's URL; `finish` takes that record once, has
// openid-client exchange the code and check the ID token, then applies the workspace's rules: a
// verified email, in an allowed domain; a member with it signs in, anyone else joins with the
// default role when the allowed domains name theirs. Each refusal is an SsoRefusal whose code the
// sign-in page explains (`/app/sign-in?error=<code>`).
import { AuthorizationResponseError } from 'openid-client';
import type { MemberRepository } from '../../db/repositories/member.repository.js';
import type { SsoRepository } from '../../db/repositories/sso.repository.js';
import type { MemberTable, SsoConfigTable } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newId, parseUuid } from '../../lib/ids.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import type { AccountsLock } from '../accounts/accounts-lock.js';
import type { RequestOrigin } from '../accounts/actor.js';
import { canonicalEmail, signInActor, type SessionService, type StartedSession } from '../accounts/session.service.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Work } from '../shared/unit-of-work.js';
import { OidcError, type OidcClient } from './oidc-client.js';
import { allowedDomainsOf, ssoRedirectUri } from './sso.service.js';

/** How long a begun sign-in may take at the provider. */
export const SSO_SIGN_IN_TTL_MS = 10 * 60_000;

export const SSO_ERRORS = [
  'sso_not_configured', 'sso_unavailable', 'sso_cancelled', 'sso_invalid_state', 'sso_failed',
  'sso_email_unverified', 'sso_domain_not_allowed', 'sso_not_a_member',
] as const;
export type SsoErrorCode = (typeof SSO_ERRORS)[number];

/** A sign-in refused: `code` goes to the sign-in page, `reason` to the server's log. */
export class SsoRefusal extends Error {
  readonly code: SsoErrorCode;
  readonly reason: string;

  constructor(code: SsoErrorCode, reason: string) {
    super(reason);
    this.code = code;
    this.reason = reason;
  }
}

/** The callback's query as the provider sent it. */
export type CallbackQuery = Record<string, string | undefined>;

export interface SsoSignInDeps {
  accountsLock: Pick<AccountsLock, 'transaction'>;
  sso: SsoRepository;
  members: MemberRepository;
  sessionService: Pick<SessionService, 'start'>;
  oidc: Pick<OidcClient, 'authorizationUrl' | 'exchange'>;
  audit: Pick<AuditLog, 'record'>;
  clock: Clock;
}

const settingsOf = (row: SsoConfigTable) => ({ issuer: row.issuer, client_id: row.client_id, client_secret: row.client_secret });

/**
 * Whether the provider vouches for the email: `email_verified: true`; or, from a token with no
 * `email_verified` at all, Microsoft Entra's `xms_edov: true` (the email's domain is verified by the
 * tenant), since Entra never sends `email_verified` for work accounts (docs/sso.md).
 */
const emailVerified = (claims: Record<string, unknown>): boolean =>
  claims.email_verified === true || (claims.email_verified === undefined && claims.xms_edov === true);

/** The name a joining person is shown by: the ID token's name, else given and family names, else the email's local part. */
function displayNameOf(claims: Record<string, unknown>, email: string): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const name = text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return (name || email.split('@')[0]).slice(0, 200);
}

export function createSsoSignIn({ accountsLock, sso, members, sessionService, oidc, audit, clock }: SsoSignInDeps) {
  const later = (ms: number) => new Date(Date.parse(clock.now()) + ms).toISOString();

  /**
   * The member the verified email is in the workspace, joining them when the domain allows (and
   * saying so in the audit log); in the transaction that starts their session.
   */
  async function memberFor(config: SsoConfigTable, email: string, name: string, work: Work, request: RequestOrigin): Promise<MemberTable> {
    const { tx } = work;
    const user = await members.findUserByEmail(email, tx);
    const member = user && (await members.findByUser(config.workspace_id, user.id, tx));
    if (member) return member;
    if (allowedDomainsOf(config).length === 0) {
      throw new SsoRefusal('sso_not_a_member', `${email} is not a member, and no allowed domain lets anyone join`);
    }
    const userId = user?.id ?? newId();
    if (!user) await members.insertUser({ id: userId, email, name, created_at: clock.now(), password_hash: null }, tx);
    const joined: MemberTable = {
      id: newId(), workspace_id: config.workspace_id, user_id: userId, role: config.default_role, display_name: name, avatar_url: null, availability: 'online',
      created_at: clock.now(),
    };
    await members.insert(joined, tx);
    await audit.record(work, {
      actor: signInActor(joined), workspaceId: joined.workspace_id, request, action: 'member.joined', target_type: 'member', target_id: joined.id,
    });
    return joined;
  }

  /**
   * A refused token that names a member's email is a failed sign-in in the workspace's log, as a
   * wrong password is (someone holding an account at the provider tried to become that member).
   */
  async function failedFor(config: SsoConfigTable, email: string, request: RequestOrigin, refusal: SsoRefusal): Promise<SsoRefusal> {
    await accountsLock.transaction(config.workspace_id, async (work) => {
      const user = await members.findUserByEmail(email, work.tx);
      const member = user && (await members.findByUser(config.workspace_id, user.id, work.tx));
      if (!member) return;
      await audit.record(work, {
        actor: signInActor(member), workspaceId: member.workspace_id, request, action: 'auth.sign_in_failed', target_type: 'member', target_id: member.id,
      });
    });
    return refusal;
  }

  return {
    /** GET /auth/sso: the workspace asked for (or the server's only one) when it has SSO. */
    async available(workspaceId: string | undefined): Promise<string | null> {
      const id = workspaceId === undefined ? await sso.onlyWorkspace() : parseUuid(workspaceId);
      return id && (await sso.find(id)) ? id : null;
    },

    /** GET /auth/sso/start: the provider's URL, and the token of the cookie that ties the sign-in to this browser. */
    async start(workspaceId: string | undefined, base: string): Promise<{ url: string; browserToken: string }> {
      const id = workspaceId === undefined ? null : parseUuid(workspaceId);
      const config = id ? await sso.find(id) : undefined;
      if (!config) throw new SsoRefusal('sso_not_configured', `workspace ${workspaceId ?? '(none named)'} has no single sign-on`);
      const redirectUri = ssoRedirectUri(base);
      let begun;
      try {
        begun = await oidc.authorizationUrl(settingsOf(config), redirectUri);
      } catch (error) {
        throw new SsoRefusal('sso_unavailable', (error as Error).message);
      }
      const browserToken = randomToken('', 40);
      await sso.beginSignIn({
        state_hash: sha256Hex(begun.state), workspace_id: config.workspace_id, browser_hash: sha256Hex(browserToken), nonce: begun.nonce,
        code_verifier: begun.codeVerifier, redirect_uri: redirectUri, created_at: clock.now(), expires_at: later(SSO_SIGN_IN_TTL_MS),
      });
      return { url: begun.url, browserToken };
    },

    /** GET /auth/sso/callback: the session of the person the provider vouched for. */
    async finish(query: CallbackQuery, browserToken: string | null, request: RequestOrigin): Promise<StartedSession> {
      const state = query.state;
      const begun = state ? await sso.takeSignIn(sha256Hex(state)) : undefined;
      if (!begun || begun.expires_at <= clock.now() || browserToken === null || sha256Hex(browserToken) !== begun.browser_hash) {
        throw new SsoRefusal('sso_invalid_state', 'the state is unknown, used, expired or was begun in another browser');
      }
      const config = await sso.find(begun.workspace_id);
      if (!config) throw new SsoRefusal('sso_not_configured', 'single sign-on was removed during the sign-in');

      const callbackUrl = new URL(begun.redirect_uri);
      for (const [name, value] of Object.entries(query)) if (value !== undefined) callbackUrl.searchParams.set(name, value);
      let claims: Record<string, unknown>;
      try {
        claims = await oidc.exchange(settingsOf(config), callbackUrl, { state: state!, nonce: begun.nonce, codeVerifier: begun.code_verifier });
      } catch (error) {
        if (error instanceof AuthorizationResponseError) throw new SsoRefusal('sso_cancelled', `the provider answered ${error.error}: ${error.error_description ?? ''}`);
        if (error instanceof OidcError) throw new SsoRefusal('sso_failed', error.message);
        throw error;
      }

      if (typeof claims.email !== 'string') throw new SsoRefusal('sso_email_unverified', 'the ID token has no email');
      const email = canonicalEmail(claims.email);
      if (!emailVerified(claims)) throw await failedFor(config, email, request, new SsoRefusal('sso_email_unverified', 'the ID token has no email_verified: true'));
      const domain = email.slice(email.lastIndexOf('@') + 1);
      const allowed = allowedDomainsOf(config);
      if (allowed.length > 0 && !allowed.includes(domain)) {
        throw await failedFor(config, email, request, new SsoRefusal('sso_domain_not_allowed', `${domain} is not an allowed domain`));
      }
      const name = displayNameOf(claims, email);
      return accountsLock.transaction(config.workspace_id, async (work) => {
        const member = await memberFor(config, email, name, work, request);
        await audit.record(work, {
          actor: signInActor(member), workspaceId: member.workspace_id, request, action: 'auth.signed_in', target_type: 'member', target_id: member.id,
        });
        return sessionService.start(member, work.tx);
      });
    },
  };
}

export type SsoSignIn = ReturnType<typeof createSsoSignIn>;
