// [ext] A workspace's single sign-on settings (docs/sso.md): PUT checks the issuer's discovery
// before anything is stored, the client secret is write-only and kept when a later PUT leaves it
// out, GET shows the settings with the redirect URI to register at the provider, DELETE removes
// them. Every write goes through `write`, under the workspace's accounts lock with the actor's
// settings role checked again there (the place where an audit entry of the change belongs).
import type { SsoRepository } from '../../db/repositories/sso.repository.js';
import type { SsoConfigTable } from '../../db/schema.js';
import { invalidField, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AccountsLock } from '../accounts/accounts-lock.js';
import { changesBetween, type AuditLog } from '../audit/audit-log.js';
import type { Actor } from '../accounts/actor.js';
import { requireSettingsRole } from '../accounts/roles.js';
import type { Work } from '../shared/unit-of-work.js';
import { issuerProblem, OidcError, type OidcClient } from './oidc-client.js';

export const SSO_ROLES = ['agent', 'admin'] as const;
export type SsoRole = (typeof SSO_ROLES)[number];
export const ALLOWED_DOMAINS_MAX = 50;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

export interface SsoInput {
  issuer: string;
  client_id: string;
  client_secret?: string;
  allowed_domains?: string[];
  default_role?: SsoRole;
  enforce?: boolean;
}

export interface SsoSettings {
  issuer: string;
  client_id: string;
  allowed_domains: string[];
  default_role: SsoRole;
  enforce: boolean;
  redirect_uri: string;
  created_at: string;
  updated_at: string;
}

/**
 * Where the provider sends people back: `{public base URL}/auth/sso/callback`, as a URL writes it
 * (no default port), since the code exchange must name it exactly as the authorization request did.
 */
export function ssoRedirectUri(base: string): string {
  const uri = `${base}/auth/sso/callback`;
  return URL.canParse(uri) ? new URL(uri).href : uri;
}

export const allowedDomainsOf = (row: Pick<SsoConfigTable, 'allowed_domains'>): string[] => JSON.parse(row.allowed_domains) as string[];

const toSettings = (row: SsoConfigTable, base: string): SsoSettings => ({
  issuer: row.issuer, client_id: row.client_id, allowed_domains: allowedDomainsOf(row), default_role: row.default_role as SsoRole,
  enforce: Number(row.enforce) === 1, redirect_uri: ssoRedirectUri(base), created_at: row.created_at, updated_at: row.updated_at,
});

/** Domains as stored: trimmed, lowercased, without a leading `@`, each once. */
function normalizeDomains(domains: string[]): string[] {
  const normalized = [...new Set(domains.map((domain) => domain.trim().toLowerCase().replace(/^@/, '')))];
  const bad = normalized.find((domain) => !DOMAIN.test(domain));
  if (bad !== undefined) throw invalidField('allowed_domains', `"${bad}" is not a domain name (e.g. example.com)`);
  return normalized;
}

export interface SsoServiceDeps {
  accountsLock: Pick<AccountsLock, 'settingsWrite'>;
  sso: SsoRepository;
  oidc: Pick<OidcClient, 'discover' | 'forget'>;
  audit: Pick<AuditLog, 'record'>;
  clock: Clock;
}

export function createSsoService({ accountsLock, sso, oidc, audit, clock }: SsoServiceDeps) {
  /** The one write path of a workspace's SSO settings. */
  const write = <T>(actor: Actor, body: (work: Work, actor: Actor) => Promise<T>): Promise<T> => accountsLock.settingsWrite(actor, body);

  return {
    async get(actor: Actor, base: string): Promise<SsoSettings> {
      requireSettingsRole(actor, 'single sign-on settings');
      const row = await sso.find(actor.workspaceId);
      if (!row) throw notFound('single sign-on settings');
      return toSettings(row, base);
    },

    /** PUT /api/v1/sso: validated, the issuer's discovery read and checked, then stored. */
    async put(actor: Actor, input: SsoInput, base: string): Promise<SsoSettings> {
      requireSettingsRole(actor, 'single sign-on settings');
      const issuer = input.issuer.trim();
      const problem = issuerProblem(issuer);
      if (problem) throw invalidField('issuer', problem);
      const clientId = input.client_id.trim();
      if (clientId === '') throw invalidField('client_id', 'must not be blank');
      const allowedDomains = normalizeDomains(input.allowed_domains ?? []);
      const stored = await sso.find(actor.workspaceId);
      const clientSecret = input.client_secret ?? stored?.client_secret;
      if (clientSecret === undefined) throw invalidField('client_secret', 'is required the first time (it is kept when a later PUT leaves it out)');
      try {
        await oidc.discover({ issuer, client_id: clientId, client_secret: clientSecret });
      } catch (error) {
        if (error instanceof OidcError) throw invalidField('issuer', error.message);
        throw error;
      }
      const row = await write(actor, async (work, now) => {
        const { tx } = work;
        const current = await sso.find(now.workspaceId, tx);
        const updatedAt = clock.now();
        const next: SsoConfigTable = {
          workspace_id: now.workspaceId, issuer, client_id: clientId, client_secret: input.client_secret ?? current?.client_secret ?? clientSecret,
          allowed_domains: JSON.stringify(allowedDomains), default_role: input.default_role ?? 'agent', enforce: input.enforce ? 1 : 0,
          created_at: current?.created_at ?? updatedAt, updated_at: updatedAt,
        };
        await sso.upsert(next, tx);
        // The secret is compared too (changesBetween redacts it): a new secret is a change.
        const logged = (config: SsoConfigTable) => ({ ...toSettings(config, base), client_secret: config.client_secret });
        await audit.record(work, {
          actor: now, action: 'sso.updated', target_type: 'sso', target_id: null, changes: current ? changesBetween(logged(current), logged(next)) : null,
        });
        return next;
      });
      if (stored && stored.issuer !== issuer) oidc.forget(stored.issuer);
      return toSettings(row, base);
    },

    async remove(actor: Actor): Promise<void> {
      requireSettingsRole(actor, 'single sign-on settings');
      const issuer = await write(actor, async (work, now) => {
        const row = await sso.find(now.workspaceId, work.tx);
        if (!row || !(await sso.delete(now.workspaceId, work.tx))) throw notFound('single sign-on settings');
        await audit.record(work, { actor: now, action: 'sso.deleted', target_type: 'sso', target_id: null });
        return row.issuer;
      });
      oidc.forget(issuer);
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;

