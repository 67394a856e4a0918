// Visitor sessions of the widget (docs/widget.md, "Sessions" and "Identity"): anonymous, with a
// typed email (unverified), or vouched for by the host site's identity token (verified). A
// session's token (`wst_` + 40 base62) is shown once and stored as its SHA-256; it stays valid
// until 30 days after its last use.
import type { ProductRepository } from '../../db/repositories/product.repository.js';
import type { WidgetSessionRepository } from '../../db/repositories/widget-session.repository.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { randomToken, sha256Hex } from '../../lib/tokens.js';
import { nonBlankContactName } from '../contacts/contact-name.js';
import { verifyIdentityToken } from './identity-token.js';
import type { ProofOfWork } from './proof-of-work.service.js';
import type { VisitorContacts } from './visitor-contacts.js';
import type { WidgetProduct } from './widget-settings.js';

export const SESSION_TTL_MS = 30 * 24 * 3600_000;
const TOUCH_EVERY_MS = 60_000;
const TOKEN_FORMAT = /^wst_[0-9A-Za-z]{40}$/;

export interface SessionInput {
  name?: string;
  email?: string;
  identity_token?: string;
  altcha?: string;
}

export interface SessionContact {
  id: string;
  name: string | null;
  email: string | null;
  verified: boolean;
}

export interface StartedSession {
  token: string;
  expires_at: string;
  contact: SessionContact;
}

/** Who is behind a widget request: the session, its contact and what it may see. */
export interface Visitor {
  sessionId: string;
  workspaceId: string;
  productId: string;
  contactId: string;
  /** Verified visitors see every conversation of their contact; others only the ones their session started. */
  verified: boolean;
  /** The name their messages carry. */
  name: string | null;
}

export interface WidgetSessionServiceDeps {
  products: Pick<ProductRepository, 'identitySecretOf'>;
  visitorContacts: VisitorContacts;
  widgetSessions: WidgetSessionRepository;
  proofOfWork: ProofOfWork;
  clock: Clock;
}

export function createWidgetSessionService({ products, widgetSessions, visitorContacts, proofOfWork, clock }: WidgetSessionServiceDeps) {
  return {
    async start(product: WidgetProduct, input: SessionInput): Promise<StartedSession> {
      const now = clock.now();
      const typedName = nonBlankContactName('name', input.name);
      const identity = input.identity_token === undefined
        ? null
        : await verifyIdentityToken(input.identity_token, {
          secret: await products.identitySecretOf(product.workspace_id, product.id), widgetKey: product.widget_key, now,
        });
      if (identity === null && product.settings.require_identity) {
        throw new AppError('unauthorized', 'this widget requires an identity_token signed by the host site');
      }
      if (product.settings.proof_of_work) await proofOfWork.verifyOnce(product.id, input.altcha);

      const typedEmail = input.email?.toLowerCase() ?? null;
      const contact = identity ? await visitorContacts.verified(product, identity) : await visitorContacts.unverified(product, typedName, typedEmail);
      const token = randomToken('wst_', 40);
      const sessionId = newId();
      await widgetSessions.insert({
        id: sessionId, workspace_id: product.workspace_id, product_id: product.id, contact_id: contact.id, token_hash: sha256Hex(token),
        verified: identity ? 1 : 0, name: identity ? null : typedName, created_at: now, last_used_at: now,
      });
      return {
        token,
        expires_at: new Date(Date.parse(now) + SESSION_TTL_MS).toISOString(),
        // An unverified visitor is shown what they typed, never what the workspace knows of that email:
        // not even whether it knows it, so the id is the session's (fresh either way), not the contact's,
        // whose age would tell how long the email has been a customer.
        contact: identity
          ? { id: contact.id, name: contact.name, email: contact.email, verified: true }
          : { id: sessionId, name: typedName, email: typedEmail, verified: false },
      };
    },

    /** The visitor a token names on this product, or null when it is malformed, unknown, expired or another product's. */
    async authenticate(product: WidgetProduct, token: string): Promise<Visitor | null> {
      if (!TOKEN_FORMAT.test(token)) return null;
      const session = await widgetSessions.findByTokenHash(sha256Hex(token));
      if (!session || session.product_id !== product.id) return null;
      const nowMs = Date.parse(clock.now());
      const lastUsedMs = Date.parse(session.last_used_at);
      if (nowMs >= lastUsedMs + SESSION_TTL_MS) return null;
      if (nowMs - lastUsedMs >= TOUCH_EVERY_MS) {
        await widgetSessions.touch(session.id, new Date(nowMs).toISOString(), new Date(nowMs - TOUCH_EVERY_MS).toISOString());
      }
      const verified = session.verified === 1;
      return {
        sessionId: session.id, workspaceId: session.workspace_id, productId: session.product_id, contactId: session.contact_id,
        verified, name: verified ? session.contact_name : session.name,
      };
    },
  };
}

export type WidgetSessionService = ReturnType<typeof createWidgetSessionService>;
