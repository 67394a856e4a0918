// The OpenID Connect relying party, over openid-client (a certified implementation): discovery,
// the authorization URL with PKCE, state and nonce, and the code exchange whose ID token the library
// checks (signature against the provider's keys, issuer, audience, expiry, nonce). Nothing here
// reads a token by hand.
import * as oidc from 'openid-client';
import type { Clock } from '../../lib/clock.js';

/** How long the provider may take to answer one request (discovery, keys, the code exchange). */
export const OIDC_TIMEOUT_MS_DEFAULT = 10_000;
/** How long a process reuses an issuer's discovery document and keys before reading them again. */
const METADATA_TTL_MS = 10 * 60_000;

/** The scopes asked for: the ID token's `email`, `email_verified` and `name` come with them. */
export const SSO_SCOPES = 'openid email profile';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** Why an issuer URL cannot be one, or null: https, or http on a loopback address; no query, fragment or credentials. */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname))) {
    return 'must be an https URL (http only on a loopback address such as 127.0.0.1)';
  }
  if (url.search || url.hash || url.username || url.password) return 'must have no query, fragment or credentials';
  return null;
}

/** A provider's answer that openid-client refused, or that never came. */
function reasonOf(error: unknown): string {
  const { message, cause, error: code, error_description: description } = error as {
    message?: string; cause?: unknown; error?: unknown; error_description?: unknown;
  };
  const timedOut = (what: unknown) => ['TimeoutError', 'AbortError'].includes((what as { name?: string } | undefined)?.name ?? '');
  if (timedOut(error) || timedOut(cause)) return 'the provider did not answer in time';
  // The provider's own OAuth error (invalid_grant, invalid_client, …) says most.
  if (typeof code === 'string') return `the provider answered ${code}${typeof description === 'string' ? `: ${description}` : ''}`;
  if (cause && typeof cause === 'object' && 'code' in cause) return `${message} (${String((cause as { code: unknown }).code)})`;
  return message ?? String(error);
}

export class OidcError extends Error {}

interface Discovered {
  metadata: oidc.ServerMetadata;
  jwks: oidc.ExportedJWKSCache | undefined;
  fetchedAtMs: number;
}

export interface OidcClientDeps {
  clock: Clock;
  timeoutMs?: number;
}

export interface ClientSettings {
  issuer: string;
  client_id: string;
  client_secret: string;
}

export function createOidcClient({ clock, timeoutMs = OIDC_TIMEOUT_MS_DEFAULT }: OidcClientDeps) {
  const timeout = timeoutMs / 1000;
  /** Per issuer: what discovery said, and the keys openid-client fetched for it. */
  const discovered = new Map<string, Discovered>();

  const insecureOnLoopback = (issuer: string) => (new URL(issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : []);

  /**
   * Reads the issuer's discovery document and checks it: it must name this issuer (openid-client
   * compares them) and the endpoints a sign-in needs. Throws OidcError saying what went wrong.
   */
  async function discover(settings: ClientSettings): Promise<oidc.ServerMetadata> {
    let config: oidc.Configuration;
    try {
      config = await oidc.discovery(new URL(settings.issuer), settings.client_id, settings.client_secret, undefined, {
        execute: insecureOnLoopback(settings.issuer), timeout,
      });
    } catch (error) {
      throw new OidcError(`its discovery document (${settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration) could not be used: ${reasonOf(error)}`);
    }
    const metadata = config.serverMetadata();
    const missing = (['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const).filter((name) => typeof metadata[name] !== 'string');
    if (missing.length > 0) throw new OidcError(`its discovery document names no ${missing.join(', ')}`);
    discovered.set(settings.issuer, { metadata, jwks: undefined, fetchedAtMs: Date.now() });
    return metadata;
  }

  /**
   * The client for these settings, from the issuer's recent discovery (read again when older than
   * METADATA_TTL_MS). Time checks follow the injected clock, so tests can move it.
   */
  async function configurationFor(settings: ClientSettings): Promise<{ config: oidc.Configuration; cache: Discovered }> {
    let cache = discovered.get(settings.issuer);
    if (!cache || Date.now() - cache.fetchedAtMs > METADATA_TTL_MS) {
      await discover(settings);
      cache = discovered.get(settings.issuer)!;
    }
    const methods = cache.metadata.token_endpoint_auth_methods_supported;
    // client_secret_basic is the default method of the specifications; post only for a provider that lacks it.
    const auth = !methods || methods.includes('client_secret_basic') ? oidc.ClientSecretBasic(settings.client_secret) : oidc.ClientSecretPost(settings.client_secret);
    const skewSeconds = Math.round((Date.parse(clock.now()) - Date.now()) / 1000);
    const config = new oidc.Configuration(cache.metadata, settings.client_id, { [oidc.clockSkew]: skewSeconds }, auth);
    config.timeout = timeout;
    for (const enable of insecureOnLoopback(settings.issuer)) enable(config);
    // The ID token's signature is checked against the provider's keys, not left to TLS alone.
    oidc.enableNonRepudiationChecks(config);
    if (cache.jwks) oidc.setJwksCache(config, cache.jwks);
    return { config, cache };
  }

  return {
    discover,

    /** A new sign-in's secrets and the provider's authorization URL that carries them. */
    async authorizationUrl(settings: ClientSettings, redirectUri: string) {
      const { config } = await configurationFor(settings);
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri, scope: SSO_SCOPES, state, nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    /**
     * Exchanges the callback's code and returns the checked ID token's claims. `callbackUrl` is the
     * redirect URI with the callback's query. Throws oidc.AuthorizationResponseError when the
     * provider answered with an error, OidcError for anything else refused.
     */
    async exchange(settings: ClientSettings, callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }) {
      const { config, cache } = await configurationFor(settings);
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state, expectedNonce: checks.nonce, pkceCodeVerifier: checks.codeVerifier, idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new OidcError('the provider sent no ID token');
        return claims;
      } catch (error) {
        if (error instanceof oidc.AuthorizationResponseError || error instanceof OidcError) throw error;
        throw new OidcError(reasonOf(error));
      } finally {
        cache.jwks = oidc.getJwksCache(config) ?? cache.jwks;
      }
    },

    /** Forgets an issuer's discovery (its settings changed). */
    forget(issuer: string): void {
      discovered.delete(issuer);
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
