// Visitor sessions of the widget API: found by the SHA-256 of their token, with their contact.
import { compileOnce } from './compiled-query.js';
import type { Executor } from './executor.js';
import type { WidgetSessionTable } from '../schema.js';

export type WidgetSessionRow = WidgetSessionTable;

/** A session with its contact's name (what verified visitors' messages carry). */
export interface WidgetSessionWithContactRow extends Omit<WidgetSessionRow, 'token_hash'> {
  contact_name: string | null;
}

export function widgetSessionRepository(db: Executor) {
  const byHash = compileOnce(['tokenHash'], ({ tokenHash }: { tokenHash: string }) =>
    db
      .selectFrom('widget_sessions as s')
      .innerJoin('contacts as ct', 'ct.id', 's.contact_id')
      .select([
        's.id', 's.workspace_id', 's.product_id', 's.contact_id', 's.verified', 's.name', 's.created_at', 's.last_used_at',
        'ct.name as contact_name',
      ])
      .where('s.token_hash', '=', tokenHash),
  );
  const touch = compileOnce(['id', 'now', 'before'], ({ id, now, before }: { id: string; now: string; before: string }) =>
    db.updateTable('widget_sessions').set({ last_used_at: now }).where('id', '=', id).where('last_used_at', '<', before),
  );

  return {
    async insert(row: WidgetSessionRow, tx: Executor = db): Promise<void> {
      await tx.insertInto('widget_sessions').values(row).execute();
    },

    /** Not scoped by workspace: the token names its session, which the caller checks against the widget key's product. */
    findByTokenHash: async (tokenHash: string, tx: Executor = db): Promise<WidgetSessionWithContactRow | undefined> =>
      (await byHash(tx, { tokenHash }))[0],

    /** Moves last_used_at to `now` unless it is already later than `before` (at most one write a minute). */
    async touch(id: string, now: string, before: string, tx: Executor = db): Promise<void> {
      await touch(tx, { id, now, before });
    },

    /** Ends the verified sessions of a product (its identity secret changed). */
    async deleteVerified(workspaceId: string, productId: string, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('widget_sessions').where('workspace_id', '=', workspaceId).where('product_id', '=', productId).where('verified', '=', 1).execute();
    },
  };
}

export type WidgetSessionRepository = ReturnType<typeof widgetSessionRepository>;
