// The visitor's session: kept in localStorage per widget key, created on first need (POST /sessions
// with the host's identity token and, when the product asks for it, a proof of work solved ahead of
// time), dropped when the server no longer accepts it or the host page names another user.
import { ApiError, type WidgetApi } from './api.js';
import { altchaPayload } from './pow.js';
import type { Challenge, KeyValueStore, Session } from './types.js';

interface StoredSession extends Session {
  /** `sub` of the identity token the session was made with; null for an anonymous visitor. */
  identity: string | null;
}

/** The `sub` claim of a JWT, read without verifying it (the server verifies; this only tells users apart). */
export function identityOf(token: string | null): string | null {
  if (!token) return null;
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const sub = (JSON.parse(atob(payload)) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

export interface SessionOptions {
  api: WidgetApi;
  store: KeyValueStore;
  identityToken: string | null;
  proofOfWork: boolean;
  now?: () => number;
}

export class SessionKeeper {
  private creating: Promise<StoredSession> | null = null;
  private solution: Promise<string> | null = null;

  constructor(private readonly options: SessionOptions) {}

  /** The stored session, if it is still usable for the identity the host page gives now. */
  current(): StoredSession | null {
    const { store, identityToken, now = Date.now } = this.options;
    const stored = store.get<StoredSession>('session');
    if (!stored) return null;
    if (stored.identity !== identityOf(identityToken) || Date.parse(stored.expires_at) <= now()) {
      // Another user signed in on the host page (or out of it), or the session ran out.
      store.remove('session');
      return null;
    }
    return stored;
  }

  /** Starts solving the proof of work now, so that the first message does not wait for it. */
  prepare(): void {
    if (this.options.proofOfWork && !this.current() && !this.solution) this.solution = this.solve();
    this.solution?.catch(() => (this.solution = null));
  }

  /** The session, created once however many callers ask at the same time. */
  ensure(): Promise<StoredSession> {
    const current = this.current();
    if (current) return Promise.resolve(current);
    this.creating ??= this.create().finally(() => (this.creating = null));
    return this.creating;
  }

  /** The server refused the token (401): the next `ensure` makes a new session. */
  drop(): void {
    this.options.store.remove('session');
  }

  private async solve(): Promise<string> {
    return altchaPayload(await this.options.api.request<Challenge>('GET', 'challenge'));
  }

  private async create(attempt = 1): Promise<StoredSession> {
    const { api, store, identityToken, proofOfWork } = this.options;
    const body: Record<string, string> = {};
    if (identityToken) body.identity_token = identityToken;
    if (proofOfWork) {
      const solution = this.solution ?? this.solve();
      this.solution = null;
      body.altcha = await solution;
    }
    try {
      const { data } = await api.request<{ data: Session }>('POST', 'sessions', { body });
      const session = { ...data, identity: identityOf(identityToken) };
      store.set('session', session);
      return session;
    } catch (error) {
      // A solution solved long ago may have expired: one fresh challenge, then the error stands.
      if (error instanceof ApiError && error.fields.altcha && attempt === 1) return this.create(2);
      throw error;
    }
  }
}
