// A member's own settings, set with PATCH /api/v1/me (docs/accounts.md): the signature their
// mailed replies carry, their time zone (an IANA name; null: UTC) and whether they want
// notifications by email (0 or 1, off by default).
import type { Kysely } from 'kysely';

export function memberSettings() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('members').addColumn('signature', 'text').execute();
      await db.schema.alterTable('members').addColumn('time_zone', 'text').execute();
      await db.schema.alterTable('members').addColumn('notify_email', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const column of ['notify_email', 'time_zone', 'signature']) await db.schema.alterTable('members').dropColumn(column).execute();
    },
  };
}
