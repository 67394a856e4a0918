// A key acts without a member (an integration key, with owner rank) only when it was made so:
// `integration` says it, instead of `member_id` being null. Until now a key whose member was
// deleted while it was being created (the foreign key's ON DELETE SET NULL) turned into an
// integration key; now such a key authenticates as nothing (docs/accounts.md, "Races").
// Keys without a member before this migration were made as integration keys (removing a member
// revokes its keys first), so they keep working.
import { sql, type Kysely } from 'kysely';

export function apiKeyIntegration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('api_keys').addColumn('integration', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await sql`update api_keys set integration = 1 where member_id is null and revoked_at is null`.execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('api_keys').dropColumn('integration').execute();
    },
  };
}
