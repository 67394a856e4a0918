// The contact behind a widget visitor or form (docs/widget.md, "Identity"): verified contacts are
// found again by the host site's user id; an email typed by a visitor finds that email's contact,
// which it never changes (an email is no proof of identity). Contact writes of a workspace take
// turns under one transaction lock, so concurrent starts never create the same contact twice.
import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import type { ContactRef, ContactRepository } from '../../db/repositories/contact.repository.js';
import type { Executor } from '../../db/repositories/executor.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { VerifiedIdentity } from './identity-token.js';
import { inTransaction } from '../shared/unit-of-work.js';
import type { WidgetProduct } from './widget-settings.js';

export interface VisitorContactsDeps {
  db: Db;
  dialect: Pick<Dialect, 'lockKeyInTransaction' | 'isUniqueViolation'>;
  contacts: ContactRepository;
  clock: Clock;
}

type NewContact = Pick<ContactRef, 'name' | 'email'> & { identity_product_id?: string; external_id?: string };

export function createVisitorContacts({ db, dialect, contacts, clock }: VisitorContactsDeps) {
  /** Runs `body` under the workspace's contacts lock; once more after losing an email to a concurrent API import. */
  async function underContactsLock<T>(workspaceId: string, body: (tx: Executor) => Promise<T>): Promise<T> {
    const attempt = () => inTransaction(db, async ({ tx }) => {
      await dialect.lockKeyInTransaction(tx, `contacts:${workspaceId}`);
      return body(tx);
    });
    try {
      return await attempt();
    } catch (error) {
      if (!dialect.isUniqueViolation(error)) throw error;
      return attempt();
    }
  }

  async function insert(workspaceId: string, fields: NewContact, tx: Executor): Promise<ContactRef> {
    const now = clock.now();
    const row = { id: newId(), workspace_id: workspaceId, created_at: now, updated_at: now, ...fields };
    await contacts.insert(row, tx);
    return { id: row.id, name: row.name, email: row.email, external_id: row.external_id ?? null };
  }

  return {
    /**
     * The host site's user: found by `sub`, else the workspace's contact of the token's email when
     * no other user claimed it, else a new one. The host site is authoritative for its user's name
     * and email, so they follow the token (an email another contact holds is left where it is).
     */
    verified: (product: WidgetProduct, identity: VerifiedIdentity): Promise<ContactRef> =>
      underContactsLock(product.workspace_id, async (tx) => {
        const ws = product.workspace_id;
        const known = await contacts.findByIdentity(ws, product.id, identity.sub, tx);
        const byEmail = identity.email === null ? undefined : await contacts.findByEmail(ws, identity.email, tx);
        const emailFree = byEmail === undefined || byEmail.id === known?.id;
        if (known) {
          const name = identity.name ?? known.name;
          const email = identity.email !== null && emailFree ? identity.email : known.email;
          if (name !== known.name || email !== known.email) await contacts.update(ws, known.id, { name, email, updated_at: clock.now() }, tx);
          return { ...known, name, email };
        }
        if (byEmail && byEmail.external_id === null) {
          const name = identity.name ?? byEmail.name;
          await contacts.update(ws, byEmail.id, { name, identity_product_id: product.id, external_id: identity.sub, updated_at: clock.now() }, tx);
          return { ...byEmail, name, external_id: identity.sub };
        }
        return insert(ws, { name: identity.name, email: emailFree ? identity.email : null, identity_product_id: product.id, external_id: identity.sub }, tx);
      }),

    /** A visitor who typed at most a name and an email: that email's contact as it is, else a new contact. */
    unverified: (product: WidgetProduct, name: string | null, email: string | null): Promise<ContactRef> =>
      email === null
        ? inTransaction(db, ({ tx }) => insert(product.workspace_id, { name, email: null }, tx))
        : underContactsLock(product.workspace_id, async (tx) =>
          (await contacts.findByEmail(product.workspace_id, email, tx)) ?? insert(product.workspace_id, { name, email }, tx)),
  };
}

export type VisitorContacts = ReturnType<typeof createVisitorContacts>;
